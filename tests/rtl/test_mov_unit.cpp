// tmu_mov_unit against the refmodel's data-movement conversions (tmu/tensix/movconv.h), arranged into
// rows and lanes the way refmodel/engines/tensix/src/insn/mov.cpp, shift.cpp and src_banks.cpp (exec_trnspsrcb)
// arrange them. A sweep of every op x row count x broadcast x SrcA format code x FP16A_FORCE x
// flush x UseDst32bLo x use_dst32b (MOVB2D: x every SrcB format code x FP16A_FORCE x flush) comes
// first, then random operations; all are streamed back to back with occasional bubbles of
// garbage. In the issue cycle dst_read32_o / dst_write32_o / undefined_o are compared with the
// model's plan; kLatency cycles later the write enables, row masks and every written datum.
#include <array>
#include <cinttypes>
#include <vector>

#include "harness.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/movconv.h"

namespace tmu_rtl {
namespace {

inline constexpr unsigned kLatency = 4;  // tmu_blocks_tb u_mov_unit (the default Latency)
inline constexpr unsigned kCols = 16;
inline constexpr unsigned kSrcRows = 16;  // the Src window
inline constexpr unsigned kDstRows = 8;   // the Dst window

// tmu_pkg::mov_op_e
enum MovOp : unsigned { kA2D, kB2D, kD2A, kD2B, kB2A, kShiftXA, kShiftXB, kTrnspSrcB, kNumOps };
const char* const kOpNames[kNumOps] = {"MOVA2D", "MOVB2D", "MOVD2A", "MOVD2B",
                                       "MOVB2A", "SHIFTXA", "SHIFTXB", "TRNSPSRCB"};

using SrcBlock = std::array<std::array<uint32_t, kCols>, kSrcRows>;
using DstBlock = std::array<std::array<uint32_t, kCols>, kDstRows>;

struct Operation {
  unsigned op = kA2D;
  unsigned rows = 1;
  bool broadcast_row = false, broadcast_col0 = false, shift_left = false, shift_in_zero = false;
  uint32_t srca_format = 0, srcb_format = 0;
  bool fp16a_force = false, flush = true, use_dst32b_lo = false, use_dst32b = false;
  SrcBlock src{};
  DstBlock dst{};  // in the view the model reads (16-bit values with a zero high half)
  // Expected
  bool read32 = false, write32 = false, undefined = false;
  bool dst_we = false, src_we = false;
  unsigned dst_mask = 0, src_mask = 0;
  DstBlock want_dst{};
  SrcBlock want_src{};
  uint64_t index = 0;
};

// Src datums with the special cases weighted in: zeros, denormals (exponent 7:0 zero), maximum
// exponents, exponents whose low five bits are zero (FP16-style flush vs. 8-bit flush).
uint32_t random_datum(Rng& rng) {
  const auto sign = static_cast<uint32_t>(rng.bits(1)) << 18;
  const auto mantissa = static_cast<uint32_t>(rng.bits(10)) << 8;
  switch (rng.between(0, 11)) {
    case 0: return 0;
    case 1: return sign;
    case 2: return sign | mantissa;                                            // denormal
    case 3: return sign | mantissa | 0xffu;                                    // max exponent
    case 4: return sign | mantissa | (static_cast<uint32_t>(rng.between(1, 7)) << 5);  // low 5 zero
    case 5: return sign | mantissa | 0x1fu;
    case 6: return sign | mantissa | static_cast<uint32_t>(rng.between(1, 31));  // FP16-style
    default: return static_cast<uint32_t>(rng.bits(19));
  }
}

uint32_t random_dst(Rng& rng, bool read32) {
  uint32_t v = 0;
  switch (rng.between(0, 7)) {
    case 0: v = 0; break;
    case 1: v = 0xffffffffu; break;
    case 2: v = static_cast<uint32_t>(rng.bits(32)) & 0xffff00ffu; break;  // zero exponent / mantissa
    default: v = static_cast<uint32_t>(rng.bits(32)); break;
  }
  return read32 ? v : v & 0xffffu;
}

// mov.cpp write_dst_datum for a Dst window element.
uint32_t dst_after_write(uint32_t old_value, const tmu::tensix::DstWrite& w) {
  if (w.kind == tmu::tensix::DstWriteKind::Dst32bLow16) return (old_value & 0xffff0000u) | (w.value & 0xffffu);
  return w.value;
}

// The model's plan and results for op's inputs (everything but the Dst window, which the plan's
// view decides and which is filled in between the two calls).
void plan(Operation& op) {
  tmu::tensix::MovToDstConfig to_dst;
  to_dst.srca_format_code = op.srca_format;
  to_dst.fp16a_force = op.fp16a_force;
  to_dst.flush_denormals = op.flush;
  to_dst.use_dst32b_lo = op.use_dst32b_lo;
  op.read32 = op.write32 = op.undefined = false;
  switch (op.op) {
    case kA2D:
    case kB2D: {
      const tmu::tensix::DstWriteKind kind = tmu::tensix::mov_to_dst_write_kind(to_dst);
      op.read32 = kind == tmu::tensix::DstWriteKind::Dst32bLow16;
      op.write32 = kind != tmu::tensix::DstWriteKind::Dst16b;
      // mov.cpp hardware_format: mov_srca_format, and for MOVB2D movb2d_srcb_format, refuse 12, 13.
      op.undefined = !tmu::tensix::is_valid_data_format_code(op.srca_format) ||
                     (op.op == kB2D && !tmu::tensix::is_valid_data_format_code(op.srcb_format));
      break;
    }
    case kD2A:
    case kD2B: {
      tmu::tensix::MovFromDstConfig conv;
      conv.fp16a_force = op.fp16a_force;
      if (!conv.fp16a_force) conv.srca_format_code = op.srca_format;  // move_dst_to_src
      conv.use_dst32b = op.use_dst32b;
      conv.use_dst32b_lo = op.use_dst32b_lo;
      const tmu::tensix::MovFromDstPlan p = tmu::tensix::plan_mov_from_dst(conv);
      op.read32 = p.read_dst32b;
      op.undefined = (!op.fp16a_force && !tmu::tensix::is_valid_data_format_code(op.srca_format)) || p.undefined != nullptr;
      break;
    }
    default:
      break;
  }
}

void expect(Operation& op) {
  op.dst_we = op.src_we = false;
  op.dst_mask = op.src_mask = 0;
  op.want_dst = DstBlock{};
  op.want_src = SrcBlock{};
  if (op.undefined) return;  // refused: nothing is written
  tmu::tensix::MovToDstConfig to_dst;
  to_dst.srca_format_code = op.srca_format;
  to_dst.fp16a_force = op.fp16a_force;
  to_dst.flush_denormals = op.flush;
  to_dst.use_dst32b_lo = op.use_dst32b_lo;
  switch (op.op) {
    case kA2D:  // exec_mova2d
      op.dst_we = true;
      op.dst_mask = (1u << op.rows) - 1;
      for (unsigned i = 0; i < op.rows; ++i)
        for (unsigned col = 0; col < kCols; ++col)
          op.want_dst[i][col] = dst_after_write(op.dst[i][col], tmu::tensix::mova2d_datum(op.src[i][col], to_dst));
      break;
    case kB2D: {  // exec_movb2d
      const unsigned count = op.broadcast_row ? 8 : op.rows;
      op.dst_we = true;
      op.dst_mask = (1u << count) - 1;
      for (unsigned i = 0; i < count; ++i) {
        const auto& src = op.src[op.broadcast_row ? 0 : i];
        for (unsigned col = 0; col < kCols; ++col)
          op.want_dst[i][col] = dst_after_write(
              op.dst[i][col], tmu::tensix::movb2d_datum(src[op.broadcast_col0 ? 0 : col], to_dst, op.srcb_format));
      }
      break;
    }
    case kD2A:
    case kD2B: {  // move_dst_to_src
      tmu::tensix::MovFromDstConfig conv;
      conv.fp16a_force = op.fp16a_force;
      if (!conv.fp16a_force) conv.srca_format_code = op.srca_format;
      conv.use_dst32b = op.use_dst32b;
      conv.use_dst32b_lo = op.use_dst32b_lo;
      const tmu::tensix::MovFromDstPlan p = tmu::tensix::plan_mov_from_dst(conv);
      op.src_we = true;
      op.src_mask = (1u << op.rows) - 1;
      for (unsigned i = 0; i < op.rows; ++i)
        for (unsigned col = 0; col < kCols; ++col) op.want_src[i][col] = tmu::tensix::mov_from_dst_datum(op.dst[i][col], p);
      break;
    }
    case kB2A:  // exec_movb2a: four rows
      op.src_we = true;
      op.src_mask = 0xf;
      for (unsigned i = 0; i < 4; ++i)
        for (unsigned col = 0; col < kCols; ++col) op.want_src[i][col] = tmu::tensix::movb2a_datum(op.src[i][col], op.flush);
      break;
    case kShiftXA: {  // exec_shiftxa: input rows -> output rows 0..15
      const uint32_t direction = op.shift_left ? 3 : 2;
      op.src_we = true;
      op.src_mask = 0xffff;
      for (unsigned i = 0; i < kSrcRows; ++i) {
        const auto in = op.src[i];
        for (unsigned col = 0; col < kCols; ++col) {
          uint32_t v = 0;
          if (direction == 2 && col > 0) v = in[col - 1];
          if (direction == 3 && col + 1 < kCols) v = in[col + 1];
          op.want_src[i][col] = v;
        }
      }
      break;
    }
    case kShiftXB: {  // exec_shiftxb: the one row, in place
      op.src_we = true;
      op.src_mask = 0x1;
      const auto in = op.src[0];
      for (unsigned col = 0; col + 1 < kCols; ++col) op.want_src[0][col] = in[col + 1];
      op.want_src[0][kCols - 1] = op.shift_in_zero ? 0u : in[0];
      break;
    }
    case kTrnspSrcB: {  // exec_trnspsrcb on rows 16..31, here the window's rows 0..15
      op.src_we = true;
      op.src_mask = 0xffff;
      SrcBlock rows = op.src;
      for (unsigned i = 0; i < kSrcRows; ++i)
        for (unsigned j = 0; j < i; ++j) {
          const uint32_t ij = rows[i][j];
          const uint32_t ji = rows[j][i];
          rows[i][j] = ji;
          rows[j][i] = ij;
        }
      op.want_src = rows;
      break;
    }
    default:
      break;
  }
}

// Fills an operation's data (and the fields its op ignores) at random, then the expectation.
void complete(Operation& op, Rng& rng) {
  const bool uses_rows = op.op == kA2D || op.op == kB2D || op.op == kD2A || op.op == kD2B || op.op == kB2A;
  if (!uses_rows) op.rows = static_cast<unsigned>(rng.bits(4));  // ignored
  if (op.op != kB2D) {
    op.broadcast_row = rng.bits(1);
    op.broadcast_col0 = rng.bits(1);
  }
  if (op.op != kShiftXA) op.shift_left = rng.bits(1);
  if (op.op != kShiftXB) op.shift_in_zero = rng.bits(1);
  plan(op);
  for (auto& row : op.src)
    for (auto& d : row) d = random_datum(rng);
  for (auto& row : op.dst)
    for (auto& v : row) v = random_dst(rng, op.read32);
  expect(op);
}

// The sweep: every op, row count and broadcast x SrcA format x the four configuration bits;
// MOVB2D also x every SrcB format.
std::vector<Operation> sweep(Rng& rng) {
  std::vector<Operation> ops;
  struct Variant { unsigned op, rows; bool bcast_row, bcast_col, shift_left, shift_in_zero; };
  std::vector<Variant> variants;
  for (unsigned rows : {1u, 8u}) variants.push_back({kA2D, rows, false, false, false, false});
  for (bool col : {false, true}) {
    for (unsigned rows : {1u, 4u}) variants.push_back({kB2D, rows, false, col, false, false});
    variants.push_back({kB2D, 8, true, col, false, false});
  }
  for (unsigned op : {kD2A, kD2B})
    for (unsigned rows : {1u, 4u}) variants.push_back({op, rows, false, false, false, false});
  variants.push_back({kB2A, 4, false, false, false, false});
  for (bool left : {false, true}) variants.push_back({kShiftXA, 16, false, false, left, false});
  for (bool zero : {false, true}) variants.push_back({kShiftXB, 1, false, false, false, zero});
  variants.push_back({kTrnspSrcB, 16, false, false, false, false});
  for (const Variant& v : variants) {
    // MOVB2D's SrcB codes x FP16A_FORCE x flush, the two bits its SrcB read depends on; its
    // UseDst32bLo and use_dst32b are drawn at random there, to keep the run short.
    const bool b2d = v.op == kB2D;
    for (uint32_t a = 0; a < 16; ++a)
      for (uint32_t b = 0; b < (b2d ? 16u : 1u); ++b)
        for (unsigned cfg = 0; cfg < (b2d ? 4u : 16u); ++cfg) {
          Operation op;
          op.op = v.op;
          op.rows = v.rows;
          op.broadcast_row = v.bcast_row;
          op.broadcast_col0 = v.bcast_col;
          op.shift_left = v.shift_left;
          op.shift_in_zero = v.shift_in_zero;
          op.srca_format = a;
          op.srcb_format = v.op == kB2D ? b : static_cast<uint32_t>(rng.bits(4));
          op.fp16a_force = cfg & 1;
          op.flush = cfg & 2;
          op.use_dst32b_lo = b2d ? rng.bits(1) : (cfg & 4) != 0;
          op.use_dst32b = b2d ? rng.bits(1) : (cfg & 8) != 0;
          ops.push_back(op);
        }
  }
  return ops;
}

Operation random_operation(Rng& rng) {
  Operation op;
  op.op = static_cast<unsigned>(rng.bits(3));
  switch (op.op) {
    case kA2D: op.rows = rng.bits(1) ? 8 : 1; break;
    case kB2D:
      op.broadcast_row = rng.chance(30, 100);
      op.broadcast_col0 = rng.chance(30, 100);
      op.rows = op.broadcast_row ? 8 : rng.bits(1) ? 4 : 1;
      break;
    case kD2A:
    case kD2B: op.rows = rng.bits(1) ? 4 : 1; break;
    case kB2A: op.rows = 4; break;
    default: break;
  }
  op.shift_left = rng.bits(1);
  op.shift_in_zero = rng.bits(1);
  // Mostly hardware formats, so that most operations are defined.
  op.srca_format = static_cast<uint32_t>(rng.bits(4));
  if (!tmu::tensix::is_valid_data_format_code(op.srca_format) && rng.chance(80, 100)) op.srca_format = 5;
  op.srcb_format = static_cast<uint32_t>(rng.bits(4));
  if (!tmu::tensix::is_valid_data_format_code(op.srcb_format) && rng.chance(80, 100)) op.srcb_format = 1;
  op.fp16a_force = rng.chance(20, 100);
  op.flush = rng.bits(1);
  op.use_dst32b_lo = rng.chance(40, 100);
  op.use_dst32b = rng.chance(60, 100);
  return op;
}

void drive_block_inputs(Model& top, const SrcBlock& src, const DstBlock& dst) {
  for (unsigned i = 0; i < kSrcRows; ++i)
    for (unsigned j = 0; j < kCols; ++j) put_bits(top.mv_src_i, (i * kCols + j) * kSrcDatumW, kSrcDatumW, src[i][j]);
  for (unsigned i = 0; i < kDstRows; ++i)
    for (unsigned j = 0; j < kCols; ++j) top.mv_dst_i[i * kCols + j] = dst[i][j];
}

void drive_operation(Model& top, const Operation& op) {
  top.mv_valid_i = 1;
  top.mv_op_i = static_cast<uint8_t>(op.op);
  top.mv_rows_i = static_cast<uint8_t>(op.rows);
  top.mv_broadcast_row_i = op.broadcast_row;
  top.mv_broadcast_col0_i = op.broadcast_col0;
  top.mv_shift_left_i = op.shift_left;
  top.mv_shift_in_zero_i = op.shift_in_zero;
  top.mv_srca_format_i = static_cast<uint8_t>(op.srca_format);
  top.mv_srcb_format_i = static_cast<uint8_t>(op.srcb_format);
  top.mv_fp16a_force_i = op.fp16a_force;
  top.mv_flush_denormals_i = op.flush;
  top.mv_use_dst32b_lo_i = op.use_dst32b_lo;
  top.mv_use_dst32b_i = op.use_dst32b;
  drive_block_inputs(top, op.src, op.dst);
}

// Garbage while valid is low: the pipeline must ignore it (a MOVA2D mode, so it would write Dst).
void drive_bubble(Model& top, Rng& rng) {
  top.mv_valid_i = 0;
  top.mv_op_i = static_cast<uint8_t>(rng.bits(3));
  top.mv_rows_i = 8;
  top.mv_srca_format_i = 0;
  top.mv_use_dst32b_lo_i = rng.bits(1);
  for (unsigned w = 0; w < kDstRows * kCols; ++w) top.mv_dst_i[w] = static_cast<uint32_t>(rng.bits(32));
}

void describe(char* buf, size_t n, const Operation& op) {
  std::snprintf(buf, n, "op %" PRIu64 " %s rows=%u brow=%d bcol=%d srca=%u srcb=%u fp16a=%d flush=%d lo=%d d32=%d",
                op.index, kOpNames[op.op], op.rows, op.broadcast_row, op.broadcast_col0, op.srca_format,
                op.srcb_format, op.fp16a_force, op.flush, op.use_dst32b_lo, op.use_dst32b);
}

void check_result(Model& top, const Operation& op, Checker& chk) {
  char what[200];
  describe(what, sizeof what, op);
  if (top.mv_dst_we_o != op.dst_we || top.mv_src_we_o != op.src_we) {
    chk.fail("%s: we dst/src rtl %d/%d ref %d/%d", what, top.mv_dst_we_o, top.mv_src_we_o, op.dst_we, op.src_we);
    return;
  }
  if (op.dst_we) {
    if (top.mv_dst_row_mask_o != op.dst_mask) {
      chk.fail("%s: dst_row_mask rtl %02x ref %02x", what, top.mv_dst_row_mask_o, op.dst_mask);
      return;
    }
    for (unsigned i = 0; i < kDstRows; ++i) {
      if (!((op.dst_mask >> i) & 1)) continue;
      for (unsigned j = 0; j < kCols; ++j) {
        const uint32_t got = top.mv_dst_o[i * kCols + j];
        if (got == op.want_dst[i][j]) chk.pass();
        else chk.fail("%s: dst[%u][%u] rtl %08x ref %08x (src %05x)", what, i, j, got, op.want_dst[i][j], op.src[i][j]);
      }
    }
  }
  if (op.src_we) {
    if (top.mv_src_row_mask_o != op.src_mask) {
      chk.fail("%s: src_row_mask rtl %04x ref %04x", what, top.mv_src_row_mask_o, op.src_mask);
      return;
    }
    for (unsigned i = 0; i < kSrcRows; ++i) {
      if (!((op.src_mask >> i) & 1)) continue;
      for (unsigned j = 0; j < kCols; ++j) {
        const auto got = static_cast<uint32_t>(get_bits(top.mv_src_o, (i * kCols + j) * kSrcDatumW, kSrcDatumW));
        if (got == op.want_src[i][j]) chk.pass();
        else chk.fail("%s: src[%u][%u] rtl %05x ref %05x", what, i, j, got, op.want_src[i][j]);
      }
    }
  }
  if (!op.dst_we && !op.src_we) chk.pass();  // a refused operation wrote nothing, as it should
}

}  // namespace

int test_mov_unit(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "mov_unit");
  std::vector<Operation> ops = sweep(rng);
  const uint64_t swept = ops.size();
  const uint64_t randoms = opt.random_cases(6000);
  for (uint64_t k = 0; k < randoms; ++k) ops.push_back(random_operation(rng));

  top.mv_valid_i = 0;
  sim.reset();
  uint64_t undefined = 0;
  const StreamStats st = stream_operations(
      sim, rng, chk, kLatency, ops.size(),
      [&](uint64_t index) {
        Operation op = ops[index];
        op.index = index;
        complete(op, rng);
        drive_operation(top, op);
        sim.eval();
        // Issue-cycle decode.
        if (top.mv_dst_read32_o != op.read32 || top.mv_dst_write32_o != op.write32 ||
            top.mv_undefined_o != op.undefined) {
          char what[200];
          describe(what, sizeof what, op);
          chk.fail("%s: read32/write32/undefined rtl %d/%d/%d ref %d/%d/%d", what, top.mv_dst_read32_o,
                   top.mv_dst_write32_o, top.mv_undefined_o, op.read32, op.write32, op.undefined);
        } else {
          chk.pass();
        }
        undefined += op.undefined;
        return op;
      },
      [&] { drive_bubble(top, rng); }, [&] { return top.mv_valid_o != 0; },
      [&](const Operation& op) { check_result(top, op, chk); },
      [&](uint64_t tick) {
        if (top.mv_dst_we_o || top.mv_src_we_o) chk.fail("write enable without valid_o at tick %" PRIu64, tick);
      });
  std::printf("mov_unit: %" PRIu64 " operations (%" PRIu64 " swept, %" PRIu64 " undefined), %" PRIu64
              " bubbles, %" PRIu64 " cycles\n",
              st.checked, swept, undefined, st.bubbles, st.ticks);
  if (st.checked != ops.size()) chk.fail("%" PRIu64 " of %zu operations came out", st.checked, ops.size());
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl

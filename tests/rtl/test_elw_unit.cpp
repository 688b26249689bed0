// tmu_elw_unit against the refmodel's element functions (fpu::elwmul_element / elwadd_element /
// elwsub_element and fpu::int8_elw*_element), called per element exactly as src/insn/elw.cpp
// calls them: SrcB broadcasts, AddDst (Dst reads as 0 without it), the INT8 path on Dst32.
// Random 8 x 16 blocks stream into the pipeline back to back (with occasional bubbles), each with
// its own operation and mode, and every block is compared once it leaves the pipeline, kLatency
// cycles after it entered. The data mix in the edges: zeros of both signs (with the zero flag on
// and off, including the +0 - (-0) wrap of the adder), denormals, the largest exponents, exact
// cancellations, alignment ties, Dst values tiny or near the operands, INT8 saturation.
#include <cinttypes>

#include "datapath_gen.h"
#include "tmu/tensix/formats.h"

namespace tmu_rtl {
namespace {

using namespace dp;

inline constexpr unsigned kRows = 8;
inline constexpr unsigned kCols = 16;
inline constexpr unsigned kLatency = 4;  // tmu_blocks_tb u_elw_unit Latency

enum class ElwOp : uint8_t { Mul = 0, Add = 1, Sub = 2 };  // tmu_pkg::elw_op_e
const char* op_name(ElwOp op) { return op == ElwOp::Mul ? "ELWMUL" : op == ElwOp::Add ? "ELWADD" : "ELWSUB"; }

using Block = std::array<std::array<uint32_t, kCols>, kRows>;

struct Operation {
  ElwOp op = ElwOp::Mul;
  bool add_dst = true, bcast_row = false, bcast_col = false, int8 = false;
  fpu::FpuMode mode;
  Block srca{}, srcb{}, dst{}, expect{};
  uint64_t index = 0;
};

// A float datum: mostly near base_exp, often one of the edges.
uint32_t float_datum(Rng& rng, int base_exp, bool fp16) {
  const uint32_t sign = static_cast<uint32_t>(rng.bits(1)) << 18;
  switch (rng.between(0, 19)) {
    case 0: case 1: return sign;                                                     // +-0
    case 2: return sign | (static_cast<uint32_t>(rng.bits(10)) << 8);                // denormal
    case 3: return sign | (static_cast<uint32_t>(rng.bits(10)) << 8) | (fp16 ? 31u : 255u);  // max exp
    default: return random_datum(rng, base_exp, fp16);
  }
}

// An INT8 datum: exponent 16 (the unpacker's marker), sometimes 0 (the zero flag) or arbitrary.
uint32_t int8_datum(Rng& rng) {
  const uint32_t sign = static_cast<uint32_t>(rng.bits(1)) << 18;
  uint32_t magnitude = static_cast<uint32_t>(rng.bits(10));
  if (rng.chance(10, 100)) magnitude = rng.bits(1) ? 0x3FF : 0;
  uint32_t exponent = tmu::tensix::src_layout::kInt8Marker;
  if (rng.chance(10, 100)) exponent = 0;
  if (rng.chance(5, 100)) exponent = static_cast<uint32_t>(rng.bits(8));
  return sign | (magnitude << 8) | exponent;
}

uint32_t float_dst(Rng& rng, const fpu::FpuMode& mode, int base) {
  if (rng.chance(3, 100)) return static_cast<uint32_t>(rng.bits(mode.dst32 ? 32 : 16));
  const bool wide = mode.dst32 || fpu::has_8bit_exponent(mode);
  const int max_exp = wide ? 255 : 31;
  int e = std::clamp(base + static_cast<int>(rng.between(-8, 8)), 0, max_exp);
  switch (rng.between(0, 19)) {
    case 0: e = 0; break;
    case 1: e = max_exp; break;
    case 2: e = static_cast<int>(rng.between(1, 30)); break;  // near the wrapped adder term
    case 3: e = static_cast<int>(rng.between(1, 4)); break;
    case 4: if (mode.dst32) e = static_cast<int>(rng.between(80, 125)); break;  // FP16 -> FP32 zeros
    default: break;
  }
  const uint32_t word = fpu::make_acc_word(static_cast<uint32_t>(rng.bits(1)), static_cast<uint32_t>(e),
                                           static_cast<uint32_t>(rng.bits(23)));
  return fpu::acc_to_dst(word, mode);
}

uint32_t int8_dst(Rng& rng) {
  switch (rng.between(0, 5)) {
    case 0: return static_cast<uint32_t>(rng.bits(32));
    case 1: return tmu::tensix::dst32_from_fp32(0x80000000u);  // -0
    case 2: {
      const int32_t near = 0x7FFFFFFF - static_cast<int32_t>(rng.bits(19));
      return tmu::tensix::dst32_from_int32(rng.bits(1) ? -near : near);
    }
    default: return tmu::tensix::dst32_from_int32(static_cast<int32_t>(rng.between(-(1 << 20), 1 << 20)));
  }
}

Operation random_operation(Rng& rng) {
  Operation op;
  op.op = static_cast<ElwOp>(rng.between(0, 2));
  op.add_dst = op.op == ElwOp::Mul ? !rng.chance(10, 100) : rng.bits(1);
  op.bcast_row = rng.chance(20, 100);
  op.bcast_col = rng.chance(20, 100);
  op.int8 = rng.chance(15, 100);
  const ChainMode cm = random_chain_mode(rng, false, true);
  op.mode = cm.fpu;
  op.mode.srcb_zero_flag_disabled = rng.chance(35, 100);
  if (op.int8) {
    op.mode.srca_style = op.mode.srcb_style = SrcStyle::INT8;
    op.mode.dst32 = true;
  }
  const bool fp16 = op.mode.srca_style == SrcStyle::FP16;
  const int max_exp = fp16 ? 30 : 254;
  const int base_a = static_cast<int>(rng.between(1, max_exp));
  // Additions want nearby exponents (alignment ties, cancellation), products any.
  const int base_b = op.op == ElwOp::Mul ? static_cast<int>(rng.between(1, max_exp))
                                         : std::clamp(base_a + static_cast<int>(rng.between(-12, 12)), 1, max_exp);
  int dst_base = base_a;
  if (op.op == ElwOp::Mul) dst_base = fp16 ? (op.mode.dst32 ? base_a + base_b + 97 : base_a + base_b - 15)
                                           : base_a + base_b - 127;
  else if (fp16 && op.mode.dst32) dst_base = base_a + 112;
  dst_base = std::clamp(dst_base, 0, 255);

  for (unsigned i = 0; i < kRows; ++i)
    for (unsigned j = 0; j < kCols; ++j) {
      if (op.int8) {
        op.srca[i][j] = int8_datum(rng);
        op.srcb[i][j] = int8_datum(rng);
        op.dst[i][j] = int8_dst(rng);
        continue;
      }
      op.srca[i][j] = float_datum(rng, base_a, fp16);
      op.srcb[i][j] = float_datum(rng, base_b, fp16);
      if (op.op != ElwOp::Mul && rng.chance(8, 100)) {
        // Exact cancellation: SrcB = -+SrcA.
        const uint32_t flip = op.op == ElwOp::Add ? (1u << 18) : 0;
        op.srcb[i][j] = op.srca[i][j] ^ flip;
      }
      if (rng.chance(6, 100)) op.srca[i][j] &= ~0xFFu;  // a zero exponent: with a -+0 SrcB, the wrap
      op.dst[i][j] = float_dst(rng, op.mode, dst_base + static_cast<int>(rng.between(-6, 6)));
    }
  return op;
}

// How often the rare paths were met (printed, so a generator change that loses them shows).
struct Coverage {
  uint64_t wrapped = 0;        // the +0 - (-0) adder wrap, its term reaching the accumulator
  uint64_t wrapped_wide = 0;   // ... with a 32-bit sum of 2^28 or more
  uint64_t saturated = 0;      // INT8 results clamped at +-(2^31 - 1)
  uint64_t cancelled = 0;      // float sums exactly zero
};

void note_coverage(const Operation& op, uint32_t a, uint32_t b, uint32_t dst, uint32_t out, Coverage& cov) {
  if (op.int8) {
    if ((tmu::tensix::dst32_to_fp32(out) & 0x7FFFFFFFu) == 0x7FFFFFFFu) ++cov.saturated;
    return;
  }
  if (op.op == ElwOp::Mul) return;
  fpu::ElwTrace t;
  if (op.op == ElwOp::Add) fpu::elwadd_element(a, b, dst, op.add_dst, op.mode, &t);
  else fpu::elwsub_element(a, b, dst, op.add_dst, op.mode, &t);
  if (t.term.mantissa >= 0x80000000u && t.accum.common_exponent > 0) {
    ++cov.wrapped;
    if (t.accum.magnitude >= (1u << 28)) ++cov.wrapped_wide;
  }
  if (t.accum.outcome == fpu::AccumOutcome::Cancelled) ++cov.cancelled;
}

void compute_expected(Operation& op, Coverage& cov) {
  const bool zf = op.mode.srcb_zero_flag_disabled;
  for (unsigned i = 0; i < kRows; ++i)
    for (unsigned j = 0; j < kCols; ++j) {
      const uint32_t a = op.srca[i][j];
      const uint32_t b = op.srcb[op.bcast_row ? 0 : i][op.bcast_col ? 0 : j];
      const uint32_t dst = op.add_dst ? op.dst[i][j] : 0;
      uint32_t out = 0;
      if (op.int8) {
        switch (op.op) {
          case ElwOp::Mul: out = fpu::int8_elwmul_element(a, b, dst, op.mode.fidelity_phase, zf); break;
          case ElwOp::Add: out = fpu::int8_elwadd_element(a, b, dst, op.add_dst, zf); break;
          case ElwOp::Sub: out = fpu::int8_elwsub_element(a, b, dst, op.add_dst, zf); break;
        }
      } else {
        switch (op.op) {
          case ElwOp::Mul: out = fpu::elwmul_element(a, b, dst, op.mode); break;
          case ElwOp::Add: out = fpu::elwadd_element(a, b, dst, op.add_dst, op.mode); break;
          case ElwOp::Sub: out = fpu::elwsub_element(a, b, dst, op.add_dst, op.mode); break;
        }
        if (!op.mode.dst32) out &= 0xFFFFu;  // write_dst16
      }
      op.expect[i][j] = out;
      note_coverage(op, a, b, dst, out, cov);
    }
}

void drive_operation(Model& top, const Operation& op) {
  top.ew_valid_i = 1;
  top.ew_op_i = static_cast<uint8_t>(op.op);
  top.ew_add_dst_i = op.add_dst;
  top.ew_bcast_row_i = op.bcast_row;
  top.ew_bcast_col0_i = op.bcast_col;
  top.ew_srca_style_i = static_cast<uint8_t>(op.mode.srca_style);
  top.ew_srcb_style_i = static_cast<uint8_t>(op.mode.srcb_style);
  top.ew_dst32_i = op.mode.dst32;
  top.ew_phase_i = static_cast<uint8_t>(op.mode.fidelity_phase);
  top.ew_arch_i = op.mode.arch == Arch::Wormhole;
  top.ew_zero_flag_disabled_i = op.mode.srcb_zero_flag_disabled;
  top.ew_int8_i = op.int8;
  for (unsigned i = 0; i < kRows; ++i)
    for (unsigned j = 0; j < kCols; ++j) {
      put_bits(top.ew_srca_i, (i * kCols + j) * kSrcDatumW, kSrcDatumW, op.srca[i][j]);
      put_bits(top.ew_srcb_i, (i * kCols + j) * kSrcDatumW, kSrcDatumW, op.srcb[i][j]);
      top.ew_dst_i[i * kCols + j] = op.dst[i][j];
    }
}

// Garbage on the inputs while valid is low: the pipeline must ignore it.
void drive_bubble(Model& top, Rng& rng) {
  top.ew_valid_i = 0;
  top.ew_op_i = static_cast<uint8_t>(rng.between(0, 2));
  top.ew_int8_i = rng.bits(1);
  top.ew_dst32_i = rng.bits(1);
  top.ew_phase_i = static_cast<uint8_t>(rng.bits(2));
  for (unsigned w = 0; w < kRows * kCols; ++w) top.ew_dst_i[w] = static_cast<uint32_t>(rng.bits(32));
}

void check_result(const Model& top, const Operation& op, Checker& chk) {
  for (unsigned i = 0; i < kRows; ++i)
    for (unsigned j = 0; j < kCols; ++j) {
      const uint32_t got = top.ew_dst_o[i * kCols + j];
      const uint32_t want = op.expect[i][j];
      if (got == want) {
        chk.pass();
        continue;
      }
      const uint32_t b = op.srcb[op.bcast_row ? 0 : i][op.bcast_col ? 0 : j];
      chk.fail("operation %" PRIu64 " %s [%u][%u] int8=%d add_dst=%d bcast=%d%d styles=%d/%d dst32=%d phase=%u "
               "zf_dis=%d %s: a=%05x b=%05x dst=%08x rtl %08x ref %08x",
               op.index, op_name(op.op), i, j, op.int8, op.add_dst, op.bcast_row, op.bcast_col,
               static_cast<int>(op.mode.srca_style), static_cast<int>(op.mode.srcb_style), op.mode.dst32,
               op.mode.fidelity_phase, op.mode.srcb_zero_flag_disabled, tmu::tensix::arch_name(op.mode.arch),
               op.srca[i][j], b, op.dst[i][j], got, want);
    }
}

}  // namespace

int test_elw_unit(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "elw_unit");
  const uint64_t operations = opt.random_cases(3000);
  static_assert(sizeof(top.ew_dst_o) * 8 == kRows * kCols * 32, "tmu_blocks_tb ew_dst_o width");

  top.ew_valid_i = 0;
  sim.reset();
  Coverage cov;
  const StreamStats st = stream_operations(
      sim, rng, chk, kLatency, operations,
      [&](uint64_t index) {
        Operation op = random_operation(rng);
        op.index = index;
        drive_operation(top, op);
        compute_expected(op, cov);
        return op;
      },
      [&] { drive_bubble(top, rng); }, [&] { return top.ew_valid_o != 0; },
      [&](const Operation& op) { check_result(top, op, chk); });
  std::printf("elw_unit: %" PRIu64 " operations checked, %" PRIu64 " bubbles, %" PRIu64 " cycles\n", st.checked,
              st.bubbles, st.ticks);
  std::printf("elw_unit: %" PRIu64 " adder wraps (%" PRIu64 " of them >= 2^28), %" PRIu64 " cancellations, %" PRIu64
              " INT8 saturations\n", cov.wrapped, cov.wrapped_wide, cov.cancelled, cov.saturated);
  if (cov.wrapped_wide == 0 || cov.saturated == 0) chk.fail("a rare path was never exercised");
  if (st.checked != operations) chk.fail("%" PRIu64 " of %" PRIu64 " operations came out", st.checked, operations);
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl

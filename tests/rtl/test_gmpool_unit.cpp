// tmu_gmpool_unit against the refmodel's fpu::gmpool_column / gmpool_other_row_value, applied the
// way src/insn/gmpool.cpp applies them: operations streamed back to back (with occasional bubbles
// carrying garbage), each in its own mode (SrcA style, 16/32-bit Dst, argmax), and each output
// block compared kLatency cycles after it entered. The data aim at the comparison's corners: ties
// for the argmax at every position, equal keys from different SrcA/SrcB exponent pairs, negative
// values, zeros of both signs, SrcB exponent 0 ("minus infinity"), the largest exponents, the
// invalid-Dst identity, and a Dst input just above, equal to or below the column maximum.
// A few operations are also run end to end through the refmodel's execute() on a TensixState, to
// check this file's reading of gmpool.cpp's row handling.
#include <algorithm>
#include <array>
#include <cinttypes>
#include <deque>
#include <string>

#include "harness.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/fpu/gmpool_compare.h"

namespace tmu_rtl {
namespace {

using tmu::tensix::SrcStyle;
namespace fpu = tmu::tensix::fpu;

inline constexpr unsigned kLatency = 4;  // tmu_blocks_tb u_gmpool_unit (the default Latency)
inline constexpr unsigned kRows = 16;    // SrcA rows of the block
inline constexpr unsigned kCols = 16;
inline constexpr unsigned kDstRows = 4;  // the aligned Dst block GMPOOL writes

struct Operation {
  SrcStyle style = SrcStyle::BF16;
  bool dst32 = false;
  bool argmax = false;
  std::array<std::array<uint32_t, kCols>, kRows> srca{};  // [row][column]
  std::array<uint32_t, kRows> srcb{};                      // element i scales SrcA row i
  std::array<std::array<uint32_t, kCols>, kDstRows> dst{};  // as read (identity for invalid rows)
  std::array<bool, kDstRows> dst_valid{true, true, true, true};
  std::array<std::array<uint32_t, kCols>, kDstRows> want{};
  bool end_to_end = false;  // also run through tmu::tensix::execute
  uint64_t index = 0;
};

uint32_t dst_identity(bool dst32) { return dst32 ? fpu::kGmpoolUndefinedDst32 : fpu::kGmpoolUndefinedDst16; }

// The expected block, exactly as gmpool.cpp stores it.
void compute_expected(Operation& op) {
  for (unsigned j = 0; j < kCols; ++j) {
    std::array<uint32_t, kRows> column{};
    for (unsigned i = 0; i < kRows; ++i) column[i] = op.srca[i][j];
    const uint32_t dst_in = op.dst32 ? op.dst[0][j] : op.dst[0][j] << 16;
    const uint32_t out = fpu::gmpool_column(column, op.srcb, dst_in, op.style, op.dst32, op.argmax);
    op.want[0][j] = op.dst32 ? out : out >> 16;
    for (unsigned k = 1; k < kDstRows; ++k)
      op.want[k][j] = op.dst32 ? fpu::gmpool_other_row_value(op.dst[k][j], true, op.argmax) : 0;
  }
}

// ---- data generators ----

uint32_t max_exponent(SrcStyle style) { return style == SrcStyle::FP16 || style == SrcStyle::INT8 ? 31 : 255; }

uint32_t datum(uint32_t sign, uint32_t mantissa, uint32_t exponent) {
  return ((sign & 1) << 18) | ((mantissa & 0x3FF) << 8) | (exponent & 0xFF);
}

uint32_t small_set_mantissa(Rng& rng) {
  static constexpr std::array<uint32_t, 6> kSet{0, 0x3FF, 0x200, 0x001, 0x0F8, 0x007};
  return rng.chance(60, 100) ? kSet[rng.between(0, kSet.size() - 1)] : static_cast<uint32_t>(rng.bits(10));
}

// An exponent near base, sometimes 0, 1 or the largest; FP16 and INT8 sometimes with exponent bits
// 7:5 set, which those styles ignore except in the "exponent is zero" tests.
uint32_t near_exponent(Rng& rng, SrcStyle style, int base) {
  const int max_exp = static_cast<int>(max_exponent(style));
  uint32_t e = 0;
  switch (rng.between(0, 15)) {
    case 0: e = 0; break;
    case 1: e = static_cast<uint32_t>(max_exp); break;
    case 2: e = 1; break;
    default: e = static_cast<uint32_t>(std::clamp(base + static_cast<int>(rng.between(-2, 2)), 0, max_exp)); break;
  }
  if (max_exp == 31 && rng.chance(10, 100)) e |= static_cast<uint32_t>(rng.bits(3)) << 5;
  return e;
}

uint32_t random_srca(Rng& rng, SrcStyle style, int base) {
  if (rng.chance(3, 100)) return static_cast<uint32_t>(rng.bits(kSrcDatumW));
  if (style == SrcStyle::INT8) {
    // Magnitude in the mantissa field; the "exponent" is the marker 16, or 0 for a zero.
    const uint32_t mag = small_set_mantissa(rng);
    const uint32_t marker = rng.chance(10, 100) ? static_cast<uint32_t>(rng.bits(8)) : (mag || rng.chance(50, 100) ? 16 : 0);
    return datum(static_cast<uint32_t>(rng.chance(40, 100)), mag, marker);
  }
  return datum(static_cast<uint32_t>(rng.chance(35, 100)), small_set_mantissa(rng), near_exponent(rng, style, base));
}

uint32_t random_srcb(Rng& rng, SrcStyle style, int base) {
  // Sign and mantissa never matter: fill them with noise.
  const uint32_t noise = static_cast<uint32_t>(rng.bits(11)) << 8;
  if (rng.chance(4, 100)) return noise;  // exponent 0: the row reads as minus infinity
  return noise | near_exponent(rng, style, base);
}

// The column's best scaled SrcA datum (the model's own comparison), for Dst values that tie with it.
fpu::GmpoolDatum column_max(const Operation& op, unsigned j) {
  fpu::GmpoolDatum best = fpu::gmpool_read_and_scale_src(op.srca[0][j], op.style, op.srcb[0]);
  for (unsigned i = 1; i < kRows; ++i) {
    const fpu::GmpoolDatum d = fpu::gmpool_read_and_scale_src(op.srca[i][j], op.style, op.srcb[i]);
    if (fpu::gmpool_candidate_wins(d, best)) best = d;
  }
  return best;
}

// A Dst input for column j of the top row: the identity, noise, or the column maximum stored in
// the Dst style with a nudge of -1, 0 or +1 in the key (losing, tying, winning), or a huge value.
uint32_t top_dst_value(Rng& rng, const Operation& op, unsigned j) {
  const bool dst32 = op.dst32;
  const uint32_t noise = static_cast<uint32_t>(rng.bits(dst32 ? 32 : 16));
  const fpu::GmpoolDstStyle style = fpu::gmpool_dst_style(op.style, dst32, op.argmax);
  switch (rng.between(0, 9)) {
    case 0: return dst_identity(dst32);
    case 1:
    case 2: return noise;
    case 3: {
      fpu::GmpoolDatum big{0, 0x1FF, 0x3FF};
      const uint32_t v = fpu::gmpool_write_dst(big, style) | (noise & 0xFFF);
      return dst32 ? v : v >> 16;
    }
    default: {
      fpu::GmpoolDatum d = column_max(op, j);
      const int nudge = static_cast<int>(rng.between(-1, 1));
      uint32_t mag = (d.exponent << 10) | d.mag_or_man;
      const bool up = (nudge > 0) != (d.sign != 0);
      if (nudge != 0) mag = up ? std::min(mag + 8, 0x7FFFFu) : (mag >= 8 ? mag - 8 : 0);
      d.exponent = mag >> 10;
      d.mag_or_man = mag & 0x3FF;
      uint32_t v = fpu::gmpool_write_dst(d, style);
      if (rng.chance(50, 100)) v |= noise & 0xFFF;  // an earlier index and phase
      return dst32 ? v : v >> 16;
    }
  }
}

void random_mode(Rng& rng, Operation& op) {
  op.style = static_cast<SrcStyle>(rng.between(0, 3));
  op.dst32 = rng.chance(50, 100);
  op.argmax = rng.chance(50, 100);
}

void fill_dst(Rng& rng, Operation& op) {
  for (unsigned k = 0; k < kDstRows; ++k) {
    op.dst_valid[k] = !rng.chance(15, 100);
    for (unsigned j = 0; j < kCols; ++j) {
      if (!op.dst_valid[k]) {
        op.dst[k][j] = dst_identity(op.dst32);
      } else if (k == 0) {
        op.dst[0][j] = top_dst_value(rng, op, j);
      } else {
        op.dst[k][j] = static_cast<uint32_t>(rng.bits(op.dst32 ? 32 : 16));
      }
    }
  }
}

// Random data clustered around one exponent per column and one for SrcB.
Operation clustered_operation(Rng& rng) {
  Operation op;
  random_mode(rng, op);
  const int max_exp = static_cast<int>(max_exponent(op.style));
  const int base_b = static_cast<int>(rng.between(1, max_exp));
  for (unsigned i = 0; i < kRows; ++i) op.srcb[i] = random_srcb(rng, op.style, base_b);
  for (unsigned j = 0; j < kCols; ++j) {
    const int base_a = static_cast<int>(rng.between(1, max_exp));
    for (unsigned i = 0; i < kRows; ++i) op.srca[i][j] = random_srca(rng, op.style, base_a);
  }
  fill_dst(rng, op);
  return op;
}

// Equal keys from different data: SrcB exponents differ per row and each SrcA exponent makes up the
// difference to a common sum, so many rows scale to the same value; a few rows are perturbed.
Operation equal_keys_operation(Rng& rng) {
  Operation op;
  random_mode(rng, op);
  if (op.style == SrcStyle::INT8) op.style = SrcStyle::TF32;  // INT8 ignores the scale
  const int max_exp = static_cast<int>(max_exponent(op.style));
  std::array<int, kRows> exp_b{};
  for (unsigned i = 0; i < kRows; ++i) {
    exp_b[i] = static_cast<int>(rng.between(1, max_exp));
    op.srcb[i] = (static_cast<uint32_t>(rng.bits(11)) << 8) | static_cast<uint32_t>(exp_b[i]);
  }
  for (unsigned j = 0; j < kCols; ++j) {
    const int sum = static_cast<int>(rng.between(2, 2 * max_exp));
    const uint32_t sign = static_cast<uint32_t>(rng.chance(40, 100));
    const uint32_t mantissa = small_set_mantissa(rng);
    for (unsigned i = 0; i < kRows; ++i) {
      const int ea = std::clamp(sum - exp_b[i], 1, max_exp);
      uint32_t m = mantissa;
      if (rng.chance(25, 100)) m ^= static_cast<uint32_t>(rng.bits(3));  // BF16 cannot see this
      op.srca[i][j] = rng.chance(10, 100) ? random_srca(rng, op.style, ea) : datum(sign, m, static_cast<uint32_t>(ea));
    }
  }
  fill_dst(rng, op);
  return op;
}

// The maximum at rows p and q of column j (q == p: once), every other row strictly smaller
// (a smaller mantissa or exponent, or negative), one SrcB exponent for all rows.
void place_ties(Rng& rng, Operation& op, unsigned j, unsigned p, unsigned q, uint32_t top) {
  const int max_exp = static_cast<int>(max_exponent(op.style));
  for (unsigned i = 0; i < kRows; ++i) {
    if (i == p || i == q) {
      op.srca[i][j] = top;
      continue;
    }
    const uint32_t sign = top >> 18, man = (top >> 8) & 0x3FF, e = top & 0xFF;
    switch (rng.between(0, 3)) {
      case 0:  // one exponent lower (or the opposite sign at the bottom)
        op.srca[i][j] = sign ? datum(1, man, std::min<uint32_t>(e + 1, static_cast<uint32_t>(max_exp)))
                             : datum(0, man, e > 1 ? e - 1 : 0);
        break;
      case 1: op.srca[i][j] = datum(1, static_cast<uint32_t>(rng.bits(10)), static_cast<uint32_t>(max_exp)); break;
      case 2: op.srca[i][j] = datum(1, 0x3FF, e); break;
      default: op.srca[i][j] = datum(sign, sign ? 0x3FF : 0, e); break;
    }
    // Guard against an accidental tie or win (the mantissa was already extreme).
    if (!fpu::gmpool_candidate_wins(fpu::gmpool_read_and_scale_src(op.srca[p][j], op.style, op.srcb[p]),
                                    fpu::gmpool_read_and_scale_src(op.srca[i][j], op.style, op.srcb[i])) ||
        fpu::gmpool_comparison_key(fpu::gmpool_read_and_scale_src(op.srca[i][j], op.style, op.srcb[i])) ==
            fpu::gmpool_comparison_key(fpu::gmpool_read_and_scale_src(op.srca[p][j], op.style, op.srcb[p])))
      op.srca[i][j] = datum(0, 0, 0);  // +0, or the tie is with +0 and that is fine too
  }
}

// Column j's maximum at positions p and (p + j) % 16: all pairs for one p across the columns.
Operation tie_operation(Rng& rng, unsigned mode, unsigned p) {
  Operation op;
  op.style = static_cast<SrcStyle>(mode & 3);
  op.dst32 = (mode >> 2) & 1;
  op.argmax = (mode >> 3) & 1;
  const int max_exp = static_cast<int>(max_exponent(op.style));
  const uint32_t exp_b = static_cast<uint32_t>(rng.between(1, max_exp));
  for (unsigned i = 0; i < kRows; ++i) op.srcb[i] = (static_cast<uint32_t>(rng.bits(11)) << 8) | exp_b;
  for (unsigned j = 0; j < kCols; ++j) {
    uint32_t top = 0;
    if (op.style == SrcStyle::INT8) {
      top = datum(static_cast<uint32_t>(rng.chance(30, 100)), static_cast<uint32_t>(rng.between(1, 0x3FF)), 16);
    } else {
      top = datum(static_cast<uint32_t>(rng.chance(30, 100)), small_set_mantissa(rng),
                  static_cast<uint32_t>(rng.between(2, max_exp - 1)));
    }
    place_ties(rng, op, j, p, (p + j) % kRows, top);
  }
  fill_dst(rng, op);
  return op;
}

// Columns whose maximum is a zero, often of both signs: SrcA exponent 0 (+0); INT8 magnitude 0
// with the marker set, or FP16 five-bit exponents summing to 0 (-0 with the sign set); the rest
// negative or scaled by zero; and a Dst value of +-0 in the INT32 layout, so the tie rule decides
// between zeros whose only difference is the sign.
Operation zero_operation(Rng& rng) {
  Operation op;
  random_mode(rng, op);
  if (op.style == SrcStyle::BF16 && rng.chance(50, 100)) op.style = SrcStyle::INT8;
  for (unsigned i = 0; i < kRows; ++i) {
    const uint32_t noise = static_cast<uint32_t>(rng.bits(11)) << 8;
    // FP16: bits 7:5 set, 4:0 clear, so the sum of the five-bit exponents can be 0.
    op.srcb[i] = rng.chance(10, 100) ? noise : noise | (rng.chance(60, 100) ? 0x20u << rng.between(0, 2) : 16u);
  }
  for (unsigned j = 0; j < kCols; ++j)
    for (unsigned i = 0; i < kRows; ++i) {
      const uint32_t sign = static_cast<uint32_t>(rng.bits(1));
      switch (rng.between(0, 4)) {
        case 0: op.srca[i][j] = datum(sign, static_cast<uint32_t>(rng.bits(10)), 0); break;   // +0
        case 1: op.srca[i][j] = datum(sign, 0, 0x20u << rng.between(0, 2)); break;             // +-0 (FP16)
        case 2: op.srca[i][j] = datum(sign, 0, 16); break;                                   // +-0 (INT8)
        case 3: op.srca[i][j] = datum(1, static_cast<uint32_t>(rng.between(1, 0x3FF)), 16); break;
        default: op.srca[i][j] = random_srca(rng, op.style, 16); break;
      }
    }
  fill_dst(rng, op);
  for (unsigned j = 0; j < kCols; ++j)
    if (op.dst_valid[0] && rng.chance(50, 100)) {
      const uint32_t zero = rng.chance(50, 100) ? 0x80000000u : 0u;
      op.dst[0][j] = op.dst32 ? zero | static_cast<uint32_t>(rng.bits(12)) : zero >> 16;
    }
  return op;
}

Operation random_operation(Rng& rng) {
  switch (rng.between(0, 10)) {
    case 10: return zero_operation(rng);
    case 0:
    case 1: return equal_keys_operation(rng);
    case 2:
    case 3: return tie_operation(rng, static_cast<unsigned>(rng.bits(4)), static_cast<unsigned>(rng.bits(4)));
    default: return clustered_operation(rng);
  }
}

// Modes the refmodel's configuration reaches end to end: BF16/FP16/TF32 bank formats with
// ALU_ACC_CTRL_Fp32_enabled either way, and INT8 math (always a 32-bit Dst).
bool reachable_end_to_end(const Operation& op) { return op.style != SrcStyle::INT8 || op.dst32; }

// gmpool.cpp through tmu::tensix::execute: the operands placed in a fresh TensixState (SrcA rows 0..15,
// SrcB row 0, Dst rows 4..7, invalid rows left invalid), the instruction run, Dst read back.
bool run_end_to_end(const Operation& op, std::array<std::array<uint32_t, kCols>, kDstRows>& got) {
  tmu::tensix::TensixState s;
  s.arch = tmu::tensix::Arch::Blackhole;
  for (auto& b : s.SrcA) b.AllowedClient = tmu::tensix::SrcClient::MatrixUnit;
  for (auto& b : s.SrcB) b.AllowedClient = tmu::tensix::SrcClient::MatrixUnit;
  tmu::tensix::DataFormat format = tmu::tensix::DataFormat::TF32;
  if (op.style == SrcStyle::BF16) format = tmu::tensix::DataFormat::BF16;
  if (op.style == SrcStyle::FP16) format = tmu::tensix::DataFormat::FP16;
  s.SrcA[0].Format = s.SrcB[0].Format = format;
  s.Config[0].ALU_ACC_CTRL_INT8_math_enabled = op.style == SrcStyle::INT8;
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = op.dst32;
  constexpr uint32_t kDstRow = 4;
  for (unsigned i = 0; i < kRows; ++i) {
    s.SrcB[0].Rows[0][i] = op.srcb[i];
    for (unsigned j = 0; j < kCols; ++j) s.SrcA[0].Rows[i][j] = op.srca[i][j];
  }
  for (unsigned k = 0; k < kDstRows; ++k) {
    if (!op.dst_valid[k]) continue;
    for (unsigned j = 0; j < kCols; ++j) {
      if (op.dst32) s.Dst.write32(kDstRow + k, j, op.dst[k][j]);
      else s.Dst.write16(kDstRow + k, j, static_cast<uint16_t>(op.dst[k][j]));
    }
  }
  const std::string text = std::string("GMPOOL Dim16x16=1 DstRow=4 ArgMax=") + (op.argmax ? "1" : "0");
  const tmu::tensix::ExecResult r = tmu::tensix::execute(s, tmu::tensix::assemble(text, s.arch), 0);
  if (r.status != tmu::tensix::ExecResult::Status::Retired) return false;
  for (unsigned k = 0; k < kDstRows; ++k)
    for (unsigned j = 0; j < kCols; ++j)
      got[k][j] = op.dst32 ? s.Dst.read32(kDstRow + k, j, 0xDEADBEEF) : s.Dst.read16(kDstRow + k, j, 0xDEAD);
  return true;
}

void drive_operation(Model& top, const Operation& op) {
  top.gm_valid_i = 1;
  top.gm_srca_style_i = static_cast<uint8_t>(op.style);
  top.gm_dst32_i = op.dst32;
  top.gm_argmax_i = op.argmax;
  for (unsigned i = 0; i < kRows; ++i) {
    put_bits(top.gm_srcb_i, i * kSrcDatumW, kSrcDatumW, op.srcb[i]);
    for (unsigned j = 0; j < kCols; ++j) put_bits(top.gm_srca_i, (i * kCols + j) * kSrcDatumW, kSrcDatumW, op.srca[i][j]);
  }
  for (unsigned k = 0; k < kDstRows; ++k)
    for (unsigned j = 0; j < kCols; ++j) top.gm_dst_i[k * kCols + j] = op.dst[k][j];
}

// Garbage on every input while valid is low: the pipeline must ignore it.
void drive_bubble(Model& top, Rng& rng) {
  top.gm_valid_i = 0;
  top.gm_srca_style_i = static_cast<uint8_t>(rng.bits(2));
  top.gm_dst32_i = rng.bits(1);
  top.gm_argmax_i = rng.bits(1);
  for (unsigned w = 0; w < kDstRows * kCols; ++w) top.gm_dst_i[w] = static_cast<uint32_t>(rng.bits(32));
  for (unsigned i = 0; i < kRows; ++i) put_bits(top.gm_srcb_i, i * kSrcDatumW, kSrcDatumW, rng.bits(kSrcDatumW));
}

const char* style_name(SrcStyle s) { return tmu::tensix::src_style_name(s); }

}  // namespace

int test_gmpool_unit(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "gmpool_unit");
  const uint64_t random_ops = opt.random_cases(10000);
  static_assert(sizeof(top.gm_dst_o) * 8 == kDstRows * kCols * 32, "tmu_blocks_tb gm_dst_o width");

  // Targeted first: every mode (style x dst32 x argmax) with the column maximum tied at every pair
  // of positions, then the random mix.
  std::deque<Operation> pending;
  for (unsigned mode = 0; mode < 16; ++mode)
    for (unsigned p = 0; p < kRows; ++p) pending.push_back(tie_operation(rng, mode, p));
  const uint64_t operations = pending.size() + random_ops;

  top.gm_valid_i = 0;
  sim.reset();
  uint64_t e2e_checked = 0, e2e_failed = 0;
  const StreamStats st = stream_operations(
      sim, rng, chk, kLatency, operations,
      [&](uint64_t index) {
        Operation op;
        if (!pending.empty()) {
          op = std::move(pending.front());
          pending.pop_front();
        } else {
          op = random_operation(rng);
        }
        op.index = index;
        op.end_to_end = reachable_end_to_end(op) && (op.index % 97 == 0);
        compute_expected(op);
        drive_operation(top, op);
        return op;
      },
      [&] { drive_bubble(top, rng); }, [&] { return top.gm_valid_o != 0; },
      [&](const Operation& op) {
        for (unsigned k = 0; k < kDstRows; ++k)
          for (unsigned j = 0; j < kCols; ++j) {
            const uint32_t got = top.gm_dst_o[k * kCols + j];
            if (got == op.want[k][j]) {
              chk.pass();
            } else {
              chk.fail("operation %" PRIu64 " row %u column %u style=%s dst32=%d argmax=%d dst_in=%08x: rtl %08x ref %08x",
                       op.index, k, j, style_name(op.style), op.dst32, op.argmax, op.dst[k][j], got, op.want[k][j]);
            }
          }
        if (!op.end_to_end) return;
        std::array<std::array<uint32_t, kCols>, kDstRows> e2e{};
        ++e2e_checked;
        if (!run_end_to_end(op, e2e)) {
          ++e2e_failed;
          chk.fail("operation %" PRIu64 ": GMPOOL did not retire in tmu::tensix::execute", op.index);
          return;
        }
        for (unsigned k = 0; k < kDstRows; ++k)
          for (unsigned j = 0; j < kCols; ++j) {
            const uint32_t got = top.gm_dst_o[k * kCols + j];
            if (got == e2e[k][j]) {
              chk.pass();
            } else {
              ++e2e_failed;
              chk.fail("operation %" PRIu64 " end to end row %u column %u style=%s dst32=%d argmax=%d: rtl %08x exec %08x",
                       op.index, k, j, style_name(op.style), op.dst32, op.argmax, got, e2e[k][j]);
            }
          }
      });
  std::printf("gmpool_unit: %" PRIu64 " operations checked (%" PRIu64 " also through tmu::tensix::execute, %" PRIu64
              " failed there), %" PRIu64 " bubbles, %" PRIu64 " cycles\n",
              st.checked, e2e_checked, e2e_failed, st.bubbles, st.ticks);
  if (st.checked != operations) chk.fail("%" PRIu64 " of %" PRIu64 " operations came out", st.checked, operations);
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl

// tmu_mvmul_block (reduced to kMvmulRows rows in tmu_blocks_tb) against the refmodel's
// fpu::mvmul_block: random float and INT8 operations streamed into the pipeline back-to-back (with
// occasional bubbles), each in its own mode, and every output block compared with the model's
// once it leaves the pipeline, kLatency cycles after it entered.
#include <cinttypes>

#include "datapath_gen.h"
#include "tmu/tensix/fpu/mvmul_block.h"

namespace tmu_rtl {
namespace {

using namespace dp;

inline constexpr unsigned kMvmulRows = 2;   // tmu_blocks_tb MvmulRows
inline constexpr unsigned kLatency = 5;   // tmu_blocks_tb u_mvmul_block Latency (MatrixUnit.md)
inline constexpr unsigned kCols = fpu::kBlockColumns;

struct Operation {
  fpu::FpuMode mode;
  fpu::MvmulBlock block;      // inputs; dst becomes the expected output
  uint64_t index = 0;
  unsigned saturating = 0;    // INT8: elements whose Dst + dot product passes +/-(2^31 - 1)
};

// A stored Dst value in the mode's format near exponent base, sometimes arbitrary bits.
uint32_t random_dst_value(Rng& rng, const fpu::FpuMode& mode, int base) {
  if (rng.chance(3, 100)) return static_cast<uint32_t>(rng.bits(mode.dst32 ? 32 : 16));
  const bool wide = mode.dst32 || fpu::has_8bit_exponent(mode);
  const int max_exp = wide ? 255 : 31;
  int e = std::clamp(base + static_cast<int>(rng.between(-8, 8)), 0, max_exp);
  if (rng.chance(5, 100)) e = 0;
  if (rng.chance(2, 100)) e = max_exp;
  const uint32_t word = fpu::make_acc_word(static_cast<uint32_t>(rng.bits(1)), static_cast<uint32_t>(e),
                                           static_cast<uint32_t>(rng.bits(23)));
  return fpu::acc_to_dst(word, mode);
}

// Product exponent (accumulator bias) of two Src exponents in phase 0.
int product_exponent(const fpu::FpuMode& mode, int exp_a, int exp_b) {
  if (mode.srca_style != SrcStyle::FP16) return exp_a + exp_b - 127;
  return mode.dst32 ? exp_a + exp_b + 97 : exp_a + exp_b - 15;
}

// An operation whose every element is one exact product (+-1.0 x 2^E: SrcA row 0 and SrcB column
// 0 hold powers of two, everything else is zero) against a Dst value of the other sign and the
// same magnitude plus 0..2 of the Dst format's LSBs: exact cancellation, and with a negative Dst
// the one-LSB sum the Wormhole renormalisation quirk mis-normalises. Random data never gets there.
Operation cancelling_operation(Rng& rng) {
  Operation op;
  op.mode = random_chain_mode(rng, false, false).fpu;
  op.mode.fidelity_phase = 0;  // the phase whose slices hold the implicit ones
  const bool fp16 = op.mode.srca_style == SrcStyle::FP16;
  const int lo = fp16 ? 8 : 100, hi = fp16 ? 20 : 154;
  const unsigned lsb_shift = op.mode.dst32 ? 0 : (fp16 ? 13 : 16);
  std::array<int, kCols> exp_a{};
  for (unsigned j = 0; j < kCols; ++j) {
    exp_a[j] = static_cast<int>(rng.between(lo, hi));
    for (unsigned k = 0; k < fpu::kDotLength; ++k) op.block.srca[k][j] = 0;
    op.block.srca[0][j] = static_cast<uint32_t>(exp_a[j]);
  }
  op.block.rows = kMvmulRows;
  for (unsigned i = 0; i < kMvmulRows; ++i) {
    const int exp_b = static_cast<int>(rng.between(lo, hi));
    const uint32_t sign_b = static_cast<uint32_t>(rng.bits(1));
    for (unsigned k = 0; k < fpu::kDotLength; ++k) op.block.srcb[i][k] = 0;
    op.block.srcb[i][0] = (sign_b << 18) | static_cast<uint32_t>(exp_b);
    for (unsigned j = 0; j < kCols; ++j) {
      const auto e = static_cast<uint32_t>(product_exponent(op.mode, exp_a[j], exp_b));
      const auto delta = static_cast<uint32_t>(rng.between(0, 2)) << lsb_shift;
      op.block.dst[i][j] = fpu::acc_to_dst(fpu::make_acc_word(sign_b ^ 1u, e, delta), op.mode);
    }
  }
  return op;
}

// ---- INT8 math: integer "8" Src datums (sign, 10-bit magnitude, exponent field as the zero
// flag), sign-magnitude INT32 Dst32 values, saturation at +/-(2^31 - 1) ----

uint32_t int8_datum(uint32_t sign, uint32_t magnitude, uint32_t exponent) {
  return (sign << 18) | ((magnitude & 0x3FF) << 8) | (exponent & 0xFF);
}

// sign < 0: a random sign. large: magnitudes near the top of the 10-bit field.
uint32_t random_int8_datum(Rng& rng, int sign, bool large) {
  if (!large && rng.chance(3, 100)) return static_cast<uint32_t>(rng.bits(kSrcDatumW));
  const auto s = static_cast<uint32_t>(sign < 0 ? rng.bits(1) : static_cast<uint64_t>(sign));
  uint32_t exponent = 16;  // what the unpacker writes for a non-zero integer
  if (rng.chance(6, 100)) exponent = 0;  // the zero flag reads the datum as 0
  else if (rng.chance(6, 100)) exponent = static_cast<uint32_t>(rng.bits(8));
  uint32_t magnitude = 0;
  if (large) {
    magnitude = rng.chance(30, 100) ? 0x3FF : static_cast<uint32_t>(rng.between(0x300, 0x3FF));
  } else {
    switch (rng.between(0, 7)) {
      case 0: magnitude = 0; break;
      case 1: magnitude = 0x3FF; break;
      case 2: magnitude = 0xFF; break;
      case 3: magnitude = static_cast<uint32_t>(rng.bits(8)); break;
      default: magnitude = static_cast<uint32_t>(rng.bits(10)); break;
    }
  }
  return int8_datum(s, magnitude, exponent);
}

// -(2^31 - 1) .. 2^31 - 1, mostly near one of the edges (0, the saturation limits) or uniform.
int32_t random_int32(Rng& rng) {
  switch (rng.between(0, 4)) {
    case 0: return static_cast<int32_t>(rng.between(-1000, 1000));
    case 1: return fpu::kInt32SaturationLimit - static_cast<int32_t>(rng.between(0, 1 << 23));
    case 2: return -fpu::kInt32SaturationLimit + static_cast<int32_t>(rng.between(0, 1 << 23));
    default: return static_cast<int32_t>(rng.between(-fpu::kInt32SaturationLimit, fpu::kInt32SaturationLimit));
  }
}

// The dot product alone, from the refmodel (the element with a zero Dst).
int32_t int8_dot(const fpu::MvmulBlock& block, unsigned i, unsigned j, uint32_t phase) {
  std::array<uint32_t, fpu::kDotLength> column{};
  for (unsigned k = 0; k < fpu::kDotLength; ++k) column[k] = block.srca[k][j];
  return tmu::tensix::dst32_to_int32(fpu::int8_mvmul_element(column, block.srcb[i], tmu::tensix::dst32_from_int32(0), phase));
}

// Either random data, or "large" data: big magnitudes whose signs follow their SrcA column and
// SrcB row, so every dot product is large with a known sign, against a Dst near the limit of the
// same sign (saturation) or the other one. Dst values are sometimes the negated dot product plus
// a few units (cancellation, sign change), -0, or arbitrary bits.
Operation int8_operation(Rng& rng) {
  Operation op;
  op.mode.srca_style = op.mode.srcb_style = SrcStyle::INT8;
  // The refmodel's INT8 mode has dst32 set (INT8 math implies Dst32b); the integer path never
  // reads it, which a few operations with it clear check.
  op.mode.dst32 = !rng.chance(10, 100);
  op.mode.fidelity_phase = static_cast<uint32_t>(rng.bits(2));
  op.mode.arch = rng.bits(1) ? Arch::Wormhole : Arch::Blackhole;
  op.mode.srcb_zero_flag_disabled = rng.bits(1);
  const bool large = rng.chance(40, 100);
  std::array<int, kCols> sign_a{};
  for (unsigned j = 0; j < kCols; ++j) sign_a[j] = large ? static_cast<int>(rng.bits(1)) : -1;
  for (unsigned k = 0; k < fpu::kDotLength; ++k)
    for (unsigned j = 0; j < kCols; ++j) op.block.srca[k][j] = random_int8_datum(rng, sign_a[j], large);
  op.block.rows = kMvmulRows;
  for (unsigned i = 0; i < kMvmulRows; ++i) {
    const int sign_b = large ? static_cast<int>(rng.bits(1)) : -1;
    for (unsigned k = 0; k < fpu::kDotLength; ++k) op.block.srcb[i][k] = random_int8_datum(rng, sign_b, large);
    for (unsigned j = 0; j < kCols; ++j) {
      uint32_t& dst = op.block.dst[i][j];
      // Log-uniform distance from the limit, so the small dot products of phases 2 and 3 pass it too.
      const auto below_limit = static_cast<int32_t>(rng.bits(static_cast<unsigned>(rng.between(0, 22))));
      const int32_t limit = fpu::kInt32SaturationLimit - below_limit;
      switch (rng.between(0, 9)) {
        case 0: dst = static_cast<uint32_t>(rng.bits(32)); break;
        case 1: dst = tmu::tensix::dst32_from_fp32(0x80000000u); break;  // -0
        case 2: {
          const int32_t dot = int8_dot(op.block, i, j, op.mode.fidelity_phase);
          dst = tmu::tensix::dst32_from_int32(-dot + static_cast<int32_t>(rng.between(-3, 3)));
          break;
        }
        case 3: case 4: case 5:
          if (large) {
            const bool negative_dot = (sign_a[j] ^ sign_b) != 0;
            dst = tmu::tensix::dst32_from_int32(negative_dot != rng.chance(20, 100) ? -limit : limit);
            break;
          }
          [[fallthrough]];
        default: dst = tmu::tensix::dst32_from_int32(random_int32(rng)); break;
      }
    }
  }
  return op;
}

Operation random_operation(Rng& rng) {
  if (rng.chance(30, 100)) return int8_operation(rng);
  if (rng.chance(5, 100)) return cancelling_operation(rng);
  Operation op;
  op.mode = random_chain_mode(rng, false, false).fpu;  // float styles
  op.mode.srcb_zero_flag_disabled = rng.bits(1);         // MVMUL flushes either way
  const bool fp16 = op.mode.srca_style == SrcStyle::FP16;
  const int max_exp = fp16 ? 30 : 254;
  // Each SrcA column and SrcB row clusters around its own exponent, so products of one element
  // align and cancel, and Dst sits near their sum's exponent so the accumulation rounds.
  std::array<int, kCols> base_a{};
  for (unsigned j = 0; j < kCols; ++j) base_a[j] = static_cast<int>(rng.between(1, max_exp));
  for (unsigned k = 0; k < fpu::kDotLength; ++k)
    for (unsigned j = 0; j < kCols; ++j) op.block.srca[k][j] = random_datum(rng, base_a[j], fp16);
  op.block.rows = kMvmulRows;
  for (unsigned i = 0; i < kMvmulRows; ++i) {
    const int base_b = static_cast<int>(rng.between(1, max_exp));
    for (unsigned k = 0; k < fpu::kDotLength; ++k) op.block.srcb[i][k] = random_datum(rng, base_b, fp16);
    for (unsigned j = 0; j < kCols; ++j) {
      const int product_exp = product_exponent(op.mode, base_a[j], base_b);
      op.block.dst[i][j] =
          random_dst_value(rng, op.mode, std::clamp(product_exp + static_cast<int>(rng.between(-10, 10)), 0, 255));
    }
  }
  return op;
}

void drive_operation(Model& top, const Operation& op) {
  top.mvb_valid_i = 1;
  top.mvb_srca_style_i = static_cast<uint8_t>(op.mode.srca_style);
  top.mvb_srcb_style_i = static_cast<uint8_t>(op.mode.srcb_style);
  top.mvb_dst32_i = op.mode.dst32;
  top.mvb_phase_i = static_cast<uint8_t>(op.mode.fidelity_phase);
  top.mvb_arch_i = op.mode.arch == Arch::Wormhole;
  top.mvb_int8_i = fpu::is_int8_math(op.mode);
  top.mvb_zero_flag_disabled_i = op.mode.srcb_zero_flag_disabled;
  for (unsigned k = 0; k < fpu::kDotLength; ++k)
    for (unsigned j = 0; j < kCols; ++j)
      put_bits(top.mvb_srca_i, (k * kCols + j) * kSrcDatumW, kSrcDatumW, op.block.srca[k][j]);
  for (unsigned i = 0; i < kMvmulRows; ++i) {
    for (unsigned k = 0; k < fpu::kDotLength; ++k)
      put_bits(top.mvb_srcb_i, (i * fpu::kDotLength + k) * kSrcDatumW, kSrcDatumW, op.block.srcb[i][k]);
    for (unsigned j = 0; j < kCols; ++j) top.mvb_dst_i[i * kCols + j] = op.block.dst[i][j];
  }
}

// Garbage on the data inputs while valid is low: the pipeline must ignore it.
void drive_bubble(Model& top, Rng& rng) {
  top.mvb_valid_i = 0;
  top.mvb_srca_style_i = static_cast<uint8_t>(rng.bits(2));
  top.mvb_int8_i = top.mvb_srca_style_i == static_cast<uint8_t>(SrcStyle::INT8);
  top.mvb_zero_flag_disabled_i = rng.bits(1);
  top.mvb_dst32_i = rng.bits(1);
  top.mvb_phase_i = static_cast<uint8_t>(rng.bits(2));
  for (unsigned w = 0; w < kMvmulRows * kCols; ++w) top.mvb_dst_i[w] = static_cast<uint32_t>(rng.bits(32));
}

void check_result(const Model& top, const Operation& op, Checker& chk) {
  for (unsigned i = 0; i < kMvmulRows; ++i)
    for (unsigned j = 0; j < kCols; ++j) {
      const uint32_t got = top.mvb_dst_o[i * kCols + j];
      const uint32_t want = op.block.dst[i][j];
      if (got == want) {
        chk.pass();
      } else {
        chk.fail("operation %" PRIu64 " element [%u][%u] styles=%d/%d dst32=%d phase=%u %s: rtl %08x ref %08x",
                 op.index, i, j, static_cast<int>(op.mode.srca_style), static_cast<int>(op.mode.srcb_style),
                 op.mode.dst32, op.mode.fidelity_phase, tmu::tensix::arch_name(op.mode.arch), got, want);
      }
    }
}

}  // namespace

int test_mvmul_block(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "mvmul_block");
  const uint64_t operations = opt.random_cases(50000);
  static_assert(sizeof(top.mvb_dst_o) * 8 == kMvmulRows * kCols * 32, "tmu_blocks_tb MvmulRows != kMvmulRows");

  top.mvb_valid_i = 0;
  sim.reset();
  // INT8 coverage: operations per phase and with the zero flag disabled, elements that saturated.
  std::array<uint64_t, 4> int8_ops{};
  uint64_t int8_zero_flag_disabled = 0, saturated = 0, dst32_clear = 0;
  const StreamStats st = stream_operations(
      sim, rng, chk, kLatency, operations,
      [&](uint64_t index) {
        Operation op = random_operation(rng);
        op.index = index;
        drive_operation(top, op);
        if (fpu::is_int8_math(op.mode)) {
          for (unsigned i = 0; i < kMvmulRows; ++i)
            for (unsigned j = 0; j < kCols; ++j) {
              const int64_t sum = int64_t{tmu::tensix::dst32_to_int32(op.block.dst[i][j])} +
                                  int8_dot(op.block, i, j, op.mode.fidelity_phase);
              op.saturating += sum > fpu::kInt32SaturationLimit || sum < -fpu::kInt32SaturationLimit;
            }
        }
        fpu::mvmul_block(op.block, op.mode);  // dst now holds the expected values
        return op;
      },
      [&] { drive_bubble(top, rng); }, [&] { return top.mvb_valid_o != 0; },
      [&](const Operation& op) {
        if (fpu::is_int8_math(op.mode)) {
          ++int8_ops[op.mode.fidelity_phase & 3];
          int8_zero_flag_disabled += op.mode.srcb_zero_flag_disabled;
          dst32_clear += !op.mode.dst32;
          saturated += op.saturating;
        }
        check_result(top, op, chk);
      });
  std::printf("mvmul_block: %" PRIu64 " operations checked, %" PRIu64 " bubbles, %" PRIu64 " cycles\n", st.checked,
              st.bubbles, st.ticks);
  std::printf("mvmul_block: INT8 operations per phase %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
              ", %" PRIu64 " with the zero flag disabled, %" PRIu64 " with dst32 clear; %" PRIu64
              " elements saturated\n",
              int8_ops[0], int8_ops[1], int8_ops[2], int8_ops[3], int8_zero_flag_disabled, dst32_clear, saturated);
  if (st.checked != operations) chk.fail("%" PRIu64 " of %" PRIu64 " operations came out", st.checked, operations);
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl

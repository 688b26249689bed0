// tmu_mac_array (reduced to kMacRows rows in tmu_blocks_tb) against the refmodel's
// fpu::mvmul_block: random float operations streamed into the pipeline back-to-back (with
// occasional bubbles), each in its own mode, and every output block compared with the model's
// once it leaves the pipeline, kLatency cycles after it entered.
#include <cinttypes>
#include <deque>

#include "datapath_gen.h"
#include "tmu/fpu/mvmul_block.h"

namespace tmu_rtl {
namespace {

using namespace dp;

inline constexpr unsigned kMacRows = 2;   // tmu_blocks_tb MacRows
inline constexpr unsigned kLatency = 5;   // tmu_blocks_tb u_mac_array Latency (MatrixUnit.md)
inline constexpr unsigned kCols = fpu::kBlockColumns;

struct Operation {
  fpu::FpuMode mode;
  fpu::MvmulBlock block;      // inputs; dst becomes the expected output
  uint64_t index = 0;
  uint64_t due_tick = 0;      // the tick after which valid_o must show it
};

// A stored Dst value in the mode's format near exponent base, sometimes arbitrary bits.
uint32_t random_dst_value(Rng& rng, const fpu::FpuMode& mode, int base) {
  if (rng.chance(3)) return static_cast<uint32_t>(rng.bits(mode.dst32 ? 32 : 16));
  const bool wide = mode.dst32 || fpu::has_8bit_exponent(mode);
  const int max_exp = wide ? 255 : 31;
  int e = std::clamp(base + static_cast<int>(rng.range(-8, 8)), 0, max_exp);
  if (rng.chance(5)) e = 0;
  if (rng.chance(2)) e = max_exp;
  const uint32_t word = fpu::make_acc_word(static_cast<uint32_t>(rng.bits(1)), static_cast<uint32_t>(e),
                                           static_cast<uint32_t>(rng.bits(23)));
  return fpu::acc_word_to_dst(word, mode);
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
    exp_a[j] = static_cast<int>(rng.range(lo, hi));
    for (unsigned k = 0; k < fpu::kDotLength; ++k) op.block.srca[k][j] = 0;
    op.block.srca[0][j] = static_cast<uint32_t>(exp_a[j]);
  }
  op.block.rows = kMacRows;
  for (unsigned i = 0; i < kMacRows; ++i) {
    const int exp_b = static_cast<int>(rng.range(lo, hi));
    const uint32_t sign_b = static_cast<uint32_t>(rng.bits(1));
    for (unsigned k = 0; k < fpu::kDotLength; ++k) op.block.srcb[i][k] = 0;
    op.block.srcb[i][0] = (sign_b << 18) | static_cast<uint32_t>(exp_b);
    for (unsigned j = 0; j < kCols; ++j) {
      const auto e = static_cast<uint32_t>(product_exponent(op.mode, exp_a[j], exp_b));
      const auto delta = static_cast<uint32_t>(rng.range(0, 2)) << lsb_shift;
      op.block.dst[i][j] = fpu::acc_word_to_dst(fpu::make_acc_word(sign_b ^ 1u, e, delta), op.mode);
    }
  }
  return op;
}

Operation random_operation(Rng& rng) {
  if (rng.chance(5)) return cancelling_operation(rng);
  Operation op;
  op.mode = random_chain_mode(rng, false, false).fpu;  // float styles; MVMUL always flushes
  const bool fp16 = op.mode.srca_style == SrcStyle::FP16;
  const int max_exp = fp16 ? 30 : 254;
  // Each SrcA column and SrcB row clusters around its own exponent, so products of one element
  // align and cancel, and Dst sits near their sum's exponent so the accumulation rounds.
  std::array<int, kCols> base_a{};
  for (unsigned j = 0; j < kCols; ++j) base_a[j] = static_cast<int>(rng.range(1, max_exp));
  for (unsigned k = 0; k < fpu::kDotLength; ++k)
    for (unsigned j = 0; j < kCols; ++j) op.block.srca[k][j] = random_datum(rng, base_a[j], fp16);
  op.block.rows = kMacRows;
  for (unsigned i = 0; i < kMacRows; ++i) {
    const int base_b = static_cast<int>(rng.range(1, max_exp));
    for (unsigned k = 0; k < fpu::kDotLength; ++k) op.block.srcb[i][k] = random_datum(rng, base_b, fp16);
    for (unsigned j = 0; j < kCols; ++j) {
      const int product_exp = product_exponent(op.mode, base_a[j], base_b);
      op.block.dst[i][j] =
          random_dst_value(rng, op.mode, std::clamp(product_exp + static_cast<int>(rng.range(-10, 10)), 0, 255));
    }
  }
  return op;
}

void drive_operation(Model& top, const Operation& op) {
  top.ma_valid_i = 1;
  top.ma_srca_style_i = static_cast<uint8_t>(op.mode.srca_style);
  top.ma_srcb_style_i = static_cast<uint8_t>(op.mode.srcb_style);
  top.ma_dst32_i = op.mode.dst32;
  top.ma_phase_i = static_cast<uint8_t>(op.mode.fidelity_phase);
  top.ma_arch_i = op.mode.arch == Arch::Wormhole;
  for (unsigned k = 0; k < fpu::kDotLength; ++k)
    for (unsigned j = 0; j < kCols; ++j)
      put_bits(top.ma_srca_i, (k * kCols + j) * kSrcDatumW, kSrcDatumW, op.block.srca[k][j]);
  for (unsigned i = 0; i < kMacRows; ++i) {
    for (unsigned k = 0; k < fpu::kDotLength; ++k)
      put_bits(top.ma_srcb_i, (i * fpu::kDotLength + k) * kSrcDatumW, kSrcDatumW, op.block.srcb[i][k]);
    for (unsigned j = 0; j < kCols; ++j) top.ma_dst_i[i * kCols + j] = op.block.dst[i][j];
  }
}

// Garbage on the data inputs while valid is low: the pipeline must ignore it.
void drive_bubble(Model& top, Rng& rng) {
  top.ma_valid_i = 0;
  top.ma_srca_style_i = static_cast<uint8_t>(rng.bits(2));
  top.ma_dst32_i = rng.bits(1);
  top.ma_phase_i = static_cast<uint8_t>(rng.bits(2));
  for (unsigned w = 0; w < kMacRows * kCols; ++w) top.ma_dst_i[w] = static_cast<uint32_t>(rng.bits(32));
}

}  // namespace

int test_mac_array(Sim& sim, const Options& opt) {
  Checker chk("mac_array");
  Rng rng(opt.seed);
  Model& top = *sim.top;
  const uint64_t operations = opt.cases ? opt.cases : 50000;
  static_assert(sizeof(top.ma_dst_o) * 8 == kMacRows * kCols * 32, "tmu_blocks_tb MacRows != kMacRows");

  top.ma_valid_i = 0;
  sim.reset();
  std::deque<Operation> in_flight;
  uint64_t issued = 0, tick = 0, bubbles = 0, ops_checked = 0;
  while (issued < operations || !in_flight.empty()) {
    if (issued < operations && !rng.chance(5)) {
      Operation op = random_operation(rng);
      op.index = issued++;
      drive_operation(top, op);
      op.due_tick = tick + kLatency;
      fpu::mvmul_block(op.block, op.mode);  // dst now holds the expected values
      in_flight.push_back(std::move(op));
    } else {
      drive_bubble(top, rng);
      ++bubbles;
    }
    sim.tick();
    ++tick;

    // The oldest operation must come out exactly on its due tick, and nothing else may.
    const bool due = !in_flight.empty() && in_flight.front().due_tick == tick;
    if (!top.ma_valid_o) {
      if (due) chk.fail("operation %" PRIu64 ": valid_o low on its due cycle", in_flight.front().index);
      if (due) in_flight.pop_front();
      continue;
    }
    if (!due) {
      chk.fail("valid_o high at tick %" PRIu64 " with no operation due", tick);
      continue;
    }
    const Operation op = std::move(in_flight.front());
    in_flight.pop_front();
    ++ops_checked;
    for (unsigned i = 0; i < kMacRows; ++i)
      for (unsigned j = 0; j < kCols; ++j) {
        const uint32_t got = top.ma_dst_o[i * kCols + j];
        const uint32_t want = op.block.dst[i][j];
        if (got == want) {
          chk.pass();
        } else {
          chk.fail("operation %" PRIu64 " element [%u][%u] styles=%d/%d dst32=%d phase=%u %s: rtl %08x ref %08x",
                   op.index, i, j, static_cast<int>(op.mode.srca_style), static_cast<int>(op.mode.srcb_style),
                   op.mode.dst32, op.mode.fidelity_phase, tmu::arch_name(op.mode.arch), got, want);
        }
      }
  }
  std::printf("mac_array: %" PRIu64 " operations checked, %" PRIu64 " bubbles, %" PRIu64 " cycles\n", ops_checked,
              bubbles, tick);
  if (ops_checked != operations) chk.fail("%" PRIu64 " of %" PRIu64 " operations came out", ops_checked, operations);
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl

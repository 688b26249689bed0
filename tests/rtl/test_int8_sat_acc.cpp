// tmu_int8_sat_acc, free-standing in tmu_blocks_tb (ia_*): INT8 math's Dst + value with INT32
// saturation. First a table of cases worked out by hand (the bounds, the signs of zero, which sign
// a subtraction keeps, 127 x 127 accumulated until it saturates), then random words near the
// bounds against the refmodel's fpu::saturating_add_int32 (int8_math.cpp).
#include <cinttypes>
#include <cstdint>

#include "harness.h"
#include "tmu/tensix/fpu/int8_math.h"

namespace tmu_rtl {
namespace {

// Words are INT32 in sign-magnitude, as Dst32 stores them: sign at bit 31, magnitude in 30:0.
constexpr uint32_t kSign = 0x8000'0000u;
constexpr uint32_t kMaxMagnitude = 0x7FFF'FFFFu;  // 2^31 - 1 = 2147483647

uint32_t int8_sat_acc(Model& top, Sim& sim, uint32_t dst, uint32_t value) {
  top.ia_dst_i = dst;
  top.ia_value_i = value;
  sim.eval();
  return top.ia_result_o;
}

struct HandCase {
  const char* what;
  uint32_t dst;
  uint32_t value;
  uint32_t want;
};

// Each expectation is the integer sum clamped to +/-2147483647 and written back as sign and
// magnitude, a zero always as +0.
constexpr HandCase kHandCases[] = {
    {"0 + 0 = +0", 0x0000'0000u, 0x0000'0000u, 0x0000'0000u},
    {"-0 + -0 = +0", kSign, kSign, 0x0000'0000u},
    {"-0 + 5 = 5", kSign, 5, 5},
    {"7 + -0 = 7", 7, kSign | 0, 7},
    {"5 + -5 = +0", 5, kSign | 5, 0x0000'0000u},
    {"-5 + 5 = +0", kSign | 5, 5, 0x0000'0000u},
    {"3 + -10 = -7 (the value outweighs Dst: its sign)", 3, kSign | 10, kSign | 7},
    {"-3 + 10 = 7", kSign | 3, 10, 7},
    {"-10 + 3 = -7 (Dst outweighs the value: Dst's sign)", kSign | 10, 3, kSign | 7},
    {"10 + -3 = 7", 10, kSign | 3, 7},
    {"127*127 = 16129 into 0", 0, 0x3F01u, 0x3F01u},
    {"-127*127 into 0", 0, kSign | 0x3F01u, kSign | 0x3F01u},
    // The positive bound.
    {"2147483646 + 1 = 2147483647, exact", 0x7FFF'FFFEu, 1, kMaxMagnitude},
    {"2147483647 + 0 = 2147483647", kMaxMagnitude, 0, kMaxMagnitude},
    {"2147483647 + 1 saturates", kMaxMagnitude, 1, kMaxMagnitude},
    {"2^30 + 2^30 = 2^31 saturates", 0x4000'0000u, 0x4000'0000u, kMaxMagnitude},
    {"2^30 + (2^30 - 1) = 2^31 - 1, exact", 0x4000'0000u, 0x3FFF'FFFFu, kMaxMagnitude},
    {"2^30 + (2^30 - 2) = 2^31 - 2", 0x4000'0000u, 0x3FFF'FFFEu, 0x7FFF'FFFEu},
    {"2147483647 + 2147483647 saturates (the largest carry)", kMaxMagnitude, kMaxMagnitude, kMaxMagnitude},
    // The negative bound: symmetric, -2^31 is never produced.
    {"-2147483646 + -1 = -2147483647, exact", kSign | 0x7FFF'FFFEu, kSign | 1, kSign | kMaxMagnitude},
    {"-2147483647 + -1 saturates", kSign | kMaxMagnitude, kSign | 1, kSign | kMaxMagnitude},
    {"-2^30 + -2^30 saturates at -2147483647", kSign | 0x4000'0000u, kSign | 0x4000'0000u,
     kSign | kMaxMagnitude},
    {"-2147483647 + -2147483647 saturates", kSign | kMaxMagnitude, kSign | kMaxMagnitude, kSign | kMaxMagnitude},
    // Opposite signs at the bounds never saturate.
    {"2147483647 + -2147483647 = +0", kMaxMagnitude, kSign | kMaxMagnitude, 0x0000'0000u},
    {"-2147483647 + 2147483647 = +0", kSign | kMaxMagnitude, kMaxMagnitude, 0x0000'0000u},
    {"0 + -2147483647", 0, kSign | kMaxMagnitude, kSign | kMaxMagnitude},
    {"1 + -2147483647 = -2147483646", 1, kSign | kMaxMagnitude, kSign | 0x7FFF'FFFEu},
    {"-1 + 2147483647 = 2147483646", kSign | 1, kMaxMagnitude, 0x7FFF'FFFEu},
    {"2147483647 - 16129 = 2147467518", kMaxMagnitude, kSign | 0x3F01u, 0x7FFF'C0FEu},
};

// +/-127*127 accumulated from 0: 133144 additions reach 133144 * 16129 = 2147479576 (0x7FFFF018),
// 4071 short of the bound; the 133145th would make 2147495705 and saturates, as does every one after.
void check_accumulation_to_bound(Checker& chk, Model& top, Sim& sim, bool negative) {
  constexpr uint32_t kProduct = 127 * 127;  // 16129 = 0x3F01
  constexpr uint32_t kExactSteps = 133144;
  constexpr uint32_t kLastExact = 0x7FFF'F018u;
  const uint32_t sign = negative ? kSign : 0;
  uint32_t dst = 0;
  for (uint32_t step = 1; step <= kExactSteps + 3; ++step) {
    dst = int8_sat_acc(top, sim, dst, sign | kProduct);
    const uint32_t want = step <= kExactSteps ? sign | (step * kProduct) : sign | kMaxMagnitude;
    if (dst != want) {
      chk.fail("%s127*127 step %u: rtl %08x, expected %08x", negative ? "-" : "+", step, dst, want);
      return;
    }
  }
  chk.pass();  // the whole chain as one case
  // Around the last exact step: 0x7FFFF018 + 4071 (0xFE7) is the bound itself.
  chk.check(int8_sat_acc(top, sim, sign | kLastExact, sign | 4071) == (sign | kMaxMagnitude),
            "bound - 4071 + 4071 reaches the bound exactly");
  chk.check(int8_sat_acc(top, sim, sign | kLastExact, sign | 4072) == (sign | kMaxMagnitude),
            "bound - 4071 + 4072 saturates");
  chk.check(int8_sat_acc(top, sim, sign | kLastExact, sign | 4070) == (sign | 0x7FFF'FFFEu),
            "bound - 4071 + 4070 is one short");
}

int32_t to_int(uint32_t word) {
  const auto magnitude = static_cast<int32_t>(word & kMaxMagnitude);
  return (word & kSign) ? -magnitude : magnitude;  // -0 reads as 0
}

uint32_t to_word(int32_t value) {
  return value < 0 ? kSign | static_cast<uint32_t>(-value) : static_cast<uint32_t>(value);
}

// A word near the bounds, near zero, or anywhere, with either sign.
uint32_t random_word(Rng& rng) {
  uint32_t magnitude = 0;
  switch (rng.between(0, 5)) {
    case 0: magnitude = kMaxMagnitude - static_cast<uint32_t>(rng.bits(12)); break;
    case 1: magnitude = static_cast<uint32_t>(rng.bits(12)); break;
    case 2: magnitude = 0x4000'0000u + static_cast<uint32_t>(rng.between(0, 8)) - 4; break;
    case 3: magnitude = static_cast<uint32_t>(rng.bits(25)); break;  // an MVMUL dot product's size
    default: magnitude = static_cast<uint32_t>(rng.bits(31)); break;
  }
  return (rng.bits(1) ? kSign : 0) | magnitude;
}

}  // namespace

int test_int8_sat_acc(Sim& sim, const Options& opt) {
  auto [chk, rng, top] = start_block(sim, opt, "int8_sat_acc");

  for (const HandCase& c : kHandCases) {
    const uint32_t got = int8_sat_acc(top, sim, c.dst, c.value);
    if (got == c.want) chk.pass();
    else chk.fail("%s: dst %08x value %08x: rtl %08x, expected %08x", c.what, c.dst, c.value, got, c.want);
    // Addition commutes, and so must the module.
    const uint32_t swapped = int8_sat_acc(top, sim, c.value, c.dst);
    if (swapped == c.want) chk.pass();
    else chk.fail("%s, operands swapped: rtl %08x, expected %08x", c.what, swapped, c.want);
  }
  check_accumulation_to_bound(chk, top, sim, false);
  check_accumulation_to_bound(chk, top, sim, true);

  const uint64_t cases = opt.random_cases(1000000);
  for (uint64_t i = 0; i < cases; ++i) {
    const uint32_t dst = random_word(rng);
    const uint32_t value = random_word(rng);
    const uint32_t want = to_word(tmu::tensix::fpu::saturating_add_int32(to_int(dst), to_int(value)));
    const uint32_t got = int8_sat_acc(top, sim, dst, value);
    if (got == want) chk.pass();
    else chk.fail("case %" PRIu64 ": dst %08x value %08x: rtl %08x, ref %08x", i, dst, value, got, want);
  }
  return chk.report(opt.seed);
}

}  // namespace tmu_rtl

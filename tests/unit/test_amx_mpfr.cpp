// tmu::amx matfp arithmetic against MPFR: every written lane of seeded random matfp operations must
// equal the fused multiply-add computed exactly and rounded once (RNE, no flush, default NaN) by the
// ieee tests' independent reference (test_ieee_reference.h), and every other Z byte must be
// unchanged. Lanes come from test_ieee_support.h's Gen (normals near 1 and across the range, raw
// patterns, specials, subnormals); each Z lane is, half the time, within a few binades of its product
// so that the sum cancels and rounds, and one time in eight minus the product rounded to Z's format. X/Y offsets (any byte, wrapping) and the Z row are random.
// Counts per ALU mode (z + x*y and z - x*y), lanes checked:
//   f16, f16 -> f32, bf16 (M2), bf16 -> f32 (M2): 60 operations x 1024 lanes = 61,440 each;
//   f32: 240 x 256 = 61,440; f64: 960 x 64 = 61,440.
#include <string>

#include "test_amx_support.h"
#include "test_ieee_support.h"
#include "tmu/amx/matfp.h"

namespace tmu::amx::test {
namespace {

using ieee::test::Enc;
using ieee::test::Gen;
using ieee::test::Op;
using ieee::test::Reference;
using ieee::test::Seen;

struct Width {
  const char* name;
  unsigned code;
  Version version;
  ieee::Format xy, z;
  int ops;
};

void run_width(const Width& w, unsigned alu) {
  Gen gen(derive_seed(derive_seed(0xA3C5, w.name), alu == 0 ? "add" : "sub"));
  Rng& rng = gen.rng();
  Reference reference;
  Seen seen;
  const Enc ex(w.xy), ez(w.z);
  const unsigned xb = w.xy.width() / 8, zb = w.z.width() / 8, lanes = 64 / xb;
  const bool widening = zb != xb;
  ieee::Options dn;
  dn.default_nan = true;
  uint64_t cases = 0, failures = 0;
  for (int n = 0; n < w.ops; ++n) {
    State st;
    for (auto& b : st.x) b = static_cast<uint8_t>(rng.next());
    for (auto& b : st.y) b = static_cast<uint8_t>(rng.next());
    for (auto& row : st.z)
      for (auto& b : row) b = static_cast<uint8_t>(rng.next());
    const unsigned xoff = rng.below(512), yoff = rng.below(512), zrow = rng.below(8);
    std::vector<uint64_t> x(lanes), y(lanes);
    for (unsigned i = 0; i < lanes; ++i) poke(st.x, xoff, xb, i, x[i] = gen.operand(ex));
    for (unsigned j = 0; j < lanes; ++j) poke(st.y, yoff, xb, j, y[j] = gen.operand(ex));
    // Where lane (i, j) lives in Z (matfp.md lane width table, RegisterFile.md mixed lane widths).
    auto row_of = [&](unsigned i, unsigned j) { return widening ? 2 * j + i % 2 : j * xb + zrow % xb; };
    auto lane_of = [&](unsigned i) { return widening ? i / 2 : i; };
    for (unsigned j = 0; j < lanes; ++j)
      for (unsigned i = 0; i < lanes; ++i) {
        const bool finite = !ex.nan(x[i]) && !ex.inf(x[i]) && !ex.zero(x[i]) && !ex.nan(y[j]) && !ex.inf(y[j]) &&
                            !ex.zero(y[j]);
        uint64_t z;
        if (finite && rng.chance(1, 8)) {
          // Minus the product rounded to Z's format: the sum cancels to the rounding error, or to
          // zero when the product is exact (always for 16-bit products into f32).
          z = reference.run(Op::Mul, w.xy, w.z, x[i], y[j], 0, dn).bits ^ (alu == 1 ? 0 : w.z.sign_bit());
        } else if (finite && gen.coin()) {
          const int near = ieee::test::ilog2(ex, x[i]) + ieee::test::ilog2(ex, y[j]) +
                           rng.between(-2 * ez.p() - 4, ez.p() + 4);
          z = near < ez.emin() && gen.coin() ? gen.subnormal(ez) : gen.normal(ez, near, near);
        } else {
          z = gen.operand(ez);
        }
        poke_row(st.z[row_of(i, j)], zb, lane_of(i), z);
      }
    const State before = st;
    const uint64_t operand =
        MatfpBits{}.lw(w.code).alu(alu).xoff(xoff).yoff(yoff).zrow(zrow).set(63, 1, rng.next() & 1).v;
    const WriteSet ws = execute_matfp(st, operand, w.version);

    uint64_t rows = 0;
    std::array<Row, kZRows> want = before.z;
    for (unsigned j = 0; j < lanes; ++j)
      for (unsigned i = 0; i < lanes; ++i) {
        const unsigned r = row_of(i, j), l = lane_of(i);
        const uint64_t a = alu == 1 ? x[i] ^ w.xy.sign_bit() : x[i];
        const ieee::Result ref = reference.run(Op::Fma, w.xy, w.z, a, y[j], peek(before.z[r], zb, l), dn);
        seen.add(ez, ref);
        poke_row(want[r], zb, l, ref.bits);
        rows |= uint64_t{1} << r;
        ++cases;
        const uint64_t got = peek(st.z[r], zb, l);
        if (got != ref.bits && ++failures <= 10)
          ADD_FAILURE() << fmt::format("{} alu {} operand {:#x} x[{}]={:#x} y[{}]={:#x} z={:#x}: got {:#x} want {:#x}",
                                       w.name, alu, operand, i, x[i], j, y[j], peek(before.z[r], zb, l), got, ref.bits);
      }
    EXPECT_EQ(ws.z_rows, rows) << w.name;
    ASSERT_EQ(st.z, want) << w.name << " operation " << n;  // nothing else in Z moved
    ASSERT_EQ(st.x, before.x);
    ASSERT_EQ(st.y, before.y);
  }
  EXPECT_EQ(failures, 0u) << w.name << ": " << failures << " of " << cases << " lanes differ";
  // Binary16 products cannot underflow or overflow binary32 (test_ieee_support.h's Seen).
  seen.expect_at_least(10, !(w.xy == ieee::kBinary16 && w.z == ieee::kBinary32));
}

const Width kF16{"f16", kLwF16, Version::M1, ieee::kBinary16, ieee::kBinary16, 60};
const Width kF32{"f32", kLwF32, Version::M1, ieee::kBinary32, ieee::kBinary32, 240};
const Width kF64{"f64", kLwF64, Version::M1, ieee::kBinary64, ieee::kBinary64, 960};
const Width kF16F32{"f16f32", kLwF16F32, Version::M1, ieee::kBinary16, ieee::kBinary32, 60};
const Width kBf16{"bf16", kLwBf16, Version::M2, ieee::kBfloat16, ieee::kBfloat16, 60};
const Width kBf16F32{"bf16f32", kLwBf16F32, Version::M2, ieee::kBfloat16, ieee::kBinary32, 60};

TEST(AmxMatfpMpfr, F16) { run_width(kF16, 0), run_width(kF16, 1); }
TEST(AmxMatfpMpfr, F32) { run_width(kF32, 0), run_width(kF32, 1); }
TEST(AmxMatfpMpfr, F64) { run_width(kF64, 0), run_width(kF64, 1); }
TEST(AmxMatfpMpfr, F16ToF32) { run_width(kF16F32, 0), run_width(kF16F32, 1); }
TEST(AmxMatfpMpfr, Bf16OnM2) { run_width(kBf16, 0), run_width(kBf16, 1); }
TEST(AmxMatfpMpfr, Bf16ToF32OnM2) { run_width(kBf16F32, 0), run_width(kBf16F32, 1); }

}  // namespace
}  // namespace tmu::amx::test

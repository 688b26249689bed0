// tmu::pto float lanes (cpusim) against MPFR through the ieee tests' independent reference
// (test_ieee_reference.h): TADD, TSUB, TMUL, TDIV, TRECIP, TSQRT and TFMOD on f32, f16 and bf16
// tiles of random layout and valid region, every valid lane equal to the operation correctly
// rounded (RNE, subnormals kept) with the simulator's host NaN rules (one NaN operand comes back
// quieted, as the reference's Arm rule also gives; an invalid operation gives the default NaN with
// its sign set), every lane outside the valid region unchanged. Two NaN operands, zero divisors of
// TRECIP and TFMOD (refused) are not generated. Counts: 3 types x 7 operations x 300 tiles of 8x16
// lanes.
#include <string>

#include "test_ieee_support.h"
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using ieee::test::Enc;
using ieee::test::Gen;
using ieee::test::Reference;
using RefOp = ieee::test::Op;

struct Case {
  Op op;
  RefOp ref;
  bool unary;
};

TEST(PtoMpfr, FloatLanes) {
  const Case cases[] = {{Op::TADD, RefOp::Add, false},  {Op::TSUB, RefOp::Sub, false},
                        {Op::TMUL, RefOp::Mul, false},  {Op::TDIV, RefOp::Div, false},
                        {Op::TRECIP, RefOp::Div, true}, {Op::TSQRT, RefOp::Sqrt, true},
                        {Op::TFMOD, RefOp::Fmod, false}};
  Reference reference;
  uint64_t lanes = 0, mismatches = 0;
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::BF16}) {
    const ieee::Format f = float_format(t);
    const Enc e(f);
    const uint64_t one = static_cast<uint64_t>(e.bias()) << e.f;
    for (const Case& k : cases) {
      Gen gen(derive_seed(derive_seed(0x9710, std::string(elem_name(t))), std::string(op_name(k.op))));
      for (int n = 0; n < 300; ++n) {
        // The simulator's TRECIP (TDIVS) takes row-major tiles only.
        const bool row_major = gen.coin() || k.op == Op::TRECIP;
        const Layout l = row_major ? Layout::RowMajor : Layout::ColMajor;
        const unsigned vr = 1 + gen.rng().below(8), vc = 1 + gen.rng().below(16);
        Tile a = make_tile(t, 16, 16, l, vr, vc), b = a, dst = a;
        for (auto& v : a.bits) v = gen.operand(e);
        for (auto& v : b.bits) v = gen.operand(e);
        for (auto& v : dst.bits) v = gen.raw(e);
        for (unsigned i = 0; i < a.bits.size(); ++i) {
          if (e.nan(a.bits[i]) && e.nan(b.bits[i])) b.bits[i] = one;
          const bool zero_divisor = k.op == Op::TRECIP ? e.zero(a.bits[i]) : k.op == Op::TFMOD && e.zero(b.bits[i]);
          if (zero_divisor) (k.op == Op::TRECIP ? a : b).bits[i] = one;
        }
        const Tile before = dst;
        const Tile* two[] = {&a, &b};
        execute(Profile::CpuSim, k.op, dst, std::span<const Tile* const>(two, k.unary ? 1 : 2));
        for (unsigned r = 0; r < 16; ++r)
          for (unsigned c = 0; c < 16; ++c) {
            if (!dst.in_valid_region(r, c)) {
              mismatches += dst.at(r, c) != before.at(r, c);
              continue;
            }
            const uint64_t x = a.at(r, c), y = b.at(r, c);
            const uint64_t lhs = k.op == Op::TRECIP ? one : x, rhs = k.op == Op::TRECIP ? x : y;
            uint64_t want = reference.run(k.ref, f, f, lhs, rhs, 0, {}).bits;
            const bool nan_operand = e.nan(lhs) || (k.ref != RefOp::Sqrt && e.nan(rhs));
            if (e.nan(want) && !nan_operand) want |= e.sign_bit();  // the host's default NaN
            ++lanes;
            if (dst.at(r, c) != want && ++mismatches <= 10)
              ADD_FAILURE() << fmt::format("{} {} ({}, {}) x={:#x} y={:#x}: got {:#x}, want {:#x}", op_name(k.op),
                                           elem_name(t), r, c, x, y, dst.at(r, c), want);
          }
      }
    }
  }
  EXPECT_GT(lanes, 100'000u);
  EXPECT_EQ(mismatches, 0u);
}

}  // namespace
}  // namespace tmu::pto::test

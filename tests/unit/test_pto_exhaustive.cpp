// Every f16 and bf16 pattern through every unary float operation of tmu::pto (cpusim): TABS, TNEG,
// TRELU, TSQRT, TRSQRT (f16 only: TRSqrt.hpp's static_assert), TRECIP, TEXP and TLOG, all 65536
// inputs in one 256 x 256 tile, each lane against the README's rule worked here with MPFR
// (test_pto_mpfr_lanes.h): the simulator's expression with each of its roundings. NaN rules: a NaN
// operand comes back quieted (TABS and TRELU return it unchanged, TNEG flips its sign and quiets
// it); an invalid operation gives the default NaN with its sign set (0xFE00, 0xFFC0). TRECIP's two
// zeros are refused (the simulator asserts) and checked apart.
#include <string>

#include "test_pto_mpfr_lanes.h"
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

const Enc kE32(ieee::kBinary32), kE64(ieee::kBinary64);

int mpfr_one_over(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t m) { return mpfr_ui_div(r, 1, x, m); }

// The expected lane, or the default NaN when the operation is invalid (nullopt from MPFR).
uint64_t expected(MpfrLanes& mp, Op op, ElemType t, const Enc& e, uint64_t x) {
  const uint64_t quiet_nan = x | e.top_frac_bit(), default_nan = e.default_nan() | e.sign_bit();
  const bool nan = e.nan(x);
  auto or_default = [&](std::optional<uint64_t> v) { return v ? *v : default_nan; };
  switch (op) {
    case Op::TABS:  // src < 0 ? -src : src
      return !nan && mp.sign(e, x) < 0 ? x ^ e.sign_bit() : x;
    case Op::TRELU:  // max(src, 0)
      return !nan && mp.sign(e, x) < 0 ? 0 : x;
    case Op::TNEG:  // -src, computed in float for the 16-bit types: a NaN is quieted, then negated
      return nan ? (x ^ e.sign_bit()) | e.top_frac_bit() : *mp.unary(e, x, e, mpfr_neg);
    case Op::TRECIP:  // 1 / src in the element type
      return nan ? quiet_nan : *mp.unary(e, x, e, mpfr_one_over);
    case Op::TSQRT: {  // (T)std::sqrt((double)src)
      if (nan) return quiet_nan;
      const auto s = mp.unary(e, x, kE64, mpfr_sqrt);
      return s ? mp.cast(kE64, *s, e) : default_nan;
    }
    case Op::TRSQRT: {  // (T)(1.0 / std::sqrt((double)src))
      if (nan) return quiet_nan;
      const auto s = mp.unary(e, x, kE64, mpfr_sqrt);
      return s ? mp.cast(kE64, *mp.unary(kE64, *s, kE64, mpfr_one_over), e) : default_nan;
    }
    case Op::TEXP: {  // half: (half)expf((float)src); bf16: (T)std::exp((double)src)
      if (nan) return quiet_nan;
      const Enc& mid = t == ElemType::F16 ? kE32 : kE64;
      return mp.cast(mid, *mp.unary(e, x, mid, mpfr_exp), e);
    }
    case Op::TLOG: {  // (T)std::log((double)src)
      if (nan) return quiet_nan;
      const auto l = mp.unary(e, x, kE64, mpfr_log);
      return l ? mp.cast(kE64, *l, e) : default_nan;
    }
    default: break;
  }
  ADD_FAILURE() << "no rule for " << op_name(op);
  return or_default(std::nullopt);
}

TEST(PtoExhaustive, SixteenBitUnaryOperations) {
  MpfrLanes mp;
  for (ElemType t : {ElemType::F16, ElemType::BF16}) {
    const Enc e(float_format(t));
    const uint64_t one = static_cast<uint64_t>(e.bias()) << e.f;
    for (Op op : {Op::TABS, Op::TNEG, Op::TRELU, Op::TSQRT, Op::TRSQRT, Op::TRECIP, Op::TEXP, Op::TLOG}) {
      if (op == Op::TRSQRT && t == ElemType::BF16) continue;
      Tile src = make_tile(t, 256, 256, Layout::RowMajor), dst = src;
      for (uint64_t x = 0; x < 65536; ++x) set(src, x / 256, x % 256, x);
      if (op == Op::TRECIP) {
        for (uint64_t zero : {uint64_t{0}, e.sign_bit()}) {
          set(src, zero / 256, zero % 256, one);
          expect_refusal([&] { cpu(op, t, zero); }, ErrorKind::UndefinedBehaviour, {"reciprocal of zero"});
        }
      }
      const Tile* srcs[] = {&src};
      execute(Profile::CpuSim, op, dst, srcs);
      unsigned mismatches = 0;
      for (uint64_t i = 0; i < 65536; ++i) {
        const uint64_t x = src.at(i / 256, i % 256), got = dst.at(i / 256, i % 256);
        const uint64_t want = expected(mp, op, t, e, x);
        if (got != want && ++mismatches <= 5)
          ADD_FAILURE() << fmt::format("{} {} x={:#06x}: got {:#06x}, want {:#06x}", op_name(op), elem_name(t), x,
                                       got, want);
      }
      EXPECT_EQ(mismatches, 0u) << op_name(op) << " " << elem_name(t);
    }
  }
}

}  // namespace
}  // namespace tmu::pto::test

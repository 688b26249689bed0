// The loops execute specialises per operation and type (src/fast_lanes.cpp, and TCMP's comparator),
// lane by lane against paths that share no code with them: integer lanes against the host's own C++
// arithmetic on the element type (promotions, modular conversion, truncating / and %), f32 lanes
// against tmu/ieee.h's operations with the simulator's NaN rules spelled out here, f32 comparisons
// and copies against host float comparisons, f16 and bf16 lanes against tmu/ieee.h. Tiles mix special values (zeros, ±1, extremes, the most
// negative integer, infinities, NaNs quiet and signalling, subnormals) with random patterns, in both
// layouts with partial valid regions; lanes outside the valid region must stay as they were.
// Operands whose lanes the ISA leaves undefined are replaced before the run; their refusal, from the
// middle of a specialised loop, is tested at the end.
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>

#include "test_pto_support.h"
#include "tmu/ieee.h"
#include "tmu/rng.h"

namespace tmu::pto::test {
namespace {

struct Shape {
  Layout layout;
  unsigned valid_rows, valid_cols;
};

Shape random_shape(Rng& rng) {
  return {rng.chance(1, 2) ? Layout::RowMajor : Layout::ColMajor, 1 + rng.below(32), 1 + rng.below(32)};
}

// ---- integers -------------------------------------------------------------------------------

template <typename T>
uint64_t pattern_of(T v) {
  return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

template <typename T>
T special_int(Rng& rng) {
  using L = std::numeric_limits<T>;
  const T specials[] = {T(0), T(1), T(-1), L::min(), L::max(), T(L::min() + 1), T(2), T(L::digits - 1), T(L::digits)};
  if (rng.chance(1, 2)) return specials[rng.below(std::size(specials))];
  return static_cast<T>(rng.next());
}

// The C++ the CPU simulator runs for each operation (ElementOp.h), on the host type T: 8- and 16-bit
// operands promote to int and convert back modulo 2^width.
template <typename T>
T host_int(Op op, T a, T b, T c) {
  using U = std::make_unsigned_t<T>;
  switch (op) {
    case Op::TADD: return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    case Op::TSUB: return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
    case Op::TMUL: return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    case Op::TADDC: return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)) + static_cast<U>(c));
    case Op::TSUBC: return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)) + static_cast<U>(c));
    case Op::TNEG: return static_cast<T>(U(0) - static_cast<U>(a));
    case Op::TAND: return static_cast<T>(a & b);
    case Op::TOR: return static_cast<T>(a | b);
    case Op::TXOR: return static_cast<T>(a ^ b);
    case Op::TNOT: return static_cast<T>(~a);
    case Op::TMIN: return std::min(a, b);
    case Op::TMAX: return std::max(a, b);
    case Op::TRELU: return std::max(a, T(0));
    case Op::TABS: return a < 0 ? static_cast<T>(U(0) - static_cast<U>(a)) : a;
    case Op::TSHL: return static_cast<T>(static_cast<U>(a) << b);
    case Op::TSHR: return static_cast<T>(a >> b);
    case Op::TDIV: return static_cast<T>(a / b);
    case Op::TFMOD: return static_cast<T>(a % b);
    case Op::TREM: {
      T r = static_cast<T>(a % b);
      if ((a >= 0) != (b >= 0) && r != 0) r = static_cast<T>(r + b);
      return r;
    }
    default: break;
  }
  ADD_FAILURE() << "no host reference for " << op_name(op);
  return 0;
}

// b made a legal operand of op for a: a count below the width, a nonzero divisor, no MIN / -1 at
// 32 or 64 bits (8- and 16-bit quotients are computed in int, where it is defined).
template <typename T>
T legal_b(Op op, T a, T b) {
  constexpr int w = std::numeric_limits<std::make_unsigned_t<T>>::digits;
  if (op == Op::TSHL || op == Op::TSHR) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(b) % w);
  if (op == Op::TDIV || op == Op::TREM || op == Op::TFMOD) {
    if (b == 0) return 1;
    if constexpr (std::is_signed_v<T> && w >= 32)
      if (a == std::numeric_limits<T>::min() && b == T(-1)) return 1;
  }
  return b;
}

template <typename T>
void check_integer_type(ElemType t, uint64_t seed) {
  const Op ops[] = {Op::TADD, Op::TSUB, Op::TMUL, Op::TADDC, Op::TSUBC, Op::TNEG, Op::TAND,
                    Op::TOR,  Op::TXOR, Op::TNOT, Op::TMIN,  Op::TMAX,  Op::TRELU, Op::TABS,
                    Op::TSHL, Op::TSHR, Op::TDIV, Op::TREM,  Op::TFMOD};
  Rng rng(seed);
  for (Op op : ops) {
    if (op == Op::TABS && !(std::is_signed_v<T> && sizeof(T) <= 4)) continue;  // TAbs.hpp's types
    uint64_t mismatches = 0, lanes = 0;
    for (int n = 0; n < 40; ++n) {
      const Shape s = random_shape(rng);
      Tile a = make_tile(t, 32, 64, s.layout, s.valid_rows, s.valid_cols), b = a, c = a, dst = a;
      std::vector<T> ha(a.bits.size()), hb(a.bits.size()), hc(a.bits.size());
      for (size_t i = 0; i < a.bits.size(); ++i) {
        ha[i] = special_int<T>(rng), hb[i] = legal_b(op, ha[i], special_int<T>(rng)), hc[i] = special_int<T>(rng);
        a.bits[i] = pattern_of(ha[i]), b.bits[i] = pattern_of(hb[i]), c.bits[i] = pattern_of(hc[i]);
        dst.bits[i] = pattern_of(static_cast<T>(rng.next()));
      }
      const Tile before = dst;
      const Tile* srcs[] = {&a, &b, &c};
      execute(Profile::CpuSim, op, dst, std::span<const Tile* const>(srcs, source_count(op)));
      for (unsigned r = 0; r < 32; ++r)
        for (unsigned col = 0; col < 64; ++col) {
          const size_t i = dst.offset(r, col);
          const uint64_t want = dst.in_valid_region(r, col) ? pattern_of(host_int<T>(op, ha[i], hb[i], hc[i])) : before.bits[i];
          lanes += dst.in_valid_region(r, col);
          if (dst.bits[i] != want && ++mismatches <= 3)
            ADD_FAILURE() << op_name(op) << " " << elem_name(t) << " lane (" << r << ", " << col << ") a=" << a.bits[i]
                          << " b=" << b.bits[i] << " c=" << c.bits[i] << ": got " << dst.bits[i] << ", want " << want;
        }
    }
    EXPECT_EQ(mismatches, 0u) << op_name(op) << " " << elem_name(t) << " over " << lanes << " lanes";
  }
}

TEST(PtoFast, IntegerLanesMatchHostArithmetic) {
  check_integer_type<int8_t>(ElemType::I8, 0xFA51);
  check_integer_type<uint8_t>(ElemType::U8, 0xFA52);
  check_integer_type<int16_t>(ElemType::I16, 0xFA53);
  check_integer_type<uint16_t>(ElemType::U16, 0xFA54);
  check_integer_type<int32_t>(ElemType::I32, 0xFA55);
  check_integer_type<uint32_t>(ElemType::U32, 0xFA56);
  check_integer_type<int64_t>(ElemType::I64, 0xFA57);
  check_integer_type<uint64_t>(ElemType::U64, 0xFA58);
}

// ---- f32 --------------------------------------------------------------------------------------

constexpr ieee::Format kF = ieee::kBinary32;
constexpr uint32_t kQuiet = 0x00400000u, kDefaultNan = 0xFFC00000u;

bool is_nan(uint64_t v) { return ieee::is_nan(kF, v); }

uint64_t special_f32(Rng& rng) {
  const uint64_t specials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00123,
                               0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
                               0x7F000000, 0x0D000000};
  if (rng.chance(1, 3)) return specials[rng.below(std::size(specials))];
  return rng.next() & 0xFFFFFFFFu;
}

// The simulator's NaN rule for one operation on non-NaN-pair operands: a NaN operand comes back
// quieted, an invalid operation gives x86's default NaN.
uint64_t with_nan_rule(const ieee::Result& r, std::initializer_list<uint64_t> operands) {
  if (!is_nan(r.bits)) return r.bits;
  for (uint64_t x : operands)
    if (is_nan(x)) return x | kQuiet;
  return kDefaultNan;
}

float host(uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }

uint64_t expected_f32(Profile p, Op op, uint64_t a, uint64_t b, uint64_t c) {
  switch (op) {
    case Op::TADD: return with_nan_rule(ieee::add(kF, a, b), {a, b});
    case Op::TSUB: return with_nan_rule(ieee::sub(kF, a, b), {a, b});
    case Op::TMUL: return with_nan_rule(ieee::mul(kF, a, b), {a, b});
    case Op::TDIV: return with_nan_rule(ieee::div(kF, a, b), {a, b});
    case Op::TADDC: {
      const uint64_t s = with_nan_rule(ieee::add(kF, a, b), {a, b});
      return with_nan_rule(ieee::add(kF, s, c), {s, c});
    }
    case Op::TSUBC: {
      const uint64_t s = with_nan_rule(ieee::sub(kF, a, b), {a, b});
      return with_nan_rule(ieee::add(kF, s, c), {s, c});
    }
    case Op::TSQRT: {
      if (p == Profile::CpuSim) {  // (float)std::sqrt((double)a)
        const ieee::Result d = ieee::sqrt(ieee::kBinary64, ieee::convert(kF, ieee::kBinary64, a).bits);
        if (ieee::is_nan(ieee::kBinary64, d.bits)) return is_nan(a) ? a | kQuiet : kDefaultNan;
        return ieee::convert(ieee::kBinary64, kF, d.bits).bits;
      }
      return ieee::sqrt(kF, a).bits;  // NaN results are A2/A3 refusals, not generated
    }
    // std::min, std::max, std::max(a, 0) and a < 0 ? -a : a on host floats: the selected operand's
    // pattern, so the comparisons are the host's and the copies are of patterns.
    case Op::TMIN: return host(b) < host(a) ? b : a;
    case Op::TMAX: return host(a) < host(b) ? b : a;
    case Op::TRELU: return host(a) < 0.0f ? 0 : a;
    case Op::TABS: return host(a) < 0.0f ? a ^ 0x80000000u : a;
    case Op::TNEG: return a ^ 0x80000000u;
    default: break;
  }
  ADD_FAILURE() << "no reference for " << op_name(op);
  return 0;
}

void check_f32(Profile p, Op op, uint64_t seed) {
  Rng rng(seed);
  uint64_t mismatches = 0, lanes = 0;
  for (int n = 0; n < 60; ++n) {
    Shape s = random_shape(rng);
    if (p == Profile::A2A3) s.layout = Layout::RowMajor;  // A2/A3 refuses column-major tiles
    Tile a = make_tile(ElemType::F32, 32, 64, s.layout, s.valid_rows, s.valid_cols), b = a, c = a, dst = a;
    for (size_t i = 0; i < a.bits.size(); ++i) {
      a.bits[i] = special_f32(rng), b.bits[i] = special_f32(rng), c.bits[i] = special_f32(rng);
      dst.bits[i] = rng.next() & 0xFFFFFFFFu;
      // Two NaNs meeting in one operation are refused (which one the host returns is the compiler's
      // choice), and A2/A3 refuses NaN results: keep such lanes out.
      const bool three = source_count(op) == 3;
      if (is_nan(a.bits[i]) + is_nan(b.bits[i]) + (three && is_nan(c.bits[i])) > 1) b.bits[i] = 0x40000000, c.bits[i] = 0;
      if (three && is_nan(c.bits[i])) a.bits[i] &= 0x7F7FFFFF, b.bits[i] &= 0x7F7FFFFF;  // no inf - inf before it
      if (p == Profile::A2A3) a.bits[i] &= 0x7FFFFFFFu, a.bits[i] = is_nan(a.bits[i]) ? 0 : a.bits[i];
    }
    const Tile before = dst;
    const Tile* srcs[] = {&a, &b, &c};
    execute(p, op, dst, std::span<const Tile* const>(srcs, source_count(op)));
    for (unsigned r = 0; r < 32; ++r)
      for (unsigned col = 0; col < 64; ++col) {
        const size_t i = dst.offset(r, col);
        const bool valid = dst.in_valid_region(r, col);
        const uint64_t want = valid ? expected_f32(p, op, a.bits[i], b.bits[i], c.bits[i]) : before.bits[i];
        lanes += valid;
        if (dst.bits[i] != want && ++mismatches <= 3)
          ADD_FAILURE() << op_name(op) << " f32 lane (" << r << ", " << col << ") a=" << a.bits[i] << " b=" << b.bits[i]
                        << " c=" << c.bits[i] << ": got " << dst.bits[i] << ", want " << want;
      }
  }
  EXPECT_EQ(mismatches, 0u) << op_name(op) << " f32 " << profile_name(p) << " over " << lanes << " lanes";
}

TEST(PtoFast, F32LanesMatchIeee) {
  const Op ops[] = {Op::TADD, Op::TSUB, Op::TMUL, Op::TDIV, Op::TADDC, Op::TSUBC, Op::TSQRT,
                    Op::TMIN, Op::TMAX, Op::TRELU, Op::TABS, Op::TNEG};
  uint64_t seed = 0xF32F;
  for (Op op : ops) check_f32(Profile::CpuSim, op, ++seed);
  // A2/A3: one binary32 root, and the operations that do not depend on the profile.
  check_f32(Profile::A2A3, Op::TSQRT, ++seed);
  check_f32(Profile::A2A3, Op::TMAX, ++seed);
}

// binary16 and bfloat16 add, sub, mul, div and sqrt (both profiles' roots) against tmu/ieee.h.
uint64_t special_half(Rng& rng, ElemType t) {
  const uint64_t f16[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE13, 0x0001, 0x83FF,
                          0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3C01, 0x1400};
  const uint64_t bf16[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0xFFC3, 0x0001, 0x807F,
                           0x0080, 0x7F7F, 0xFF7F, 0x3F80, 0xBF80, 0x3F81, 0x0D00};
  if (rng.chance(1, 3)) return (t == ElemType::F16 ? f16 : bf16)[rng.below(16)];
  return rng.next() & 0xFFFF;
}

uint64_t expected_half(Profile p, Op op, ieee::Format f, uint64_t a, uint64_t b) {
  const uint64_t default_nan = f.default_nan() | f.sign_bit();
  auto rule = [&](const ieee::Result& r, std::initializer_list<uint64_t> operands) -> uint64_t {
    if (!ieee::is_nan(f, r.bits)) return r.bits;
    for (uint64_t x : operands)
      if (ieee::is_nan(f, x)) return x | f.quiet_bit();
    return default_nan;
  };
  switch (op) {
    case Op::TADD: return rule(ieee::add(f, a, b), {a, b});
    case Op::TSUB: return rule(ieee::sub(f, a, b), {a, b});
    case Op::TMUL: return rule(ieee::mul(f, a, b), {a, b});
    case Op::TDIV: return rule(ieee::div(f, a, b), {a, b});
    case Op::TSQRT:
      if (p == Profile::A2A3) return ieee::sqrt(f, a).bits;  // NaN results not generated
      {
        const ieee::Result d = ieee::sqrt(ieee::kBinary64, ieee::convert(f, ieee::kBinary64, a).bits);
        if (ieee::is_nan(ieee::kBinary64, d.bits)) return ieee::is_nan(f, a) ? a | f.quiet_bit() : default_nan;
        return ieee::convert(ieee::kBinary64, f, d.bits).bits;
      }
    default: break;
  }
  ADD_FAILURE() << "no reference for " << op_name(op);
  return 0;
}

TEST(PtoFast, HalfLanesMatchIeee) {
  Rng rng(0x4A1F);
  struct Case {
    Profile p;
    ElemType t;
    Op op;
  };
  std::vector<Case> cases;
  for (ElemType t : {ElemType::F16, ElemType::BF16})
    for (Op op : {Op::TADD, Op::TSUB, Op::TMUL, Op::TDIV, Op::TSQRT}) cases.push_back({Profile::CpuSim, t, op});
  cases.push_back({Profile::A2A3, ElemType::F16, Op::TSQRT});
  cases.push_back({Profile::A2A3, ElemType::F16, Op::TDIV});
  for (const Case& k : cases) {
    const ieee::Format f = float_format(k.t);
    uint64_t mismatches = 0, lanes = 0;
    for (int n = 0; n < 40; ++n) {
      Shape s = random_shape(rng);
      if (k.p == Profile::A2A3) s.layout = Layout::RowMajor;
      Tile a = make_tile(k.t, 32, 64, s.layout, s.valid_rows, s.valid_cols), b = a, dst = a;
      for (size_t i = 0; i < a.bits.size(); ++i) {
        a.bits[i] = special_half(rng, k.t), b.bits[i] = special_half(rng, k.t), dst.bits[i] = rng.next() & 0xFFFF;
        if (ieee::is_nan(f, a.bits[i]) && ieee::is_nan(f, b.bits[i])) b.bits[i] = f.zero(false);  // refused
        if (k.p == Profile::A2A3) {  // A2/A3 refuses NaN results: positive finite operands, nonzero divisors
          a.bits[i] &= f.max_finite(false) >> 1;
          b.bits[i] = (b.bits[i] & (f.max_finite(false) >> 1)) | 1;
        }
      }
      const Tile before = dst;
      const Tile* srcs[] = {&a, &b};
      execute(k.p, k.op, dst, std::span<const Tile* const>(srcs, source_count(k.op)));
      for (unsigned r = 0; r < 32; ++r)
        for (unsigned col = 0; col < 64; ++col) {
          const size_t i = dst.offset(r, col);
          const bool valid = dst.in_valid_region(r, col);
          const uint64_t want = valid ? expected_half(k.p, k.op, f, a.bits[i], b.bits[i]) : before.bits[i];
          lanes += valid;
          if (dst.bits[i] != want && ++mismatches <= 3)
            ADD_FAILURE() << op_name(k.op) << " " << elem_name(k.t) << " lane (" << r << ", " << col
                          << ") a=" << a.bits[i] << " b=" << b.bits[i] << ": got " << dst.bits[i] << ", want " << want;
        }
    }
    EXPECT_EQ(mismatches, 0u) << op_name(k.op) << " " << elem_name(k.t) << " " << profile_name(k.p) << " over "
                              << lanes << " lanes";
  }
}

// TCMP's packed bits against host comparisons, every mode, f32 and i32 sources, u8 and u32
// predicates.
TEST(PtoFast, CompareMatchesHost) {
  Rng rng(0xC0C0);
  const CmpMode modes[] = {CmpMode::EQ, CmpMode::NE, CmpMode::LT, CmpMode::LE, CmpMode::GT, CmpMode::GE};
  for (ElemType t : {ElemType::F32, ElemType::I32, ElemType::I8, ElemType::U16})
    for (CmpMode m : modes) {
      const ElemType pred = t == ElemType::F32 || t == ElemType::I32 ? ElemType::U8 : ElemType::U32;
      const unsigned k = pred == ElemType::U8 ? 8 : 32;
      const unsigned cols = 128;
      Tile a = make_tile(t, 8, cols, Layout::RowMajor, 8, 1 + rng.below(cols)), b = a;
      Tile dst = make_tile(pred, 8, 64, Layout::RowMajor, 8, 64);
      for (size_t i = 0; i < a.bits.size(); ++i) {
        if (t == ElemType::F32) {
          a.bits[i] = special_f32(rng);
          b.bits[i] = rng.chance(1, 4) ? a.bits[i] ^ (rng.chance(1, 2) ? 0x80000000u : 0) : special_f32(rng);
        } else {
          a.bits[i] = rng.next() & lane_mask(t);
          b.bits[i] = rng.chance(1, 4) ? a.bits[i] : rng.next() & lane_mask(t);
        }
      }
      const Tile* srcs[] = {&a, &b};
      OpParams params;
      params.cmp = m;
      execute(Profile::CpuSim, Op::TCMP, dst, srcs, params);
      auto host_cmp = [&](uint64_t x, uint64_t y) -> bool {
        if (t == ElemType::F32) {
          const float p = host(x), q = host(y);
          switch (m) {
            case CmpMode::EQ: return p == q; case CmpMode::NE: return p != q; case CmpMode::LT: return p < q;
            case CmpMode::LE: return p <= q; case CmpMode::GT: return p > q; case CmpMode::GE: return p >= q;
          }
        }
        const int64_t p = is_signed_int(t) ? static_cast<int64_t>(x << (64 - width_bits(t))) >> (64 - width_bits(t))
                                           : static_cast<int64_t>(x);
        const int64_t q = is_signed_int(t) ? static_cast<int64_t>(y << (64 - width_bits(t))) >> (64 - width_bits(t))
                                           : static_cast<int64_t>(y);
        switch (m) {
          case CmpMode::EQ: return p == q; case CmpMode::NE: return p != q; case CmpMode::LT: return p < q;
          case CmpMode::LE: return p <= q; case CmpMode::GT: return p > q; case CmpMode::GE: return p >= q;
        }
        return false;
      };
      for (unsigned r = 0; r < 8; ++r)
        for (unsigned w = 0; w * k < a.valid_cols; ++w) {
          uint64_t want = 0;
          for (unsigned bit = 0; bit < k && w * k + bit < a.valid_cols; ++bit)
            want |= uint64_t{host_cmp(a.at(r, w * k + bit), b.at(r, w * k + bit))} << bit;
          EXPECT_EQ(dst.at(r, w), want) << elem_name(t) << " " << cmp_name(m) << " row " << r << " word " << w;
        }
    }
}

// TCVT's specialised loops against convert_lane, the generic path, which execute takes when src
// and dst differ in layout (the loops need one layout): every pair of the 11 types, every round
// mode, saturation OFF (the loops' case) and ON (declined), operands special, moderate (in range
// for integers) and random. A refusal must be the same refusal.
uint64_t convert_operand(Rng& rng, ElemType t) {
  const int k = static_cast<int>(rng.below(4));
  if (!is_float(t)) {
    if (k == 0) return rng.next() & lane_mask(t);
    return static_cast<uint64_t>(static_cast<int64_t>(rng.below(600)) - 300) & lane_mask(t);
  }
  const ieee::Format f = float_format(t);
  if (k == 0) return rng.next() & lane_mask(t);
  if (k == 1) {  // the specials: zeros, infinities, NaNs, extremes, subnormals
    const uint64_t s[] = {f.zero(false), f.zero(true), f.infinity(false), f.infinity(true), f.default_nan(),
                          f.max_finite(false), f.max_finite(true), 1, f.sign_bit() | 1, uint64_t{1} << f.frac_bits};
    return s[rng.below(std::size(s))];
  }
  // Halves and quarters up to +-300, and their neighbours: ties for every rounding mode.
  const int64_t quarters = static_cast<int64_t>(rng.below(2401)) - 1200;
  const uint64_t d = ieee::from_integer(ieee::kBinary64, quarters < 0, static_cast<uint64_t>(quarters < 0 ? -quarters : quarters)).bits;
  const uint64_t q = ieee::convert(ieee::kBinary64, f, ieee::mul(ieee::kBinary64, d, 0x3FD0000000000000ull).bits).bits;
  return k == 3 && !ieee::is_nan(f, q) ? q + 1 : q;  // the next pattern up in magnitude
}

TEST(PtoFast, ConvertMatchesGenericPath) {
  Rng rng(0xC0417);
  uint64_t compared = 0, refusals = 0;
  for (ElemType from : kAllElemTypes)
    for (ElemType to : kAllElemTypes)
      for (unsigned m = 0; m <= 6; ++m)
        for (SaturationMode sat : {SaturationMode::Off, SaturationMode::On}) {
          if (is_f8(from) || is_f8(to)) continue;  // no specialised loop: both paths are convert_lane
          Tile src = make_tile(from, 32, 64, Layout::RowMajor, 1 + rng.below(12), 1 + rng.below(64));
          for (auto& v : src.bits) v = convert_operand(rng, from);
          Tile fast = make_tile(to, 32, 64, Layout::RowMajor, src.valid_rows, src.valid_cols);
          Tile generic = make_tile(to, 32, 64, Layout::ColMajor, src.valid_rows, src.valid_cols);
          OpParams params;
          params.round = static_cast<RoundMode>(m);
          params.saturation = sat;
          const Tile* one[] = {&src};
          // A refused lane's operand becomes 0 and the tile runs again, until neither path refuses.
          for (;;) {
            std::string fast_error, generic_error;
            try { execute(Profile::CpuSim, Op::TCVT, fast, one, params); } catch (const Error& e) { fast_error = e.what(); }
            try { execute(Profile::CpuSim, Op::TCVT, generic, one, params); } catch (const Error& e) { generic_error = e.what(); }
            ASSERT_EQ(fast_error, generic_error) << elem_name(from) << " -> " << elem_name(to) << " mode " << m;
            if (fast_error.empty()) break;
            ++refusals;
            unsigned r = 0, c = 0;
            const size_t at = fast_error.find(" lane (");
            ASSERT_NE(at, std::string::npos) << fast_error;
            ASSERT_EQ(std::sscanf(fast_error.c_str() + at, " lane (%u, %u)", &r, &c), 2) << fast_error;
            ASSERT_NE(src.at(r, c), 0u) << fast_error;
            set(src, r, c, 0);
          }
          for (unsigned r = 0; r < src.valid_rows; ++r)
            for (unsigned c = 0; c < src.valid_cols; ++c, ++compared)
              ASSERT_EQ(fast.at(r, c), generic.at(r, c)) << elem_name(from) << " -> " << elem_name(to) << " mode " << m
                                                         << " src " << src.at(r, c);
        }
  EXPECT_GT(compared, 100000u);
  EXPECT_GT(refusals, 0u);
}

// A lane the ISA leaves undefined stops a specialised loop with the generic path's refusal, naming
// the first such lane in row-then-column order, and dst keeps its old contents.
TEST(PtoFast, RefusalsFromSpecialisedLoops) {
  Tile a = make_tile(ElemType::I32, 8, 8, Layout::ColMajor), b = a, dst = a;
  for (auto& v : a.bits) v = 7;
  for (auto& v : b.bits) v = 2;
  set(b, 2, 0, 0);
  set(b, 1, 7, 0);
  for (auto& v : dst.bits) v = 0x55;
  const Tile before = dst;
  const Tile* srcs[] = {&a, &b};
  expect_refusal([&] { execute(Profile::CpuSim, Op::TDIV, dst, srcs); }, ErrorKind::UndefinedBehaviour,
                 {"TDIV (i32, cpusim) lane (1, 7)", "integer division by zero"});
  EXPECT_EQ(dst, before);

  Tile x = make_tile(ElemType::I16, 2, 16), n = x, out = x;
  set(n, 1, 3, 16);
  const Tile* shift[] = {&x, &n};
  expect_refusal([&] { execute(Profile::CpuSim, Op::TSHL, out, shift); }, ErrorKind::UndefinedBehaviour,
                 {"TSHL (i16, cpusim) lane (1, 3)", "shift count 16 >= element width 16"});
  set(n, 1, 3, 0xFFFF);  // -1
  expect_refusal([&] { execute(Profile::CpuSim, Op::TSHR, out, shift); }, ErrorKind::UndefinedBehaviour,
                 {"TSHR (i16, cpusim) lane (1, 3)", "shift count -1 is negative"});

  Tile f = make_tile(ElemType::F32, 2, 8), g = f, h = f;
  set(f, 0, 5, 0x7FC00001);
  set(g, 0, 5, 0x7FC00002);
  const Tile* two_nans[] = {&f, &g};
  expect_refusal([&] { execute(Profile::CpuSim, Op::TADD, h, two_nans); }, ErrorKind::Unsupported, {"lane (0, 5)"});
}

}  // namespace
}  // namespace tmu::pto::test

// The PTO rows of the precision audit (tmu/pto/audit/pto.h). References are MPFR at kExactBits bits, rounded once
// to the element type with gradual underflow (round_to_format). Sums, differences, products and
// remainders of the operands are exact at that precision or, for far-apart magnitudes, land far
// from any rounding boundary of the 8- to 24-bit types; quotients and roots cannot fall on such a
// boundary at all; exp, log and pow are correctly rounded by MPFR at 192 bits, far beyond the
// distance any of these types' hard cases needs. So each reference is the correctly rounded result.
#include "tmu/pto/audit/pto.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "tmu/audit/exact.h"
#include "tmu/error.h"
#include "tmu/rng.h"

namespace tmu::audit {

namespace {

using pto::ElemType;
using pto::Op;

const OutFormat& out_format(ElemType t) {
  switch (t) {
    case ElemType::F32: return kFp32;
    case ElemType::F16: return kFp16;
    case ElemType::BF16: return kBf16;
    default: throw std::invalid_argument("precision audit: PTO rows are for f32, f16 and bf16");
  }
}

Real fresh() {
  Real r;
  r.set_prec(kExactBits);
  return r;
}

// The value of a pattern, exactly (NaN for a NaN).
Real value_of_pattern(ieee::Format f, uint64_t bits) {
  const ieee::Unpacked u = ieee::unpack(f, bits);
  Real r = fresh();
  if (u.cls == ieee::Class::QuietNaN || u.cls == ieee::Class::SignalingNaN) {
    mpfr_set_nan(r.mpfr_ptr());
  } else if (u.cls == ieee::Class::Infinity) {
    mpfr_set_inf(r.mpfr_ptr(), u.sign ? -1 : 1);
  } else if (u.cls == ieee::Class::Zero) {
    mpfr_set_zero(r.mpfr_ptr(), u.sign ? -1 : 1);
  } else {
    mpfr_set_ui(r.mpfr_ptr(), static_cast<unsigned long>(u.significand), MPFR_RNDN);
    mpfr_mul_2si(r.mpfr_ptr(), r.mpfr_srcptr(), u.exponent - static_cast<int>(f.frac_bits), MPFR_RNDN);
    if (u.sign) mpfr_neg(r.mpfr_ptr(), r.mpfr_srcptr(), MPFR_RNDN);
  }
  return r;
}

// The pattern of a value format f represents (the output of round_to_format): zero, infinity,
// subnormal or normal.
uint64_t pattern_of(ieee::Format f, const Real& v) {
  const bool negative = mpfr_signbit(v.mpfr_srcptr()) != 0;
  if (mpfr_inf_p(v.mpfr_srcptr())) return f.infinity(negative);
  if (mpfr_zero_p(v.mpfr_srcptr())) return f.zero(negative);
  const int e = static_cast<int>(mpfr_get_exp(v.mpfr_srcptr())) - 1;  // |v| in [2^e, 2^(e+1))
  ieee::Unpacked u;
  u.sign = negative;
  u.cls = e < f.emin() ? ieee::Class::Subnormal : ieee::Class::Normal;
  u.exponent = std::max(e, f.emin());
  Real s = fresh();
  mpfr_abs(s.mpfr_ptr(), v.mpfr_srcptr(), MPFR_RNDN);
  mpfr_mul_2si(s.mpfr_ptr(), s.mpfr_srcptr(), static_cast<int>(f.frac_bits) - u.exponent, MPFR_RNDN);
  if (!mpfr_integer_p(s.mpfr_srcptr()))
    throw std::runtime_error("precision audit: a PTO reference is not a number of its element type");
  u.significand = mpfr_get_ui(s.mpfr_srcptr(), MPFR_RNDN);
  return ieee::pack(f, u);
}

// The exact value rounded once to the element type, as a pattern (round_to_format takes finite
// values only; an infinite exact result is its own rounding).
uint64_t correctly_rounded(ieee::Format f, const OutFormat& of, const Real& exact) {
  if (mpfr_inf_p(exact.mpfr_srcptr())) return f.infinity(mpfr_signbit(exact.mpfr_srcptr()) != 0);
  return pattern_of(f, round_to_format(exact, of));
}

// The real-number result of op on x, y, z (NaN where there is none), at kExactBits bits. A NaN
// operand gives NaN (the `every` set feeds NaNs to the one-source operations). rSqrt(±0) is ±inf
// as IEEE 754 defines it (mpfr_rec_sqrt gives +inf for both zeros).
Real reference(Op op, const Real& x, const Real& y, const Real& z) {
  Real r = fresh();
  mpfr_ptr o = r.mpfr_ptr();
  mpfr_srcptr a = x.mpfr_srcptr(), b = y.mpfr_srcptr(), c = z.mpfr_srcptr();
  if (mpfr_nan_p(a) || mpfr_nan_p(b) || mpfr_nan_p(c)) {
    mpfr_set_nan(o);
    return r;
  }
  if (op == Op::TRSQRT && mpfr_zero_p(a)) {
    mpfr_set_inf(o, mpfr_signbit(a) ? -1 : 1);
    return r;
  }
  switch (op) {
    case Op::TADD: mpfr_add(o, a, b, MPFR_RNDN); break;
    case Op::TSUB: mpfr_sub(o, a, b, MPFR_RNDN); break;
    case Op::TMUL: mpfr_mul(o, a, b, MPFR_RNDN); break;
    case Op::TDIV: mpfr_div(o, a, b, MPFR_RNDN); break;
    case Op::TADDC: mpfr_add(o, a, b, MPFR_RNDN); mpfr_add(o, o, c, MPFR_RNDN); break;
    case Op::TSUBC: mpfr_sub(o, a, b, MPFR_RNDN); mpfr_add(o, o, c, MPFR_RNDN); break;
    case Op::TRECIP: mpfr_ui_div(o, 1, a, MPFR_RNDN); break;
    case Op::TSQRT: mpfr_sqrt(o, a, MPFR_RNDN); break;
    case Op::TRSQRT: mpfr_rec_sqrt(o, a, MPFR_RNDN); break;
    case Op::TEXP: mpfr_exp(o, a, MPFR_RNDN); break;
    case Op::TLOG: mpfr_log(o, a, MPFR_RNDN); break;
    case Op::TPOW: mpfr_pow(o, a, b, MPFR_RNDN); break;
    case Op::TMIN: mpfr_min(o, a, b, MPFR_RNDN); break;
    case Op::TMAX: mpfr_max(o, a, b, MPFR_RNDN); break;
    case Op::TABS: mpfr_abs(o, a, MPFR_RNDN); break;
    case Op::TNEG: mpfr_neg(o, a, MPFR_RNDN); break;
    case Op::TRELU: if (mpfr_sgn(a) > 0) mpfr_set(o, a, MPFR_RNDN); else mpfr_set_zero(o, 1); break;
    case Op::TPRELU: if (mpfr_sgn(a) > 0) mpfr_set(o, a, MPFR_RNDN); else mpfr_mul(o, a, b, MPFR_RNDN); break;
    case Op::TFMOD: mpfr_fmod(o, a, b, MPFR_RNDN); break;
    case Op::TREM:  // src0 - floor(src0 / src1) * src1: the remainder takes the divisor's sign
      mpfr_fmod(o, a, b, MPFR_RNDN);
      if (!mpfr_zero_p(o) && !mpfr_nan_p(o) && (mpfr_sgn(o) < 0) != (mpfr_sgn(b) < 0)) mpfr_add(o, o, b, MPFR_RNDN);
      break;
    default: throw std::logic_error("precision audit: no PTO reference for this operation");
  }
  return r;
}

bool has_reference(Op op) {
  switch (op) {
    case Op::TADD: case Op::TSUB: case Op::TMUL: case Op::TDIV: case Op::TADDC: case Op::TSUBC:
    case Op::TRECIP: case Op::TSQRT: case Op::TRSQRT: case Op::TEXP: case Op::TLOG: case Op::TPOW:
    case Op::TMIN: case Op::TMAX: case Op::TABS: case Op::TNEG: case Op::TRELU: case Op::TPRELU:
    case Op::TFMOD: case Op::TREM:
      return true;
    default:
      return false;
  }
}

// A random operand of the set, before the op's domain adjustments.
uint64_t draw(Rng& rng, ieee::Format f, PtoInputs d) {
  const uint64_t sign = rng.chance(1, 2) ? f.sign_bit() : 0;
  const uint64_t frac = rng.next() & f.frac_mask();
  uint64_t field = 0;
  switch (d) {
    case PtoInputs::Moderate: field = static_cast<uint64_t>(rng.between(-4, 4) + f.bias()); break;
    case PtoInputs::Wide: field = rng.below(static_cast<uint32_t>(f.exp_field_max())); break;  // never inf/NaN
    case PtoInputs::Tiny: field = rng.below(4); break;
    case PtoInputs::Every: break;  // not drawn
  }
  return sign | (field << f.frac_bits) | frac;
}

bool is_zero(ieee::Format f, uint64_t x) { return (x & (f.sign_bit() - 1)) == 0; }

// Keeps each lane inside what the engine runs without refusing (the rows measure rounding, the
// unit tests cover the refusals): roots, logarithms and pow bases non-negative; no zero divisor
// where the simulator asserts (TRECIP, TREM, TFMOD).
void fit_domain(Op op, ieee::Format f, uint64_t& x, uint64_t& y) {
  const uint64_t one = static_cast<uint64_t>(f.bias()) << f.frac_bits;
  switch (op) {
    case Op::TSQRT: case Op::TRSQRT: case Op::TLOG: case Op::TPOW: x &= ~f.sign_bit(); break;
    case Op::TRECIP: if (is_zero(f, x)) x = one; break;
    case Op::TREM: case Op::TFMOD: if (is_zero(f, y)) y = one; break;
    default: break;
  }
}

}  // namespace

uint64_t ulp_distance(ieee::Format f, uint64_t a, uint64_t b) {
  const auto key = [&f](uint64_t x) {
    const auto magnitude = static_cast<int64_t>(x & (f.sign_bit() - 1));
    return (x & f.sign_bit()) != 0 ? -magnitude : magnitude;
  };
  const int64_t ka = key(a), kb = key(b);
  return ka > kb ? static_cast<uint64_t>(ka - kb) : static_cast<uint64_t>(kb - ka);
}

unsigned ulp_bucket(uint64_t d) {
  if (d <= 2) return static_cast<unsigned>(d);
  if (d <= 4) return 3;
  if (d <= 16) return 4;
  if (d <= 256) return 5;
  return 6;
}

const char* ulp_bucket_label(unsigned b) {
  static constexpr const char* kLabels[kUlpBuckets] = {"0", "1", "2", "3-4", "5-16", "17-256", ">256"};
  return b < kUlpBuckets ? kLabels[b] : "?";
}

void UlpHistogram::add(uint64_t d) {
  ++counts[ulp_bucket(d)];
  ++lanes;
  max = std::max(max, d);
  sum += static_cast<double>(d);
}

const char* pto_inputs_name(PtoInputs d) {
  switch (d) {
    case PtoInputs::Moderate: return "moderate";
    case PtoInputs::Wide: return "wide";
    case PtoInputs::Tiny: return "tiny";
    case PtoInputs::Every: return "every";
  }
  return "?";
}

std::vector<Op> pto_float_ops() {
  std::vector<Op> ops;
  for (unsigned i = 0; i < pto::kOpCount; ++i)
    if (has_reference(static_cast<Op>(i))) ops.push_back(static_cast<Op>(i));
  return ops;
}

namespace {

// Runs `op` on the tile under `profile`. A profile that refuses single lanes (a5 outside its float
// assumption) refuses the whole tile; then each lane runs alone and `refused` marks those it
// refuses. When every lane of the tile is refused the tile's own refusal stands: the operation
// itself is not modelled.
void run_lanes(pto::Profile profile, Op op, pto::Tile& dst, const std::vector<pto::Tile>& srcs,
               std::vector<char>& refused) {
  std::vector<const pto::Tile*> ptrs;
  for (const pto::Tile& t : srcs) ptrs.push_back(&t);
  refused.assign(dst.bits.size(), 0);
  try {
    pto::execute(profile, op, dst, ptrs);
    return;
  } catch (const Error&) {
    // The smallest tile the layout rules accept (one 32-byte row), every lane the same.
    const unsigned cols = 32 / (pto::width_bits(dst.type) / 8);
    std::vector<pto::Tile> one(srcs.size(), pto::make_tile(dst.type, 1, cols));
    std::vector<const pto::Tile*> one_ptrs;
    for (const pto::Tile& t : one) one_ptrs.push_back(&t);
    pto::Tile lane = pto::make_tile(dst.type, 1, cols);
    size_t ran = 0;
    for (size_t i = 0; i < dst.bits.size(); ++i) {
      for (size_t s = 0; s < srcs.size(); ++s) std::fill(one[s].bits.begin(), one[s].bits.end(), srcs[s].bits[i]);
      try {
        pto::execute(profile, op, lane, one_ptrs);
        dst.bits[i] = lane.bits[0];
        ++ran;
      } catch (const Error&) {
        refused[i] = 1;
      }
    }
    if (ran == 0) throw;
  }
}

// One tile of one row: run the engine, then compare every lane. Tile k of the `every` set holds
// the patterns k * 1024 .. k * 1024 + 1023.
void measure_tile(PtoRow& row, Rng& rng, unsigned k, pto::Profile profile) {
  const ieee::Format f = pto::float_format(row.type);
  const OutFormat& of = out_format(row.type);
  const unsigned n = pto::source_count(row.op);
  std::vector<pto::Tile> srcs(n, pto::make_tile(row.type, 32, 32));
  for (unsigned i = 0; i < 32 * 32; ++i) {
    if (row.inputs == PtoInputs::Every) {
      uint64_t x = k * 1024u + i, unused = 0;
      if (row.op == Op::TRECIP) fit_domain(row.op, f, x, unused);
      srcs[0].bits[i] = x;
      continue;
    }
    uint64_t v[3] = {draw(rng, f, row.inputs), draw(rng, f, row.inputs), draw(rng, f, row.inputs)};
    fit_domain(row.op, f, v[0], v[1]);
    for (unsigned s = 0; s < n; ++s) srcs[s].bits[i] = v[s];
  }
  pto::Tile dst = pto::make_tile(row.type, 32, 32);
  std::vector<char> refused;
  run_lanes(profile, row.op, dst, srcs, refused);
  const Real zero = fresh();
  for (unsigned i = 0; i < 32 * 32; ++i) {
    if (refused[i]) {
      ++row.refused_lanes;
      continue;
    }
    const Real x = value_of_pattern(f, srcs[0].bits[i]);
    const Real y = n > 1 ? value_of_pattern(f, srcs[1].bits[i]) : zero;
    const Real z = n > 2 ? value_of_pattern(f, srcs[2].bits[i]) : zero;
    const Real exact = reference(row.op, x, y, z);
    const bool got_nan = ieee::is_nan(f, dst.bits[i]);
    if (mpfr_nan_p(exact.mpfr_srcptr()) || got_nan) {
      if (mpfr_nan_p(exact.mpfr_srcptr()) && got_nan) ++row.nan_both;
      else ++row.nan_mismatch;
      continue;
    }
    row.hist.add(ulp_distance(f, dst.bits[i], correctly_rounded(f, of, exact)));
  }
}

}  // namespace

std::vector<PtoRow> run_pto_rows(uint64_t seed, std::span<const ElemType> types, unsigned tiles, pto::Profile profile) {
  std::vector<PtoRow> rows;
  for (Op op : pto_float_ops())
    for (ElemType t : types)
      for (PtoInputs d : kPtoInputs) {
        const bool every = d == PtoInputs::Every;
        if (every && (pto::source_count(op) != 1 || pto::width_bits(t) != 16)) continue;
        PtoRow row{op, t, d, std::nullopt, {}, 0, 0};
        Rng rng(derive_seed(
            seed, fmt::format("PTO/{}/{}/{}", pto::op_name(op), pto::elem_name(t), pto_inputs_name(d))));
        try {
          for (unsigned k = 0; k < (every ? 64u : tiles); ++k) measure_tile(row, rng, k, profile);
        } catch (const Error& e) {
          row = PtoRow{op, t, d, std::string(e.what()), {}, 0, 0};
        }
        rows.push_back(std::move(row));
      }
  return rows;
}

ElemType pto_type_of(SrcFormat f) {
  switch (f) {
    case SrcFormat::BF16: return ElemType::BF16;
    case SrcFormat::FP16: return ElemType::F16;
    case SrcFormat::TF32: return ElemType::F32;
  }
  return ElemType::F32;
}

std::vector<PtoCross> run_pto_cross(uint64_t seed, std::span<const SrcFormat> formats,
                                    std::span<const Distribution> dists, unsigned tiles) {
  std::vector<PtoCross> out;
  for (SrcFormat sf : formats)
    for (Distribution d : dists) {
      // ELWMUL adds its product to a non-zero Dst under the cancellation distribution: not TMUL.
      if (d == Distribution::Cancellation) continue;
      const ElemType t = pto_type_of(sf);
      const ieee::Format f = pto::float_format(t);
      const OutFormat& of = out_format(t);
      for (Op op : {Op::TMUL, Op::TADD}) {
        PtoCross cell{op, sf, d, {}, {}};
        std::vector<ErrorSample> samples;
        for (unsigned k = 0; k < tiles; ++k) {
          // The stream name of the Matrix Unit's ELWMUL units (tmu/tensix/audit/rows.h), so these are
          // their operands.
          const EltwiseCase c = make_eltwise_case(
              sf, d, derive_seed(seed, fmt::format("ELWMUL/{}/{}/{}", info(sf).name, distribution_name(d), k)));
          pto::Tile a = pto::make_tile(t, kTile, kTile), b = a, dst = a;
          std::vector<Real> exact;
          for (unsigned i = 0; i < kTile * kTile; ++i) {
            const Real va = value_of(c.a[i], sf), vb = value_of(c.b[i], sf);
            a.bits[i] = pattern_of(f, va);
            b.bits[i] = pattern_of(f, vb);
            if (value_of_pattern(f, a.bits[i]) != va || value_of_pattern(f, b.bits[i]) != vb)
              throw std::runtime_error("precision audit: an ELWMUL operand does not fit the PTO element type");
            exact.push_back(reference(op, va, vb, fresh()));
          }
          const pto::Tile* srcs[2] = {&a, &b};
          pto::execute(pto::Profile::CpuSim, op, dst, srcs);
          for (unsigned i = 0; i < kTile * kTile; ++i) {
            const double got = exact_double(value_of_pattern(f, dst.bits[i]));
            samples.push_back(measure(exact[i], got, of));
            cell.hist.add(ulp_distance(f, dst.bits[i], correctly_rounded(f, of, exact[i])));
          }
        }
        cell.stats = summarize(samples);
        out.push_back(std::move(cell));
      }
    }
  return out;
}

std::string pto_rows_csv(const std::vector<PtoRow>& rows) {
  std::string s = "op,type,inputs,status,lanes,correctly_rounded,max_ulp,mean_ulp";
  for (unsigned b = 0; b < kUlpBuckets; ++b) s += fmt::format(",ulp_{}", ulp_bucket_label(b));
  s += ",nan_both,nan_mismatch,refused_lanes,reason\n";
  for (const PtoRow& r : rows) {
    s += fmt::format("{},{},{},{},{},{},{},{:.6g}", pto::op_name(r.op), pto::elem_name(r.type),
                     pto_inputs_name(r.inputs), r.refused ? "refused" : "measured", r.hist.lanes,
                     r.refused ? "" : (r.correctly_rounded() ? "yes" : "no"), r.hist.max, r.hist.mean());
    for (uint64_t c : r.hist.counts) s += fmt::format(",{}", c);
    std::string reason = r.refused.value_or("");
    std::replace(reason.begin(), reason.end(), '"', '\'');
    s += fmt::format(",{},{},{},\"{}\"\n", r.nan_both, r.nan_mismatch, r.refused_lanes, reason);
  }
  return s;
}

}  // namespace tmu::audit

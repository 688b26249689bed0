#include "values.h"

#include <algorithm>

namespace tmu::tensix::vectors::detail {

namespace {

// Mantissa fields (10-bit Src frame) of the slice patterns. SrcA: phase bit 0 clear consumes the
// implicit one and the top four bits (9:6), set consumes bits 5:1, and bit 0 is never consumed.
// SrcB: phase bit 1 clear consumes the top six bits (9:4), set the low four (3:0). BF16 holds only
// bits 9:3 of the frame.
constexpr uint32_t kSrcASliceHi = 0x3C0, kSrcASliceLo = 0x03E, kSrcASliceLoBf16 = 0x038, kSrcAUnused = 0x001;
constexpr uint32_t kSrcBSliceHi = 0x3F0, kSrcBSliceLo = 0x00F, kSrcBSliceLoBf16 = 0x008;
// Tie operands: a single set bit that lands on a power-of-two slice in every phase (SrcA bit 5 is
// the top of the low slice, SrcB bit 3 the top of its low slice; the high slices see only the
// implicit one).
constexpr uint32_t kSrcATieMantissa = 0x020, kSrcBTieMantissa = 0x008;
constexpr uint32_t kBf16MantissaMask = 0x3F8;

int floor_half(int s) { return s >= 0 ? s / 2 : -((-s + 1) / 2); }

uint32_t clamp_exponent(Fmt f, int biased) {
  return static_cast<uint32_t>(std::clamp(biased, 1, static_cast<int>(max_exponent(f))));
}

// IEEE-order 16/32-bit patterns to the math Dst layout.
uint32_t dst_from_ieee(Fmt f, bool dst32, uint32_t ieee) {
  if (dst32) return dst32_from_fp32(ieee);
  return f == Fmt::FP16 ? dst16_from_fp16(static_cast<uint16_t>(ieee)) : dst16_from_bf16(static_cast<uint16_t>(ieee));
}

}  // namespace

const char* fmt_name(Fmt f) {
  switch (f) {
    case Fmt::BF16: return "bf16";
    case Fmt::FP16: return "fp16";
    case Fmt::TF32: return "tf32";
    case Fmt::INT8: return "int8";
  }
  return "?";
}

bool parse_fmt(std::string_view name, Fmt* out) {
  for (Fmt f : {Fmt::BF16, Fmt::FP16, Fmt::TF32, Fmt::INT8})
    if (name == fmt_name(f)) {
      *out = f;
      return true;
    }
  return false;
}

SrcStyle style_of(Fmt f) {
  switch (f) {
    case Fmt::BF16: return SrcStyle::BF16;
    case Fmt::FP16: return SrcStyle::FP16;
    case Fmt::TF32: return SrcStyle::TF32;
    case Fmt::INT8: return SrcStyle::INT8;
  }
  return SrcStyle::BF16;
}

DataFormat data_format_of(Fmt f) {
  switch (f) {
    case Fmt::BF16: return DataFormat::BF16;
    case Fmt::FP16: return DataFormat::FP16;
    case Fmt::TF32: return DataFormat::TF32;
    case Fmt::INT8: return DataFormat::INT8;
  }
  return DataFormat::BF16;
}

View src_view_of(Fmt f) {
  switch (f) {
    case Fmt::BF16: return View::BF16;
    case Fmt::FP16: return View::FP16;
    case Fmt::TF32: return View::TF32;
    case Fmt::INT8: return View::INT8;
  }
  return View::Raw;
}

View math_dst_view(Fmt f, bool dst32) {
  if (f == Fmt::INT8) return View::INT32;
  if (dst32) return View::FP32;
  return f == Fmt::FP16 ? View::FP16 : View::BF16;
}

int exponent_bias(Fmt f) { return f == Fmt::FP16 ? 15 : 127; }
uint32_t max_exponent(Fmt f) { return f == Fmt::FP16 ? 31 : 255; }
uint32_t all_ones_mantissa(Fmt f) { return f == Fmt::BF16 ? kBf16MantissaMask : 0x3FF; }

uint32_t src_float(Fmt f, uint32_t sign, uint32_t biased_exponent, uint32_t mantissa10) {
  SrcFields fields{sign, biased_exponent, f == Fmt::BF16 ? (mantissa10 & kBf16MantissaMask) : mantissa10};
  return pack_src(fields, style_of(f));
}

uint32_t src_int8(uint32_t sign, uint32_t magnitude, bool zero_marker) {
  const uint32_t marker = (magnitude == 0 || zero_marker) ? 0 : src_layout::kInt8Marker;
  return src_layout::assemble(sign, magnitude, marker);
}

uint32_t negate_src(uint32_t datum) { return with_bits<18, 18>(datum, src_layout::sign(datum) ^ 1); }

std::pair<int, int> tie_exponents(int target_exponent, unsigned phase) {
  const int sum = target_exponent + ((phase & 1) ? 5 : 0) + ((phase & 2) ? 7 : 0);
  const int a = floor_half(sum);
  return {a, sum - a};
}

int half_ulp_exponent(Fmt f, bool dst32) {
  if (dst32) return -24;
  return f == Fmt::FP16 ? -11 : -8;
}

std::array<Named, kNumSrcClasses> src_classes(Fmt f, Role role, int tie_exponent) {
  const bool a = role == Role::SrcA;
  if (f == Fmt::INT8) {
    return {{{"0", src_int8(0, 0)},
             {"-0", src_int8(1, 0)},
             {"denormal", src_int8(0, 5, true)},
             {"-denormal", src_int8(1, 1023, true)},
             {"1", src_int8(0, 1)},
             {"-1", src_int8(1, 1)},
             {"max", src_int8(0, 1023)},
             {"-max", src_int8(1, 1023)},
             {"127", src_int8(0, 127)},
             {"-128", src_int8(1, 128)},
             {"slice-hi", src_int8(0, a ? 0x0E0 : 0x3F0)},
             {"slice-lo", src_int8(0, a ? 0x01F : 0x00F)},
             {a ? "unused-bits" : "alternating", src_int8(0, a ? 0x300 : 0x2AA)},
             {"255", src_int8(0, 255)},
             {"-255", src_int8(1, 255)},
             {"-alternating", src_int8(1, 0x155)}}};
  }
  const uint32_t bias = static_cast<uint32_t>(exponent_bias(f));
  const uint32_t top = max_exponent(f);
  const uint32_t ones = all_ones_mantissa(f);
  const uint32_t lsb = f == Fmt::BF16 ? 0x008 : 0x001;
  const uint32_t tie_exp = clamp_exponent(f, exponent_bias(f) + tie_exponent);
  const uint32_t tie_man = a ? kSrcATieMantissa : kSrcBTieMantissa;
  const uint32_t slice_lo = a ? (f == Fmt::BF16 ? kSrcASliceLoBf16 : kSrcASliceLo)
                              : (f == Fmt::BF16 ? kSrcBSliceLoBf16 : kSrcBSliceLo);
  const bool bf16 = f == Fmt::BF16;
  return {{{"+0", src_float(f, 0, 0, 0)},
           {"-0", src_float(f, 1, 0, 0)},
           {"+denormal", src_float(f, 0, 0, lsb)},
           {"-denormal", src_float(f, 1, 0, ones)},
           {"+min-normal", src_float(f, 0, 1, 0)},
           {"-min-normal", src_float(f, 1, 1, 0)},
           {"+max-normal", src_float(f, 0, top, ones)},
           {"-max-normal", src_float(f, 1, top, ones)},
           {"+1", src_float(f, 0, bias, 0)},
           {"-1", src_float(f, 1, bias, 0)},
           {"slice-hi", src_float(f, 0, bias, a ? kSrcASliceHi : kSrcBSliceHi)},
           {"slice-lo", src_float(f, 0, bias, slice_lo)},
           {a ? (bf16 ? "all-ones-mantissa" : "unused-bit") : "alternating",
            src_float(f, 0, bias, a ? (bf16 ? ones : kSrcAUnused) : 0x2AA)},
           {"+tie", src_float(f, 0, tie_exp, tie_man)},
           {"-tie", src_float(f, 1, tie_exp, tie_man)},
           {a ? "-2.67" : "0.999", a ? src_float(f, 1, bias + 1, 0x155) : src_float(f, 0, bias - 1, ones)}}};
}

std::vector<DstClass> dst_classes(Fmt f, bool dst32) {
  if (f == Fmt::INT8) {
    return {{"invalid", false, dst32_from_int32(3)},
            {"0", true, dst32_from_int32(0)},
            {"-0", true, dst32_from_fp32(0x80000000u)},
            {"1", true, dst32_from_int32(1)},
            {"-1", true, dst32_from_int32(-1)},
            {"max", true, dst32_from_int32(0x7FFFFFFF)},
            {"-max", true, dst32_from_int32(-0x7FFFFFFF)},
            {"max-100", true, dst32_from_int32(0x7FFFFF9B)},
            {"1000000", true, dst32_from_int32(1000000)},
            {"-12345", true, dst32_from_int32(-12345)}};
  }
  struct Ieee {
    uint32_t three, one, one_ulp, minus_one, min_normal, max, denormal;
  };
  const Ieee v = dst32 ? Ieee{0x40400000, 0x3F800000, 0x3F800001, 0xBF800000, 0x00800000, 0x7FFFFFFF, 0x00055555}
                 : f == Fmt::FP16 ? Ieee{0x4200, 0x3C00, 0x3C01, 0xBC00, 0x0400, 0x7FFF, 0x0155}
                                  : Ieee{0x4040, 0x3F80, 0x3F81, 0xBF80, 0x0080, 0x7FFF, 0x0055};
  const uint32_t sign = dst32 ? 0x80000000u : 0x8000u;
  auto d = [&](uint32_t ieee) { return dst_from_ieee(f, dst32, ieee); };
  return {{"invalid", false, d(v.three)},     {"+0", true, d(0)},           {"-0", true, d(sign)},
          {"denormal", true, d(v.denormal)},  {"+1", true, d(v.one)},       {"1+ulp", true, d(v.one_ulp)},
          {"-1", true, d(v.minus_one)},       {"min-normal", true, d(v.min_normal)},
          {"-max-normal", true, d(sign | v.max)}, {"+max-normal", true, d(v.max)}};
}

uint32_t random_src(Rng& rng, Fmt f, const std::array<Named, kNumSrcClasses>& classes, int center, int spread) {
  if (rng.chance(1, 8)) return classes[rng.below(kNumSrcClasses)].bits;
  const uint32_t sign = rng.bits(1);
  if (f == Fmt::INT8) {
    const uint32_t magnitude = rng.chance(1, 2) ? rng.below(1024) : rng.below(256);
    return src_int8(sign, magnitude);
  }
  const uint32_t exponent = rng.chance(1, 16) ? rng.below(max_exponent(f) + 1)
                                              : clamp_exponent(f, exponent_bias(f) + center + rng.between(-spread, spread));
  return src_float(f, sign, exponent, rng.bits(10));
}

uint32_t random_dst(Rng& rng, Fmt f, bool dst32, int center, int spread) {
  const uint32_t sign = rng.bits(1);
  if (f == Fmt::INT8) {
    int32_t magnitude = 0;
    switch (rng.below(4)) {
      case 0: magnitude = static_cast<int32_t>(rng.below(1u << 16)); break;
      case 1: magnitude = static_cast<int32_t>(rng.bits(31)); break;
      case 2: magnitude = 0x7FFFFFFF - static_cast<int32_t>(rng.below(1u << 20)); break;
      default: magnitude = static_cast<int32_t>(rng.below(1u << 24)); break;
    }
    return dst32_from_int32(sign ? -magnitude : magnitude);
  }
  const int exponent = std::clamp(exponent_bias(f) + center + rng.between(-spread, spread), 1,
                                  static_cast<int>(max_exponent(f)));
  if (dst32) return dst32_from_fp32((sign << 31) | (static_cast<uint32_t>(exponent) << 23) | rng.bits(23));
  if (f == Fmt::FP16) return dst16_from_fp16(static_cast<uint16_t>((sign << 15) | (static_cast<uint32_t>(exponent) << 10) | rng.bits(10)));
  return dst16_from_bf16(static_cast<uint16_t>((sign << 15) | (static_cast<uint32_t>(exponent) << 7) | rng.bits(7)));
}

uint32_t random_src_pattern(Rng& rng, Fmt f) {
  const uint32_t sign = rng.bits(1);
  if (f == Fmt::INT8) return src_int8(sign, rng.below(1024), rng.chance(1, 16));
  return src_float(f, sign, rng.below(max_exponent(f) + 1), rng.bits(10));
}

}  // namespace tmu::tensix::vectors::detail

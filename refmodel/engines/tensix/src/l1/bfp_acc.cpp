// The packer's two stages that combine datums: BFP block assembly (one shared exponent per 16 datums)
// and L1 accumulation (L1 = L1 + datum), plus the L1 format names.
//
// Sources: tenstorrent/ttsim, src/tensix.cpp (TENSIX_EXECUTE_PACR's BFP assembly; pack_l1_acc_fp32,
// pack_l1_acc_bf16, pack_l1_acc_fp16); tenstorrent/tt-isa-documentation, WormholeB0/TensixTile/
// TensixCoprocessor/Packers/FormatConversion.md ("Final L1 output format"). ttsim adds in host
// float/double; here the sums are tmu::ieee's integer additions in a format chosen so that they give
// the same bits (argued at each function).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "tmu/bits.h"
#include "tmu/error.h"
#include "tmu/ieee.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::tensix {

namespace {

struct L1FormatInfo {
  L1Format f;
  const char* name;
  DataFormat code;
  unsigned bits;
};
constexpr L1FormatInfo kInfo[] = {
    {L1Format::FP32, "FP32", DataFormat::FP32, 32},    {L1Format::TF32, "TF32", DataFormat::TF32, 32},
    {L1Format::BF16, "BF16", DataFormat::BF16, 16},    {L1Format::FP16, "FP16", DataFormat::FP16, 16},
    {L1Format::FP8, "FP8", DataFormat::FP8, 8},        {L1Format::BFP8, "BFP8", DataFormat::BFP8, 8},
    {L1Format::BFP4, "BFP4", DataFormat::BFP4, 4},     {L1Format::BFP2, "BFP2", DataFormat::BFP2, 2},
    {L1Format::BFP8a, "BFP8a", DataFormat::BFP8a, 8},  {L1Format::BFP4a, "BFP4a", DataFormat::BFP4a, 4},
    {L1Format::BFP2a, "BFP2a", DataFormat::BFP2a, 2},  {L1Format::INT32, "INT32", DataFormat::INT32, 32},
    {L1Format::INT16, "INT16", DataFormat::INT16, 16}, {L1Format::INT8, "INT8", DataFormat::INT8, 8},
    {L1Format::UINT8, "UINT8", DataFormat::INT8, 8},
};
const L1FormatInfo& info(L1Format f) { return kInfo[static_cast<size_t>(f)]; }
static_assert(std::size(kInfo) == kL1Formats.size());

constexpr uint32_t kSign32 = 0x80000000u;
constexpr uint32_t kInf32 = 0x7F800000u;

uint32_t denormal_as_zero32(uint32_t v) { return bits<30, 23>(v) == 0 ? v & kSign32 : v; }

}  // namespace

const char* l1_format_name(L1Format f) { return info(f).name; }
std::optional<L1Format> parse_l1_format(std::string_view s) {
  for (const auto& i : kInfo) {
    const std::string_view n = i.name;
    if (n.size() == s.size() &&
        std::equal(n.begin(), n.end(), s.begin(), [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); })) {
      return i.f;
    }
  }
  return std::nullopt;
}
DataFormat l1_format_code(L1Format f) { return info(f).code; }
std::optional<L1Format> l1_format_of_code(uint32_t code, bool is_unsigned) {
  if (!is_valid_data_format_code(code)) return std::nullopt;
  if (code == static_cast<uint32_t>(DataFormat::INT8) && is_unsigned) return L1Format::UINT8;
  for (L1Format f : kL1Formats)
    if (f != L1Format::UINT8 && static_cast<uint32_t>(l1_format_code(f)) == code) return f;
  return std::nullopt;
}
unsigned l1_datum_bits(L1Format f) { return info(f).bits; }
bool l1_is_bfp(L1Format f) {
  switch (f) {
    case L1Format::BFP8: case L1Format::BFP4: case L1Format::BFP2:
    case L1Format::BFP8a: case L1Format::BFP4a: case L1Format::BFP2a: return true;
    default: return false;
  }
}
size_t l1_byte_count(L1Format f, size_t n) {
  return n * l1_datum_bits(f) / 8 + (l1_is_bfp(f) ? n / kBfpBlock : 0);
}

BfpBlock bfp_block_from_bf16(std::span<const uint16_t, kBfpBlock> in, L1Format to) {
  if (to != L1Format::BFP8 && to != L1Format::BFP4 && to != L1Format::BFP2) {
    throw Error(ErrorKind::BadInput, fmt::format("BFP block assembly from BF16 makes BFP8/BFP4/BFP2, not {}", l1_format_name(to)));
  }
  BfpBlock b;
  uint32_t max_exp = 0;
  for (uint16_t v : in) max_exp = std::max(max_exp, bits<14, 7>(v));
  b.exponent = static_cast<uint8_t>(max_exp);
  const unsigned width = l1_datum_bits(to);
  for (size_t j = 0; j < kBfpBlock; ++j) {
    const uint32_t e = bits<14, 7>(in[j]);
    uint32_t m = bits<6, 0>(in[j]) | (e != 0 ? 0x80u : 0u);  // 8-bit significand, hidden bit at 7
    const uint32_t shift = max_exp - e;
    if (shift >= 8) {
      m = 0;
    } else {
      m = (m + (1u << shift)) >> (shift + 1);  // align and keep 7 bits, half a unit added first
      m = std::min(m, 127u);                   // a carry out of the block's exponent saturates
    }
    m >>= 8 - width;  // BFP4 and BFP2 truncate the 7-bit magnitude
    if (m != 0) m |= static_cast<uint32_t>(bits<15, 15>(in[j])) << (width - 1);
    b.datums[j] = static_cast<uint8_t>(m);
  }
  return b;
}

// ttsim adds two binary32 numbers in host float with denormals read and written as signed zeros.
// tmu::ieee::add is the same round-to-nearest-even sum on integers; the sum of two numbers that are
// multiples of 2^-149 is exact whenever it is below 2^-126, so flushing before or after rounding
// cannot differ.
uint32_t l1_acc_fp32(uint32_t l1, uint32_t datum) {
  const uint32_t r = static_cast<uint32_t>(ieee::add(ieee::kBinary32, denormal_as_zero32(l1), denormal_as_zero32(datum)).bits);
  if ((r & ~kSign32) > kInf32) return 0x7FC00000u;
  return denormal_as_zero32(r);
}

// ttsim adds in double and rounds once to 8 bits. Format{10, 7} has BF16's precision and an exponent
// range wide enough that no sum of these operands overflows or underflows in it, so its nearest-even
// sum is that rounding; double's own rounding (exponents more than 45 apart) never makes a BF16 tie.
// The flush below 2^-126 reads the rounded exponent where ttsim reads the unrounded one: a sum below
// 2^-126 is a multiple of 2^-133 with at most 7 significant bits, exact, so the two agree.
uint16_t l1_acc_bf16(uint16_t l1, uint16_t datum) {
  constexpr ieee::Format kWide{10, 7};
  constexpr uint32_t kInf = 0x7F80u;
  const uint32_t ml = l1 & 0x7FFFu, md = datum & 0x7FFFu;
  const uint32_t sl = l1 & 0x8000u, sd = datum & 0x8000u;
  if (ml == kInf && md == kInf && sl != sd) return 0x7FC0;
  if (ml > kInf) return md == kInf ? static_cast<uint16_t>(datum) : static_cast<uint16_t>(sl | kInf);  // an L1 NaN: the largest double
  if (ml == kInf) return static_cast<uint16_t>(sl | kInf);
  if (md == kInf) return static_cast<uint16_t>(sd | kInf);
  // Finite BF16 (an exponent field of 255 in the datum is a NaN read as 2^128 * 1.m) -> kWide.
  auto widen = [&](uint32_t sign, uint32_t mag) -> uint64_t {
    if (bits<14, 7>(mag) == 0) return static_cast<uint64_t>(sign) << 2;  // denormal or zero: signed zero
    const uint32_t e = bits<14, 7>(mag) - 127 + static_cast<uint32_t>(kWide.bias());
    return static_cast<uint64_t>(sign) << 2 | static_cast<uint64_t>(e) << 7 | bits<6, 0>(mag);
  };
  const uint64_t r = ieee::add(kWide, widen(sl, ml), widen(sd, md)).bits;
  const auto s = static_cast<uint16_t>((r >> 17) << 15);
  const int e = static_cast<int>(bits64<16, 7>(r)) - kWide.bias() + 127;
  if (bits64<16, 7>(r) == 0 || e <= 0) return s;
  if (e >= 255) return static_cast<uint16_t>(s | kInf);
  return static_cast<uint16_t>(s | static_cast<uint32_t>(e) << 7 | bits64<6, 0>(r));
}

// ttsim widens both FP16 numbers to binary32 normals, adds in host float, then rounds the binary32 sum
// to FP16 by hand. The binary32 sum of two FP16 numbers is exact unless their exponents lie more than
// 13 apart, and then the smaller is under a quarter of the larger's FP16 unit, so the second rounding
// sees no tie that the exact sum would not.
uint16_t l1_acc_fp16(uint16_t l1, uint16_t datum) {
  auto widen = [](uint16_t v) {
    const uint32_t s = static_cast<uint32_t>(v & 0x8000u) << 16;
    if (bits<14, 10>(v) == 0) return s;
    return s | (((v & 0x7FFFu) << 13) + (112u << 23));
  };
  const auto r = static_cast<uint32_t>(ieee::add(ieee::kBinary32, widen(l1), widen(datum)).bits);
  const auto s = static_cast<uint16_t>((r >> 16) & 0x8000u);
  if ((r & ~kSign32) == 0) return static_cast<uint16_t>(s | (bits<14, 10>(l1) >= 30 ? 0x7FFFu : 0u));  // silicon's quirk (ttsim)
  const int e = static_cast<int>(bits<30, 23>(r)) - 112;
  if (e <= 0) return static_cast<uint16_t>(s | (e < 0 ? 0x7FFFu : 0u));  // below 2^-15 saturates (ttsim)
  const uint32_t m = bits<22, 0>(r);
  const uint32_t packed = (static_cast<uint32_t>(e) << 10) + ((m + (1u << 12) - 1 + ((m >> 13) & 1u)) >> 13);  // nearest even
  return static_cast<uint16_t>(s | std::min(packed, 0x7FFFu));
}

}  // namespace tmu::tensix

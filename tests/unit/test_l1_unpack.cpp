// The unpacker's conversions L1 -> Src/Dst (tmu/tensix/l1_formats.h). Each Src datum is read back
// with src_datum_value (formats.h, the Matrix Unit's reading of a datum) and compared with the value
// the L1 pattern means, derived here in double from FloatBitPatterns.md; FP32 truncations and the
// BFP exponent wrap are derived by hand in the comments. Every 16-bit and 8-bit pattern is checked.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tmu/error.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::tensix {
namespace {

UnpackConfig cfg(L1Format from, std::optional<L1Format> to = std::nullopt, Arch arch = Arch::Blackhole) {
  UnpackConfig c;
  c.arch = arch, c.from = from, c.to = to;
  return c;
}

double fp16_meaning(uint32_t x) {  // Matrix Unit: exponent 0 is zero, exponent 31 ordinary
  const int e = (x >> 10) & 31, m = x & 1023;
  const double v = e ? std::ldexp(1024 + m, e - 25) : 0.0;
  return (x & 0x8000) ? -v : v;
}
double bf16_meaning(uint32_t x) {
  const int e = (x >> 7) & 255, m = x & 127;
  const double v = e ? std::ldexp(128 + m, e - 134) : 0.0;
  return (x & 0x8000) ? -v : v;
}

TEST(L1Unpack, SixteenBitFormatsEveryPattern) {
  for (uint32_t x = 0; x < 0x10000; ++x) {
    ASSERT_EQ(src_datum_value(unpack_datum(cfg(L1Format::FP16), x), SrcStyle::FP16), fp16_meaning(x)) << std::hex << x;
    ASSERT_EQ(src_datum_value(unpack_datum(cfg(L1Format::BF16), x), SrcStyle::BF16), bf16_meaning(x)) << std::hex << x;
    // INT16 is raw bits: read back through the layout of formats.h (low 8 bits in 7:0, high 7 in 17:11).
    const uint32_t d = unpack_datum(cfg(L1Format::INT16), x);
    ASSERT_EQ(src_layout::sign(d) << 15 | src_layout::mantissa_hi7(d) << 8 | src_layout::exponent(d), x);
    ASSERT_EQ(src_layout::mantissa_lo3(d), 0u);
  }
}

TEST(L1Unpack, EightBitFormatsEveryPattern) {
  for (uint32_t x = 0; x < 256; ++x) {
    // INT8 is sign-magnitude (FormatConversion.md); UINT8 plain.
    const double i8 = (x & 0x80) ? -static_cast<double>(x & 0x7F) : static_cast<double>(x & 0x7F);
    ASSERT_EQ(src_datum_value(unpack_datum(cfg(L1Format::INT8), x), SrcStyle::INT8), i8) << x;
    ASSERT_EQ(src_datum_value(unpack_datum(cfg(L1Format::UINT8), x), SrcStyle::INT8), static_cast<double>(x)) << x;
    // FP8 S1E5M2 is FP16's top byte.
    ASSERT_EQ(src_datum_value(unpack_datum(cfg(L1Format::FP8, std::nullopt, Arch::Wormhole), x), SrcStyle::FP16), fp16_meaning(x << 8)) << x;
    // S1E4M3 (bias 7): exponent + 8 in FP16's frame; exponent 0 is zero to the Matrix Unit.
    UnpackConfig e4 = cfg(L1Format::FP8);
    e4.fp8_e4m3 = true;
    const int e = (x >> 3) & 15, m = x & 7;
    double v = e ? std::ldexp(8 + m, e - 10) : 0.0;
    if (e == 15 && m == 7) v = std::ldexp(1024 + 1023, 23 - 25);  // all ones widen to FP16 exponent 23, mantissa all ones
    ASSERT_EQ(src_datum_value(unpack_datum(e4, x), SrcStyle::FP16), (x & 0x80) ? -v : v) << x;
  }
  // Blackhole reads E5M2 0x7f (exponent and mantissa all ones) as FP16 0x7fff; Wormhole as 0x7f00.
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP8), 0x7F), src_layout::assemble(0, 0x3FF, 31));
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP8, std::nullopt, Arch::Wormhole), 0x7F), src_layout::assemble(0, 0x300, 31));
}

TEST(L1Unpack, Fp32ConversionsTruncate) {
  // 1 + 2^-8 + 2^-11 + 2^-23 (0x3f809001): TF32 keeps 10 fraction bits -> 1 + 2^-8 (mantissa 0x004);
  // BF16 keeps 7 -> 1.0; FP16 keeps 10 with exponent 127 - 112 = 15.
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP32), 0x3F809001u), src_layout::assemble(0, 0x004, 127));
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP32, L1Format::BF16), 0x3F809001u), src_layout::assemble(0, 0, 127));
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP32, L1Format::FP16), 0x3F809001u), src_layout::assemble(0, 0x004, 15));
  // BF16: a denormal keeps only its sign; TF32 keeps a denormal's top bits (exponent 0 reads as zero anyway).
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP32, L1Format::BF16), 0x80400000u), src_layout::assemble(1, 0, 0));
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP32), 0x00400000u), src_layout::assemble(0, 0x200, 0));
  // FP16: 2^16 is exponent 31, an ordinary exponent; from 2^17 up it saturates; below 2^-15 a signed zero.
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP32, L1Format::FP16), 0x47800000u), src_layout::assemble(0, 0, 31));
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP32, L1Format::FP16), 0x48000000u), src_layout::assemble(0, 0x3FF, 31));
  EXPECT_EQ(unpack_datum(cfg(L1Format::FP32, L1Format::FP16), 0xB7FFFFFFu), src_layout::assemble(1, 0, 0));
  // Every FP32 pattern's TF32 datum keeps its top 19 bits.
  for (uint32_t hi = 0; hi < 0x80000; hi += 7) {
    const uint32_t x = hi << 13 | (hi * 2654435761u & 0x1FFF);
    ASSERT_EQ(unpack_datum(cfg(L1Format::FP32), x), src_layout::assemble(x >> 31, (x >> 13) & 1023, (x >> 23) & 255));
  }
}

TEST(L1Unpack, BfpDatumsAndTheExponentWrap) {
  // BFP8 magnitude/64 * 2^(exp-127) (FloatBitPatterns.md), for exponents high enough not to wrap.
  for (uint32_t d = 0; d < 256; ++d) {
    for (uint32_t e : {7u, 100u, 127u, 200u, 254u}) {
      const uint16_t bf = bfp_datum_to_bf16(L1Format::BFP8, static_cast<uint8_t>(d), static_cast<uint8_t>(e));
      if ((d & 0x7F) == 0) {
        ASSERT_EQ(bf, (d & 0x80) ? 0xFF80 : 0);  // a lone sign is -inf
        continue;
      }
      const double want = std::ldexp(static_cast<double>(d & 0x7F), static_cast<int>(e) - 127 - 6);
      ASSERT_EQ(bf16_meaning(bf), (d & 0x80) ? -want : want) << d << " " << e;
    }
  }
  // BFP4 0b0011 is BFP8 0b00110000 = 48/64; BFP2 0b01 is BFP8 0b01000000 = 1.
  EXPECT_EQ(bfp_datum_to_bf16(L1Format::BFP4, 0x3, 127), 0x3F40);
  EXPECT_EQ(bfp_datum_to_bf16(L1Format::BFP2, 0x1, 127), 0x3F80);
  EXPECT_EQ(bfp_datum_to_bf16(L1Format::BFP2, 0x3, 127), 0xBF80);
  // Exponent 0 with magnitude 1: normalising shifts 6 places, and 0 - 6 wraps to 250 (silicon, ttsim).
  EXPECT_EQ(bfp_datum_to_bf16(L1Format::BFP8, 0x01, 0), 250 << 7);
}

TEST(L1Unpack, WholeTilesAndRoundTrips) {
  // BF16 -> BFP8 -> Src: a block of k/16 values is exact in BFP8 and comes back unchanged.
  std::vector<uint32_t> dst(32);
  for (size_t i = 0; i < 32; ++i) dst[i] = std::bit_cast<uint32_t>(static_cast<float>(i) / 16.0f) >> 16;
  PackConfig pc;
  pc.from = PackSource::BF16, pc.to = L1Format::BFP8;
  const std::vector<uint8_t> l1 = pack_to_l1(plan_pack(pc), dst);
  const std::vector<uint32_t> src = unpack_from_l1(cfg(L1Format::BFP8), l1, 32);
  for (size_t i = 0; i < 32; ++i) EXPECT_EQ(src_datum_value(src[i], SrcStyle::BF16), static_cast<double>(i) / 16.0) << i;
  // FP32 to Dst is the identity; INT32 too.
  UnpackConfig d = cfg(L1Format::FP32);
  d.target = UnpackTarget::Dst;
  const std::vector<uint8_t> four = {0x01, 0x02, 0x03, 0x84};
  EXPECT_EQ(unpack_from_l1(d, four, 1)[0], 0x84030201u);
  d.from = L1Format::INT32;
  EXPECT_EQ(unpack_from_l1(d, four, 1)[0], 0x84030201u);
  EXPECT_THROW(unpack_from_l1(cfg(L1Format::BF16), four, 1), Error);  // 4 bytes are 2 BF16 datums, not 1
}

TEST(L1Unpack, Refusals) {
  auto refused = [](UnpackConfig c) {
    try {
      check_unpack(c);
    } catch (const Error& e) {
      return e.kind() == ErrorKind::BadInput;
    }
    return false;
  };
  EXPECT_TRUE(refused(cfg(L1Format::FP32, L1Format::FP32)));  // FP32 into Src: undefined
  EXPECT_TRUE(refused(cfg(L1Format::INT32)));                  // INT32 into Src: undefined
  EXPECT_TRUE(refused(cfg(L1Format::BFP8a)));
  EXPECT_TRUE(refused(cfg(L1Format::BF16, L1Format::TF32)));
  UnpackConfig d = cfg(L1Format::BF16);
  d.target = UnpackTarget::Dst;
  EXPECT_TRUE(refused(d));
  EXPECT_FALSE(refused(cfg(L1Format::FP32, L1Format::FP16)));
}

}  // namespace
}  // namespace tmu::tensix

// Per-datum conversions of MOVA2D/MOVB2D/MOVD2A/MOVD2B/MOVB2A. Expected values are derived by hand
// from the ISA functional models (RemoveLowMantissa, RemoveHighExponent, ShuffleBF16/FP16/TF32) and
// the bit diagrams, with the derivation in the comment; round trips are checked exhaustively where
// the ISA says a move is lossless.
#include <gtest/gtest.h>

#include <cstdint>

#include "tmu/error.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/movconv.h"

namespace tmu::tensix {
namespace {

constexpr uint32_t code(DataFormat f) { return static_cast<uint32_t>(f); }

MovToDstConfig to_dst(DataFormat srca, bool lo = false, bool flush = true, bool fp16a_force = false) {
  MovToDstConfig c;
  c.srca_format_code = code(srca);
  c.use_dst32b_lo = lo;
  c.flush_denormals = flush;
  c.fp16a_force = fp16a_force;
  return c;
}

MovFromDstPlan from_dst(DataFormat srca, bool dst32, bool lo = false, bool fp16a_force = false) {
  MovFromDstConfig c;
  c.srca_format_code = code(srca);
  c.use_dst32b = dst32;
  c.use_dst32b_lo = lo;
  c.fp16a_force = fp16a_force;
  return plan_mov_from_dst(c);
}

void expect_write(DstWrite w, DstWriteKind kind, uint32_t value) {
  EXPECT_EQ(w.kind, kind) << dst_write_kind_name(w.kind);
  EXPECT_EQ(w.value, value) << std::hex << w.value << " vs " << value;
}

// ---- MOVA2D ----

TEST(MovConv, Use8bExponentList) {
  // MOVA2D.md: {FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32, INT16}.
  for (uint32_t c = 0; c < 16; ++c) {
    const bool expected = c == 0 || c == 4 || c == 5 || c == 6 || c == 7 || c == 15 || c == 8 || c == 9;
    EXPECT_EQ(mov_uses_8bit_exponent(c, false), expected) << c;
    EXPECT_FALSE(mov_uses_8bit_exponent(c, true)) << c;  // FP16A_FORCE
  }
}

TEST(MovConv, Mova2dHandExamples) {
  // BF16 1.5: Src 0x2007F (mantissa 0x40 in 17:11, exponent 0x7F) -> Dst16 BF16 0x40<<8 | 0x7F.
  expect_write(mova2d_datum(0x2007F, to_dst(DataFormat::BF16)), DstWriteKind::Dst16b, 0x407F);
  // The BFP formats and FP32/INT32 take the same 8-bit-exponent path.
  expect_write(mova2d_datum(0x2007F, to_dst(DataFormat::BFP8)), DstWriteKind::Dst16b, 0x407F);
  // FP16 -0.25: Src 0x4000D -> Dst16 FP16 sign | 13.
  expect_write(mova2d_datum(0x4000D, to_dst(DataFormat::FP16)), DstWriteKind::Dst16b, 0x800D);
  // INT8 -7: Src 0x40710 -> Dst16 INT8 sign | 7<<5 | 16.
  expect_write(mova2d_datum(0x40710, to_dst(DataFormat::INT8)), DstWriteKind::Dst16b, 0x80F0);
  // INT16 0x7F00 | 0x55 (Src: high 7 bits in 17:11, low 8 in 7:0) -> Dst16 INT16 magnitude 0x7F55.
  expect_write(mova2d_datum((0x7Fu << 11) | 0x55, to_dst(DataFormat::INT16)), DstWriteKind::Dst16b, 0x7F55);
  // TF32 1 + 2^-10: Src 0x0017F -> high half 0x007F, mantissa bits 10:8 (=1) at 15:13 -> 0x007F2000,
  // which is FP32 0x3F802000 in the Dst32 layout.
  expect_write(mova2d_datum(0x0017F, to_dst(DataFormat::TF32)), DstWriteKind::Dst32b, 0x007F2000);
  EXPECT_EQ(dst32_to_fp32(0x007F2000), 0x3F802000u);
  // TF32 -(2 - 2^-10) * 2: sign, mantissa 0x3FF, exponent 0x80 -> 0xFF80 high, 7<<13 low.
  expect_write(mova2d_datum(0x7FF80, to_dst(DataFormat::TF32)), DstWriteKind::Dst32b, 0xFF80E000);
  EXPECT_EQ(dst32_to_fp32(0xFF80E000), 0xC07FE000u);
}

TEST(MovConv, Mova2dUseDst32bLo) {
  // Not TF32: only the low 16 bits of Dst32b are written, with the same 16-bit value.
  expect_write(mova2d_datum(0x2007F, to_dst(DataFormat::BF16, true)), DstWriteKind::Dst32bLow16, 0x407F);
  expect_write(mova2d_datum(0x4000D, to_dst(DataFormat::FP16, true)), DstWriteKind::Dst32bLow16, 0x800D);
  EXPECT_EQ(mov_to_dst_caveat(to_dst(DataFormat::BF16, true)), nullptr);
  // TF32 with Lo: the low half is LowMantissa | Val16b = 0x2000 | 0x007F (ISA); ttsim refuses it.
  expect_write(mova2d_datum(0x0017F, to_dst(DataFormat::TF32, true)), DstWriteKind::Dst32b, 0x007F207F);
  EXPECT_NE(mov_to_dst_caveat(to_dst(DataFormat::TF32, true)), nullptr);
  EXPECT_EQ(mov_to_dst_caveat(to_dst(DataFormat::TF32, false)), nullptr);
}

TEST(MovConv, Mova2dFlushDenormals) {
  // Exponent field 7:0 zero -> 0 when flushing, whatever the style.
  expect_write(mova2d_datum(0x6FF00, to_dst(DataFormat::BF16)), DstWriteKind::Dst16b, 0x0000);
  // Without flushing: sign | mantissa 17:11 (0x5F) << 8.
  expect_write(mova2d_datum(0x6FF00, to_dst(DataFormat::BF16, false, false)), DstWriteKind::Dst16b, 0xDF00);
  // INT8 5 with marker 0 is flushed too.
  expect_write(mova2d_datum(0x00500, to_dst(DataFormat::INT8)), DstWriteKind::Dst16b, 0x0000);
  expect_write(mova2d_datum(0x00500, to_dst(DataFormat::INT8, false, false)), DstWriteKind::Dst16b, 0x00A0);
  // INT16 0x7F00 (low 8 bits zero) is cleared unless ALU_ACC_CTRL_Zero_Flag_disabled_src (SrcASrcB.md).
  expect_write(mova2d_datum(0x7Fu << 11, to_dst(DataFormat::INT16)), DstWriteKind::Dst16b, 0x0000);
  expect_write(mova2d_datum(0x7Fu << 11, to_dst(DataFormat::INT16, false, false)), DstWriteKind::Dst16b, 0x7F00);
  // FP16 with exponent bits 4:0 zero but 7:5 set is not flushed, then loses 7:5.
  expect_write(mova2d_datum(0x200E0, to_dst(DataFormat::FP16)), DstWriteKind::Dst16b, 0x4000);
  EXPECT_EQ(flush_src_denormal(0x7FF00, true), 0u);
  EXPECT_EQ(flush_src_denormal(0x7FF00, false), 0x7FF00u);
  EXPECT_EQ(flush_src_denormal(0x00001, true), 0x00001u);
}

TEST(MovConv, Mova2dFp16aForceAndOddCodes) {
  // FP16A_FORCE with a BF16 format: RemoveHighExponent: mantissa 0x200 << 5, exponent 0x7F & 0x1F.
  expect_write(mova2d_datum(0x2007F, to_dst(DataFormat::BF16, false, true, true)), DstWriteKind::Dst16b, 0x401F);
  // FP16A_FORCE with TF32 still takes the TF32 (Dst32b) path, with the 5-bit Val16b:
  // mantissa 1 << 5 | exponent 0x7F & 0x1F = 0x003F, LowMantissa 1 << 13.
  expect_write(mova2d_datum(0x0017F, to_dst(DataFormat::TF32, false, true, true)), DstWriteKind::Dst32b, 0x003F2000);
  // Codes 12/13: not in the 8-bit list and not TF32 -> 5-bit exponent into Dst16b.
  MovToDstConfig c = to_dst(DataFormat::BF16);
  c.srca_format_code = 12;
  expect_write(mova2d_datum(0x2007F, c), DstWriteKind::Dst16b, 0x401F);
}

// ---- MOVB2D ----

TEST(MovConv, Movb2dSrcbRead) {
  EXPECT_EQ(movb2d_srcb_read(0x7FFFF, code(DataFormat::FP16)), 0x7FF1Fu);   // drops 7:5
  EXPECT_EQ(movb2d_srcb_read(0x7FFFF, code(DataFormat::INT8)), 0x7FF1Fu);
  EXPECT_EQ(movb2d_srcb_read(0x7FFFF, code(DataFormat::BF16)), 0x7F8FFu);   // drops 10:8
  EXPECT_EQ(movb2d_srcb_read(0x7FFFF, code(DataFormat::FP32)), 0x7F8FFu);
  EXPECT_EQ(movb2d_srcb_read(0x7FFFF, code(DataFormat::TF32)), 0x7FFFFu);
}

TEST(MovConv, Movb2dHandExamples) {
  const uint32_t bf16 = code(DataFormat::BF16), tf32 = code(DataFormat::TF32), fp16 = code(DataFormat::FP16);
  // Same datum and formats as MOVA2D: same result.
  expect_write(movb2d_datum(0x2007F, to_dst(DataFormat::BF16), bf16), DstWriteKind::Dst16b, 0x407F);
  expect_write(movb2d_datum(0x4000D, to_dst(DataFormat::FP16), fp16), DstWriteKind::Dst16b, 0x800D);
  expect_write(movb2d_datum(0x0017F, to_dst(DataFormat::TF32), tf32), DstWriteKind::Dst32b, 0x007F2000);
  // The SrcA format picks the path (MOVB2D.md); a BF16 SrcB format drops mantissa bits 10:8 first
  // (ttsim), so the TF32 path gets LowMantissa 0: 0x007F0000 where the ISA model gives 0x007F2000.
  expect_write(movb2d_datum(0x0017F, to_dst(DataFormat::TF32), bf16), DstWriteKind::Dst32b, 0x007F0000);
  // SrcA FP16 with SrcB BF16: mantissa 0x201 loses bit 8 first -> 0x200 << 5.
  expect_write(movb2d_datum(0x2010F, to_dst(DataFormat::FP16), bf16), DstWriteKind::Dst16b, 0x400F);
  // Under FP16A_FORCE the ISA model is followed: no SrcB read mask.
  expect_write(movb2d_datum(0x2010F, to_dst(DataFormat::FP16, false, true, true), bf16), DstWriteKind::Dst16b, 0x402F);
  // Lo write.
  expect_write(movb2d_datum(0x2007F, to_dst(DataFormat::BF16, true), bf16), DstWriteKind::Dst32bLow16, 0x407F);
}

TEST(MovConv, Movb2dEqualsMova2dWhenFormatsAgree) {
  for (uint32_t c : {0u, 1u, 2u, 4u, 5u, 6u, 8u, 9u, 10u, 14u, 15u}) {
    for (bool lo : {false, true}) {
      MovToDstConfig cfg = to_dst(DataFormat::FP32, lo);
      cfg.srca_format_code = c;
      for (uint32_t d = 0; d < (1u << 19); ++d) {
        const DstWrite a = mova2d_datum(d, cfg), b = movb2d_datum(d, cfg, c);
        ASSERT_EQ(a.kind, b.kind);
        ASSERT_EQ(a.value, b.value) << "code " << c << " datum 0x" << std::hex << d;
      }
    }
  }
}

// ---- MOVD2A / MOVD2B ----

TEST(MovConv, PlanFromDst) {
  MovFromDstPlan p = from_dst(DataFormat::BF16, false);
  EXPECT_FALSE(p.read_dst32b);
  EXPECT_EQ(p.style, SrcStyle::BF16);
  EXPECT_EQ(p.undefined, nullptr);
  p = from_dst(DataFormat::INT8, true);  // INT8 format -> FP16 style (INT8 data is overlaid on FP16)
  EXPECT_TRUE(p.read_dst32b);
  EXPECT_EQ(p.style, SrcStyle::FP16);
  p = from_dst(DataFormat::TF32, true, false, true);  // FP16A_FORCE: FP16 from Dst16b
  EXPECT_FALSE(p.read_dst32b);
  EXPECT_EQ(p.style, SrcStyle::FP16);
  EXPECT_NE(from_dst(DataFormat::TF32, false).undefined, nullptr);       // Dst16b cannot hold TF32
  EXPECT_NE(from_dst(DataFormat::BF16, false, true).undefined, nullptr); // no low half in Dst16b
  EXPECT_THROW(mov_from_dst_datum(0, from_dst(DataFormat::TF32, false)), Error);
  MovFromDstConfig odd;
  odd.srca_format_code = 13;
  odd.use_dst32b = true;
  EXPECT_EQ(plan_mov_from_dst(odd).style, SrcStyle::TF32);
}

TEST(MovConv, FromDst16HandExamples) {
  // ShuffleBF16: Dst16 0x407F (BF16 1.5) -> Src mantissa 0x40 in 17:11, exponent 0x7F.
  EXPECT_EQ(mov_from_dst_datum(0x407F, from_dst(DataFormat::BF16, false)), 0x2007Fu);
  // ShuffleFP16: Dst16 0x800D (FP16 -0.25) -> Src 0x4000D; INT8 -7 likewise.
  EXPECT_EQ(mov_from_dst_datum(0x800D, from_dst(DataFormat::FP16, false)), 0x4000Du);
  EXPECT_EQ(mov_from_dst_datum(0x80F0, from_dst(DataFormat::INT8, false)), 0x40710u);
  EXPECT_EQ(dst16_bf16_to_src(0xFFFF), 0x7F8FFu);
  EXPECT_EQ(dst16_fp16_to_src(0xFFFF), 0x7FF1Fu);
}

// Dst32 FP32 layout placed by hand (Bits32.lua Dst32_FP32).
uint32_t hand_dst32(uint32_t ieee) {
  return (ieee & 0x80000000u) | (((ieee >> 16) & 0x7F) << 24) | (((ieee >> 23) & 0xFF) << 16) | (ieee & 0xFFFF);
}

TEST(MovConv, FromDst32HandExamples) {
  // FP32 0x3FC02080 (mantissa 0x402080): TF32 keeps mantissa 0x402080 >> 13 = 0x201, BF16 keeps 0x40.
  const uint32_t dst = hand_dst32(0x3FC02080);
  EXPECT_EQ(dst, 0x407F2080u);
  EXPECT_EQ(mov_from_dst_datum(dst, from_dst(DataFormat::TF32, true)), 0x2017Fu);
  EXPECT_EQ(mov_from_dst_datum(dst, from_dst(DataFormat::BF16, true)), 0x2007Fu);
  // FP16 style reads the high half as a Dst16 FP16 value: 0x407F -> sign 0, mantissa 0x203, exponent 0x1F.
  EXPECT_EQ(mov_from_dst_datum(dst, from_dst(DataFormat::FP16, true)), 0x2031Fu);
  // FP32 0x3F830000: mantissa bits 22:16 = 0x03. MOVD2A.md's literal mask (0x3fc000) would lose
  // these; the TF32 result keeps them: mantissa 0x018.
  EXPECT_EQ(mov_from_dst_datum(hand_dst32(0x3F830000), from_dst(DataFormat::TF32, true)), 0x0187Fu);
  // UseDst32bLo: the low half stands in for the high half.
  EXPECT_EQ(mov_from_dst_datum(0x1234407F, from_dst(DataFormat::BF16, true, true)), 0x2007Fu);
  EXPECT_EQ(mov_from_dst_datum(0x1234800D, from_dst(DataFormat::FP16, true, true)), 0x4000Du);
  // TF32 + Lo: the 13 low bits as they are.
  EXPECT_EQ(mov_from_dst_datum(0x1234FFFF, from_dst(DataFormat::TF32, true, true)), 0x01FFFu);
}

TEST(MovConv, FromDst32MatchesFp32Truncation) {
  uint32_t x = 7;
  for (int i = 0; i < 300000; ++i) {
    x = x * 1664525u + 1013904223u;
    const uint32_t sign = x >> 31, exponent = (x >> 23) & 0xFF, mantissa = x & 0x7FFFFF;
    // TF32 = the top 10 mantissa bits, BF16 = the top 7 (truncation, no rounding).
    const uint32_t tf32 = (sign << 18) | ((mantissa >> 13) << 8) | exponent;
    const uint32_t bf16 = (sign << 18) | ((mantissa >> 16) << 11) | exponent;
    ASSERT_EQ(dst32_to_src_tf32(hand_dst32(x)), tf32) << std::hex << x;
    ASSERT_EQ(mov_from_dst_datum(hand_dst32(x), from_dst(DataFormat::TF32, true)), tf32) << std::hex << x;
    ASSERT_EQ(mov_from_dst_datum(hand_dst32(x), from_dst(DataFormat::BF16, true)), bf16) << std::hex << x;
  }
}

// ---- Round trips the ISA calls lossless ----

TEST(MovConv, SrcToDstToSrcRoundTrips) {
  for (uint32_t d = 0; d < (1u << 19); ++d) {
    const bool exp8_zero = (d & 0xFF) == 0;  // flushed by MOVA2D
    // BF16 (canonical: bits 10:8 zero) through Dst16b.
    if (!(d & 0x700) && !exp8_zero) {
      const DstWrite w = mova2d_datum(d, to_dst(DataFormat::BF16));
      ASSERT_EQ(mov_from_dst_datum(w.value, from_dst(DataFormat::BF16, false)), d) << std::hex << d;
    }
    // FP16 and INT8 (canonical: bits 7:5 zero) through Dst16b.
    if (!(d & 0xE0) && !exp8_zero) {
      const DstWrite w = mova2d_datum(d, to_dst(DataFormat::FP16));
      ASSERT_EQ(mov_from_dst_datum(w.value, from_dst(DataFormat::FP16, false)), d) << std::hex << d;
      const DstWrite i = mova2d_datum(d, to_dst(DataFormat::INT8));
      ASSERT_EQ(mov_from_dst_datum(i.value, from_dst(DataFormat::INT8, false)), d) << std::hex << d;
    }
    // TF32 through Dst32b, every non-flushed pattern.
    if (!exp8_zero) {
      const DstWrite w = mova2d_datum(d, to_dst(DataFormat::TF32));
      ASSERT_EQ(w.kind, DstWriteKind::Dst32b);
      ASSERT_EQ(mov_from_dst_datum(w.value, from_dst(DataFormat::TF32, true)), d) << std::hex << d;
    }
  }
}

TEST(MovConv, DstToSrcToDstRoundTrips) {
  for (uint32_t v = 0; v < 0x10000; ++v) {
    const auto d16 = static_cast<uint16_t>(v);
    if (v & 0xFF) {  // BF16 exponent non-zero
      const uint32_t s = mov_from_dst_datum(d16, from_dst(DataFormat::BF16, false));
      ASSERT_EQ(mova2d_datum(s, to_dst(DataFormat::BF16)).value, v) << std::hex << v;
    }
    if (v & 0x1F) {  // FP16 exponent non-zero
      const uint32_t s = mov_from_dst_datum(d16, from_dst(DataFormat::FP16, false));
      ASSERT_EQ(mova2d_datum(s, to_dst(DataFormat::FP16)).value, v) << std::hex << v;
    }
  }
}

TEST(MovConv, PackTwo16BitValuesInDst32) {
  // MOVA2D.md: first a TF32-format move for the high half, then a non-TF32 move with UseDst32bLo.
  const uint32_t high_datum = 0x2007F;  // BF16 1.5
  const uint32_t low_datum = 0x4000D;   // FP16 -0.25
  const DstWrite first = mova2d_datum(high_datum, to_dst(DataFormat::TF32));
  ASSERT_EQ(first.kind, DstWriteKind::Dst32b);
  const DstWrite second = mova2d_datum(low_datum, to_dst(DataFormat::FP16, true));
  ASSERT_EQ(second.kind, DstWriteKind::Dst32bLow16);
  const uint32_t dst32 = (first.value & 0xFFFF0000u) | second.value;
  EXPECT_EQ(dst32, 0x407F800Du);
  // MOVD2B recovers each half: the high one without Lo, the low one with Lo.
  EXPECT_EQ(mov_from_dst_datum(dst32, from_dst(DataFormat::BF16, true)), high_datum);
  EXPECT_EQ(mov_from_dst_datum(dst32, from_dst(DataFormat::FP16, true, true)), low_datum);
}

// ---- MOVB2A ----

TEST(MovConv, Movb2a) {
  EXPECT_EQ(movb2a_datum(0x2007F, true), 0x2007Fu);
  EXPECT_EQ(movb2a_datum(0x2057F, true), 0x2057Fu);  // no format conversion at all
  EXPECT_EQ(movb2a_datum(0x7FF00, true), 0u);        // exponent field zero: flushed
  EXPECT_EQ(movb2a_datum(0x7FF00, false), 0x7FF00u);
}

}  // namespace
}  // namespace tmu::tensix

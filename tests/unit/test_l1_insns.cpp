// UNPACR and PACR on the model: decode, the address generators, and the bytes they move, with every
// expected byte worked out by hand from the format rules of docs/l1-formats.md (the packer's
// ties-away rounding, the BFP block assembly) and the address rules of UNPACR_Regular.md and
// Packers/OutputAddressGenerator.md.
#include <gtest/gtest.h>

#include <vector>

#include "exec_harness.h"
#include "tmu/error.h"
#include "tmu/tensix/formats.h"

namespace tmu::tensix {
namespace {

std::vector<uint8_t> l1_bytes(const TensixState& s, uint32_t addr, uint32_t n) {
  if (s.L1.empty()) return std::vector<uint8_t>(n, 0);
  return {s.L1.begin() + addr, s.L1.begin() + addr + n};
}

void put_l1(TensixState& s, uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (s.L1.empty()) s.L1.assign(l1_size(s.arch), 0);
  std::copy(bytes.begin(), bytes.end(), s.L1.begin() + addr);
}

std::string error_of(TensixState& s, const std::string& text) {
  try {
    execute(s, assemble(text, s.arch), 0);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput) << e.what();
    return e.what();
  }
  ADD_FAILURE() << text << " was not refused";
  return {};
}

// tt-llk's unpack_srca, TT_OP_UNPACR(SrcA, 0b1, 0, 0, 0, 1, 1, RAREFYB_DISABLE, 0, 0, 0, 0, 1): Z increment
// 1 at bit 15, OvrdThreadId (MultiContextMode) bit 7, SetDatValid (FlipSrc) bit 6, Last bit 0:
// 0x42 << 24 | 0x8000 | 0x80 | 0x40 | 0x1 = 0x420080c1. Last is accepted on both architectures.
TEST(L1Decode, TtLlkUnpackWordsWithLastDecode) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    const auto d = decode(0x420080c1u, arch);
    EXPECT_EQ(d[Field::Last], 1u);
    EXPECT_EQ(d[Field::Ch0ZInc], 1u);
    EXPECT_EQ(d[Field::MultiContextMode], 1u);
    EXPECT_EQ(d[Field::FlipSrc], 1u);
    EXPECT_EQ(d[Field::WhichUnpacker], 0u);
    EXPECT_EQ(d[Field::Ch0YInc] + d[Field::Ch1ZInc] + d[Field::Ch1YInc] + d[Field::ContextNumber], 0u);
  }
}

TEST(L1State, IsEmptyUntilWrittenAndSizedPerArchitecture) {
  EXPECT_TRUE(TensixState{}.L1.empty());
  EXPECT_EQ(l1_size(Arch::Wormhole), 1464u * 1024u);
  EXPECT_EQ(l1_size(Arch::Blackhole), 1536u * 1024u);
}

TEST(L1Decode, TheFlushCacheAndContextCounterFormsAreDecodeErrors) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    EXPECT_NO_THROW(decode(0x42000000u, arch));
    EXPECT_THROW(decode(0x42000002u, arch), Error);  // bit 1: UNPACR_FlushCache
    EXPECT_THROW(decode(0x42002000u, arch), Error);  // bit 13: UNPACR_IncrementContextCounter
  }
  EXPECT_THROW(decode(0x41800000u, Arch::Blackhole), Error);  // PACR bit 23 is 0
  EXPECT_EQ(decode(0x41000f01u, Arch::Blackhole)[Field::ReadIntfSel], 0xFu);
  EXPECT_EQ(decode(0x41000101u, Arch::Wormhole)[Field::PackerMask], 1u);
}

// Packer 0 from Dst32b FP32 to BF16 (mode 0x155) on Blackhole, one read interface (16 datums).
void fp32_to_bf16_config(TensixState& s) {
  ConfigRegs& c = s.Config[0];
  c.ALU_FORMAT_SPEC_REG2_Dstacc = 5;
  c.Packer.THCON_SEC0_REG1_In_data_format = 5;
  c.Packer.THCON_SEC0_REG1_Out_data_format = 5;
  c.Packer.PCK_DEST_RD_CTRL_Read_32b_data = true;
  c.Packer.THCON_SEC0_REG1_L1_Dest_addr = 0x100;  // output from (0x100 + 1) * 16 = 0x1010
  s.ADCs[0].Packers.Channel[1].X = 15;
}

TEST(Pacr, Fp32DstRowToBf16L1RoundsTiesAwayAndFlushes) {
  TensixState s = test::fresh(Arch::Blackhole);
  fp32_to_bf16_config(s);
  const uint32_t row[16] = {0x3f800000, 0x3f808000, 0x3f807fff, 0xbf818000, 0x7fc00001, 0x00000001, 0x7f7fffff, 0x80000000,
                            0x40000000, 0x40000000, 0x40000000, 0x40000000, 0x40000000, 0x40000000, 0x40000000, 0x40000000};
  for (unsigned c = 0; c < 16; ++c) s.Dst.write32(0, c, dst32_from_fp32(row[c]));
  test::run(s, "PACR ReadIntfSel=1 Last=1");
  // 1.0 -> 0x3f80; 1 + 2^-8 is a tie, away -> 0x3f81; just below the tie -> 0x3f80;
  // -(1 + 2^-7 + 2^-8) -> 0xbf82; NaN -> +inf 0x7f80; a denormal -> +0; the largest finite rounds up
  // to inf 0x7f80; -0 -> +0; 2.0 -> 0x4000. Little-endian bytes.
  const std::vector<uint8_t> expected = {0x80, 0x3f, 0x81, 0x3f, 0x80, 0x3f, 0x82, 0xbf, 0x80, 0x7f, 0x00, 0x00,
                                         0x80, 0x7f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x40, 0x00, 0x40, 0x00, 0x40,
                                         0x00, 0x40, 0x00, 0x40, 0x00, 0x40, 0x00, 0x40};
  EXPECT_EQ(l1_bytes(s, 0x1010, 32), expected);
  EXPECT_EQ(l1_bytes(s, 0x1000, 16), std::vector<uint8_t>(16, 0));
  EXPECT_TRUE(s.Packer.NeedsNewAddress);
  EXPECT_EQ(s.Packer.DataByteAddress, 0x1030u);
}

// Round_10b_mant with In_data_format FP16 and FP8 out (Blackhole, ttsim's mode 0x1A): the Dst16b
// datums are read as BF16, so the same Dst bits pack differently with and without the bit.
TEST(Pacr, Round10bMantReadsDst16AsBf16IntoFp8) {
  TensixState s = test::fresh(Arch::Blackhole);
  ConfigRegs& c = s.Config[0];
  c.ALU_FORMAT_SPEC_REG2_Dstacc = 1;                  // FP16
  c.Packer.THCON_SEC0_REG1_In_data_format = 1;
  c.Packer.THCON_SEC0_REG1_Out_data_format = 10;      // FP8
  c.Packer.THCON_SEC0_REG1_Pac_LF8_4b_exp = true;     // E4M3
  c.Packer.PCK_DEST_RD_CTRL_Round_10b_mant = true;
  c.Packer.THCON_SEC0_REG1_L1_Dest_addr = 0x100;
  s.ADCs[0].Packers.Channel[1].X = 15;
  // BF16 1.0, 3.0, -1.0, 1.9921875, 2^9, a tiny negative, NaN, then 0.5 (E4M3 0x30).
  const uint16_t bf16[8] = {0x3F80, 0x4040, 0xBF80, 0x3FFF, 0x4400, 0x8001, 0x7FC0, 0x3F00};
  for (unsigned col = 0; col < 16; ++col) s.Dst.write16(0, col, dst16_from_bf16(bf16[col % 8]));
  test::run(s, "PACR ReadIntfSel=1 Last=1");
  const std::vector<uint8_t> row = {0x38, 0x44, 0xB8, 0x3F, 0x7F, 0x80, 0x7F, 0x30};
  std::vector<uint8_t> expected(row);
  expected.insert(expected.end(), row.begin(), row.end());
  EXPECT_EQ(l1_bytes(s, 0x1010, 16), expected);

  // Without the bit the Dst16b bits are read as FP16: FP16 1.0 packs to 0x38 as well.
  TensixState t = test::fresh(Arch::Blackhole);
  t.Config[0] = c;
  t.Config[0].Packer.PCK_DEST_RD_CTRL_Round_10b_mant = false;
  t.ADCs[0].Packers.Channel[1].X = 15;
  for (unsigned col = 0; col < 16; ++col) t.Dst.write16(0, col, dst16_from_fp16(0x3C00));  // FP16 1.0
  test::run(t, "PACR ReadIntfSel=1 Last=1");
  EXPECT_EQ(l1_bytes(t, 0x1010, 1), std::vector<uint8_t>{0x38});
  // The bit with any other output is refused by name.
  t.Config[0].Packer.PCK_DEST_RD_CTRL_Round_10b_mant = true;
  t.Config[0].Packer.THCON_SEC0_REG1_Out_data_format = 1;
  EXPECT_NE(error_of(t, "PACR ReadIntfSel=1 Last=1").find("Round_10b_mant"), std::string::npos);
}

TEST(Pacr, WithoutLastTheNextPacrAppends) {
  TensixState s = test::fresh(Arch::Blackhole);
  fp32_to_bf16_config(s);
  for (unsigned c = 0; c < 16; ++c) {
    s.Dst.write32(0, c, dst32_from_fp32(0x3f800000));  // 1.0
    s.Dst.write32(5, c, dst32_from_fp32(0xc0000000));  // -2.0
  }
  test::run(s, "PACR ReadIntfSel=1");  // Dst row 0 to 0x1010..0x102f
  EXPECT_FALSE(s.Packer.NeedsNewAddress);
  s.Config[0].Packer.THCON_SEC0_REG1_L1_Dest_addr = 0x300;      // not read: the stream continues
  s.Config[0].Packer.DEST_TARGET_REG_CFG_PACK_SEC0_Offset = 4;  // start at Dst row 4
  test::run(s, "PACR ReadIntfSel=2 Last=1");                    // read interface 1: row 4 | 1 = 5
  EXPECT_EQ(l1_bytes(s, 0x1010, 2), (std::vector<uint8_t>{0x80, 0x3f}));
  EXPECT_EQ(l1_bytes(s, 0x1030, 2), (std::vector<uint8_t>{0x00, 0xc0}));
  EXPECT_EQ(l1_bytes(s, 0x3010, 2), (std::vector<uint8_t>{0x00, 0x00}));
}

// A BFP8 block from Dst16b BF16 (mode 0x56): the shared exponent is the largest, each 8-bit
// significand is shifted by its distance from it and rounded (ties away) to 7 magnitude bits.
TEST(Pacr, Bf16RowToBfp8BlockThenUnpacrBackIntoSrcA) {
  TensixState s = test::fresh(Arch::Blackhole);
  ConfigRegs& c = s.Config[0];
  c.ALU_FORMAT_SPEC_REG2_Dstacc = 5;
  c.Packer.THCON_SEC0_REG1_In_data_format = 5;
  c.Packer.THCON_SEC0_REG1_Out_data_format = 6;      // BFP8
  c.Packer.THCON_SEC0_REG1_L1_Dest_addr = 0x1ff;     // exponents from 0x2000
  c.Packer.THCON_SEC0_REG1_Exp_section_size = 1;     // datums from 0x2010
  s.ADCs[0].Packers.Channel[1].X = 15;
  const uint16_t bf16[16] = {0x3f80, 0x3f00, 0xbf40, 0x3e80, 0x3f81};  // 1, 0.5, -0.75, 0.25, 1 + 2^-7
  for (unsigned col = 0; col < 16; ++col) s.Dst.write16(0, col, dst16_from_bf16(bf16[col]));
  test::run(s, "PACR ReadIntfSel=1 Last=1");
  // Exponent 127 (from 1.0). 1.0: 0x80 / 2 = 0x40; 0.5: 0x80 / 4 = 0x20; -0.75: sign | 0xc0 / 4 = 0xb0;
  // 0.25: 0x80 / 8 = 0x10; 1 + 2^-7: 0x81 / 2 = 0x40.8, a tie, away = 0x41.
  std::vector<uint8_t> exps(16, 0);
  exps[0] = 0x7f;
  EXPECT_EQ(l1_bytes(s, 0x2000, 16), exps);  // the exponent byte, then zero padding
  std::vector<uint8_t> datums(16, 0);
  datums[0] = 0x40, datums[1] = 0x20, datums[2] = 0xb0, datums[3] = 0x10, datums[4] = 0x41;
  EXPECT_EQ(l1_bytes(s, 0x2010, 16), datums);

  // Unpacker 0 reads the same layout: exponents at (Base + 1) * 16, a 16-byte exponent section for
  // one block, the datums after it; output datum 64 is SrcA row 0 (the first four rows are skipped).
  UnpackerConfig& u = c.THCON_SEC[0];
  u.REG0_TileDescriptor_InDataFormat = 6;
  u.REG2_Out_data_format = 6;
  u.REG0_TileDescriptor_IsUncompressed = true;
  u.REG0_TileDescriptor_XDim = 16;
  u.REG0_TileDescriptor_YDim = 1;
  u.REG3_Base_address = 0x1ff;
  u.ADDR_BASE_REG_1_Base = 64;
  s.ADCs[0].Unpacker[0].Channel[1].X = 15;
  test::run(s, "UNPACR WhichUnpacker=0 FlipSrc=1");
  // Src BF16 layout: sign 18, mantissa 17:11, exponent 7:0. 0x41 with exponent 127 is 65/64 =
  // 1 + 2^-6: mantissa 0x02.
  const uint32_t expected[16] = {0x0007f, 0x0007e, 0x6007e, 0x0007d, 0x0107f};
  for (unsigned col = 0; col < 16; ++col) EXPECT_EQ(s.SrcA[0].Rows[0][col], expected[col]) << col;
  EXPECT_EQ(s.SrcA[0].AllowedClient, SrcClient::MatrixUnit);
  EXPECT_EQ(s.Unpackers[0].SrcBank, 1u);
  EXPECT_EQ(s.SrcA[0].Format, DataFormat::BFP8);
}

TEST(Pacr, L1AccumulationAddsToWhatL1Holds) {
  TensixState s = test::fresh(Arch::Wormhole);
  ConfigRegs& c = s.Config[0];
  c.Packer.PCK_DEST_RD_CTRL_Read_32b_data = true;  // FP32 -> FP32 (mode 0x100)
  c.Packer.THCON_SEC0_REG1_Pack_L1_Acc = true;
  c.Packer.THCON_SEC0_REG1_L1_Dest_addr = 0x10;    // output from 0x110
  s.ADCs[0].Packers.Channel[1].X = 3;              // four datums
  put_l1(s, 0x110, {0x00, 0x00, 0x80, 0x3f});      // 1.0
  for (unsigned col = 0; col < 4; ++col) s.Dst.write32(0, col, dst32_from_fp32(0x40000000));  // 2.0
  test::run(s, "PACR PackerMask=1 Last=1");
  // 1 + 2 = 3 = 0x40400000; the other three: 0 + 2 = 2.
  EXPECT_EQ(l1_bytes(s, 0x110, 16), (std::vector<uint8_t>{0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x00, 0x40, 0x00,
                                                          0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40}));
}

TEST(Unpacr, Fp32IntoSrcAAsTf32DropsTheLow13Bits) {
  TensixState s = test::fresh(Arch::Wormhole);
  UnpackerConfig& u = s.Config[0].THCON_SEC[0];
  u.REG0_TileDescriptor_InDataFormat = 0;  // FP32
  u.REG2_Out_data_format = 4;              // TF32
  u.REG0_TileDescriptor_IsUncompressed = true;
  u.REG0_TileDescriptor_XDim = 16;
  u.REG0_TileDescriptor_YDim = 1;
  u.ADDR_BASE_REG_1_Base = 256;  // bytes: datum 64, SrcA row 0
  s.ADCs[0].Unpacker[0].Channel[1].X = 1;
  put_l1(s, 0x10, {0xff, 0x1f, 0x80, 0x3f, 0x00, 0x20, 0x80, 0x3f});  // 0x3f801fff, 0x3f802000
  s.Unpackers[0].SrcRow[0] = 8;
  test::run(s, "UNPACR Ch0YInc=1");
  // Src TF32 layout: sign 18, mantissa 17:8, exponent 7:0.
  EXPECT_EQ(s.SrcA[0].Rows[8][0], 0x0007fu);
  EXPECT_EQ(s.SrcA[0].Rows[8][1], 0x0017fu);
  EXPECT_EQ(s.ADCs[0].Unpacker[0].Channel[0].Y, 1u);
  EXPECT_EQ(s.SrcA[0].AllowedClient, SrcClient::Unpackers);
}

TEST(Unpacr, StallsWhileTheMatrixUnitHoldsTheBank) {
  TensixState s = test::fresh(Arch::Blackhole);
  s.SrcB[0].AllowedClient = SrcClient::MatrixUnit;
  const ExecResult r = execute(s, assemble("UNPACR WhichUnpacker=1", s.arch), 0);
  EXPECT_EQ(r.status, ExecResult::Status::Stalled);
}

TEST(L1Refusals, NameTheFieldAndTheReason) {
  TensixState s = test::fresh(Arch::Blackhole);
  EXPECT_NE(error_of(s, "UNPACR").find("THCON_SEC0_REG0_TileDescriptor_IsUncompressed"), std::string::npos);
  s.Config[0].THCON_SEC[0].REG0_TileDescriptor_IsUncompressed = true;
  EXPECT_NE(error_of(s, "UNPACR RowSearch=1").find("RowSearch"), std::string::npos);
  s.Config[0].THCON_SEC[0].REG2_Haloize_mode = true;
  EXPECT_NE(error_of(s, "UNPACR").find("THCON_SEC0_REG2_Haloize_mode"), std::string::npos);

  TensixState w = test::fresh(Arch::Wormhole);
  EXPECT_NE(error_of(w, "PACR PackerMask=2").find("PackerMask"), std::string::npos);
  w.Config[0].Packer.ALU_ROUNDING_MODE_Packer_srnd_en = true;
  EXPECT_NE(error_of(w, "PACR").find("stochastic"), std::string::npos);

  TensixState b = test::fresh(Arch::Blackhole);
  fp32_to_bf16_config(b);
  b.Config[0].Packer.THCON_SEC0_REG1_L1_Dest_addr = 0x17fff;  // (0x17fff + 1) * 16 = 1.5 MiB: past L1's end
  EXPECT_NE(error_of(b, "PACR ReadIntfSel=1 Last=1").find("leave L1"), std::string::npos);
  EXPECT_TRUE(b.L1.empty());
}

}  // namespace
}  // namespace tmu::tensix

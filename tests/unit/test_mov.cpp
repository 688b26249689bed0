// MOVA2D, MOVB2D, MOVD2A, MOVD2B, MOVB2A as instructions: row ranges (RWCs, offsets, alignment masks),
// the MOVB2D broadcasts, 16/32-bit Dst, formats per architecture, Wait Gate, the SHIFTXA row latch,
// ApplyAddrMod and the WriteSet. Expected values are worked out by hand from the ISA pages (and ttsim
// for MOVB2A and the Blackhole format tag) with the test-side encoders of test_fpu_support.h.
// (Over 600 lines: one file per instruction family, as the handlers are; the moves share fixtures.)
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "exec_harness.h"
#include "test_fpu_support.h"
#include "tmu/error.h"

namespace tmu::tensix {
namespace {

using namespace tmu_test;
using test::fresh;
using test::run;

constexpr uint32_t code(DataFormat f) { return static_cast<uint32_t>(f); }

// Every source the MOV instructions may take "SrcAFmt"/SrcB's format from, set to one format.
void set_format(TensixState& s, DataFormat f) {
  for (auto& c : s.Config) c.ALU_FORMAT_SPEC_REG0_SrcA = c.ALU_FORMAT_SPEC_REG1_SrcB = code(f);
  for (auto& b : s.SrcA) b.Format = f;
  for (auto& b : s.SrcB) b.Format = f;
}

TensixState ready(Arch arch, DataFormat f = DataFormat::BF16) {
  TensixState s = fresh(arch);
  test::give_banks_to_matrix_unit(s);
  set_format(s, f);
  return s;
}

ExecResult exec(TensixState& s, const std::string& text) { return execute(s, assemble(text, s.arch), 0); }

// A distinct BF16 value per (row, col), never with a zero exponent; and the same value in Dst16.
uint32_t bf16_at(unsigned row, unsigned col) { return bf16_datum(col & 1, 64 + row, (row * 7 + col) & 0x7F); }
uint16_t dst16_bf16_at(unsigned row, unsigned col) { return dst16_phys_bf16(col & 1, 64 + row, (row * 7 + col) & 0x7F); }

void fill(SrcBank& bank, uint32_t (*datum)(unsigned, unsigned)) {
  for (unsigned r = 0; r < kSrcRows; ++r)
    for (unsigned c = 0; c < kSrcCols; ++c) bank.Rows[r][c] = datum(r, c);
}

std::vector<uint16_t> rows_from(uint16_t first, unsigned n) {
  std::vector<uint16_t> v;
  for (unsigned i = 0; i < n; ++i) v.push_back(static_cast<uint16_t>(first + i));
  return v;
}
std::vector<uint16_t> sorted(std::vector<uint16_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}
std::vector<std::pair<int, int>> src_rows(const std::vector<WriteSet::SrcRow>& v) {
  std::vector<std::pair<int, int>> out;
  for (const auto& r : v) out.emplace_back(r.bank, r.row);
  std::sort(out.begin(), out.end());
  return out;
}
std::vector<std::pair<int, int>> bank_rows(int bank, int first, int n) {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < n; ++i) out.emplace_back(bank, first + i);
  return out;
}

class Mov : public ::testing::TestWithParam<Arch> {};
INSTANTIATE_TEST_SUITE_P(Arch, Mov, ::testing::Values(Arch::Wormhole, Arch::Blackhole),
                         [](const auto& info) { return std::string(arch_name(info.param)); });

// ======================= MOVA2D =======================

TEST_P(Mov, Mova2dEightRowsAlignsBothRowsAndAppliesAddrMod) {
  TensixState s = ready(GetParam());
  fill(s.SrcA[0], bf16_at);
  s.RWCs[0].SrcA = 13;
  s.RWCs[0].Dst = 4;
  s.ThreadConfig[0].DEST_TARGET_REG_CFG_MATH_Offset = 32;
  s.Config[0].DEST_REGW_BASE_Base = 512;
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[1].SrcAIncr = 8;
  s.ThreadConfig[0].ADDR_MOD_DST_SEC[1].DestIncr = 8;
  const ExecResult r = run(s, "MOVA2D DstRow=5 Move8Rows=1 AddrMod=1 SrcRow=6");
  // SrcA (6 + 13) & 0x38 = 16; Dst (5 + 32 + 4 + 512) & 0x3f8 = 552.
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned c = 0; c < 16; ++c) ASSERT_EQ(s.Dst.read16(552 + i, c, 0xDEAD), dst16_bf16_at(16 + i, c)) << i << "," << c;
  EXPECT_FALSE(s.Dst.RowValid[551]);
  EXPECT_FALSE(s.Dst.RowValid[560]);
  EXPECT_EQ(sorted(r.writes.dst_rows), rows_from(552, 8));
  EXPECT_TRUE(r.writes.srca_rows.empty());
  EXPECT_TRUE(r.writes.srcb_rows.empty());
  EXPECT_EQ(s.RWCs[0].SrcA, 21);
  EXPECT_EQ(s.RWCs[0].Dst, 12);
  EXPECT_TRUE(r.writes.rwcs);
  EXPECT_EQ(s.MatrixUnit.LastSrcARow, 16);
  EXPECT_TRUE(r.writes.matrix_unit);
}

TEST_P(Mov, Mova2dOneRowIsUnalignedAndRowsWrap) {
  TensixState s = ready(GetParam());
  fill(s.SrcA[0], bf16_at);
  s.RWCs[0].SrcA = 10;
  s.RWCs[0].Dst = 8;
  // One row: SrcA (60 + 10) & 0x3f = 6, Dst (1020 + 8) & 0x3ff = 4.
  ExecResult r = run(s, "MOVA2D DstRow=1020 SrcRow=60");
  EXPECT_EQ(r.writes.dst_rows, rows_from(4, 1));
  for (unsigned c = 0; c < 16; ++c) EXPECT_EQ(s.Dst.read16(4, c, 0), dst16_bf16_at(6, c));
  // Eight rows from the same place: SrcA 70 & 0x38 = 0, Dst 1028 & 0x3f8 = 0.
  r = run(s, "MOVA2D DstRow=1020 SrcRow=60 Move8Rows=1");
  EXPECT_EQ(sorted(r.writes.dst_rows), rows_from(0, 8));
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(s.Dst.read16(i, 15, 0), dst16_bf16_at(i, 15));
}

TEST_P(Mov, Mova2dTf32WritesFp32IntoDst32b) {
  TensixState s = ready(GetParam(), DataFormat::TF32);
  auto tf32 = [](unsigned c) { return tf32_datum(c & 1, 120 + c, 0x2AB ^ c); };
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned c = 0; c < 16; ++c) s.SrcA[0].Rows[8 + i][c] = tf32(c) ^ (i << 8);  // varies mantissa bits 2:0
  const ExecResult r = run(s, "MOVA2D DstRow=16 Move8Rows=1 SrcRow=8");
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned c = 0; c < 16; ++c) {
      const uint32_t d = tf32(c) ^ (i << 8);
      const uint32_t ieee = (((d >> 18) & 1) << 31) | ((d & 0xFF) << 23) | (((d >> 8) & 0x3FF) << 13);
      ASSERT_EQ(s.Dst.read32(16 + i, c, 0xDEAD), dst32_phys_from_ieee(ieee)) << i << "," << c;
    }
  // Dst32b rows 16..23: high halves in DstBits rows 32..39, low halves in 40..47 (Adj32).
  EXPECT_EQ(sorted(r.writes.dst_rows), rows_from(32, 16));
}

TEST(Mova2d, PairOfMovesPacksTwo16BitValuesIntoDst32b) {
  // MOVA2D.md: first TF32 to store the high 16 bits, then a 16-bit format with UseDst32bLo.
  TensixState s = ready(Arch::Wormhole, DataFormat::TF32);
  s.SrcA[0].Rows[0][0] = tf32_datum(0, 130, 0x3FF);
  s.SrcA[0].Rows[1][0] = bf16_datum(1, 125, 0x21);
  run(s, "MOVA2D DstRow=3 SrcRow=0");
  EXPECT_EQ(s.Dst.read32(3, 0, 0), (uint32_t{dst16_phys_bf16(0, 130, 0x7F)} << 16) | (7u << 13));
  set_format(s, DataFormat::BF16);
  const ExecResult r = run(s, "MOVA2D DstRow=3 SrcRow=1 UseDst32bLo=1");
  EXPECT_EQ(s.Dst.read32(3, 0, 0), (uint32_t{dst16_phys_bf16(0, 130, 0x7F)} << 16) | dst16_phys_bf16(1, 125, 0x21));
  // Dst32b row 3: high half DstBits row 3, low half row 11.
  EXPECT_EQ(sorted(r.writes.dst_rows), (std::vector<uint16_t>{3, 11}));
}

TEST(Mova2d, UseDst32bLoKeepsTheHighHalfOrZeroOnAnUndefinedRow) {
  TensixState s = ready(Arch::Blackhole);
  fill(s.SrcA[0], bf16_at);
  for (unsigned c = 0; c < 16; ++c) s.Dst.write32(0, c, 0xAAAA5555u);
  s.Dst.write32_bits(1, 0, 0xBBBB0000u);  // stale bits, row undefined
  run(s, "MOVA2D DstRow=0 SrcRow=5 Move8Rows=1 UseDst32bLo=1");
  for (unsigned c = 0; c < 16; ++c) EXPECT_EQ(s.Dst.read32(0, c, 0), 0xAAAA0000u | dst16_bf16_at(0, c));
  EXPECT_EQ(s.Dst.read32(1, 0, 0xDEAD), uint32_t{dst16_bf16_at(1, 0)});
  EXPECT_TRUE(s.Dst.RowValid[DstRegs::hi_row(1)]);
}

TEST(Mova2d, Tf32WithUseDst32bLoFollowsTheIsaModel) {
  // ttsim refuses this (erratum TEN-4245); MOVA2D.md: low half = (mantissa 2:0 << 13) | Val16b.
  TensixState s = ready(Arch::Wormhole, DataFormat::TF32);
  s.SrcA[0].Rows[0][0] = tf32_datum(1, 0x81, 0x155);
  run(s, "MOVA2D DstRow=0 SrcRow=0 UseDst32bLo=1");
  const uint32_t v = dst16_phys_bf16(1, 0x81, 0x155 >> 3);
  EXPECT_EQ(s.Dst.read32(0, 0, 0), (v << 16) | (5u << 13) | v);
}

TEST_P(Mov, Mova2dFiveBitExponentFormatsDropExponentBits7To5) {
  for (DataFormat f : {DataFormat::FP16, DataFormat::FP8, DataFormat::BFP8a, DataFormat::BFP2a, DataFormat::INT8}) {
    TensixState s = ready(GetParam(), f);
    s.SrcA[0].Rows[0][0] = src_datum(0, 0xE3, 0x155);  // exponent field 111_00011
    s.SrcA[0].Rows[0][1] = fp16_datum(1, 17, 0x2AA);
    s.SrcA[0].Rows[0][2] = int8_datum(-7);
    run(s, "MOVA2D DstRow=0 SrcRow=0");
    EXPECT_EQ(s.Dst.read16(0, 0, 0), dst16_phys_fp16(0, 3, 0x155)) << data_format_name(f);
    EXPECT_EQ(s.Dst.read16(0, 1, 0), dst16_phys_fp16(1, 17, 0x2AA)) << data_format_name(f);
    EXPECT_EQ(s.Dst.read16(0, 2, 0), dst16_phys_fp16(1, 16, 7)) << data_format_name(f);
  }
}

TEST_P(Mov, Mova2dFlushesZeroExponentUnlessTheZeroFlagIsDisabled) {
  TensixState s = ready(GetParam());
  s.SrcA[0].Rows[0][0] = bf16_datum(1, 0, 0x55);
  run(s, "MOVA2D DstRow=0 SrcRow=0");
  EXPECT_EQ(s.Dst.read16(0, 0, 0xDEAD), 0);
  s.Config[0].ALU_ACC_CTRL_Zero_Flag_disabled_src = true;
  run(s, "MOVA2D DstRow=0 SrcRow=0");
  EXPECT_EQ(s.Dst.read16(0, 0, 0xDEAD), dst16_phys_bf16(1, 0, 0x55));
}

TEST(Mova2d, BlackholeTakesTheBankTagOverAluFormatSpec) {
  TensixState s = ready(Arch::Blackhole, DataFormat::BF16);
  s.SrcA[0].Format = DataFormat::TF32;
  s.SrcA[0].Rows[0][0] = tf32_datum(0, 127, 0x001);
  s.Config[0].ALU_FORMAT_SPEC_REG_SrcA_override = true;  // ttsim: the tag wins even over the override
  s.Config[0].ALU_FORMAT_SPEC_REG_SrcA_val = code(DataFormat::FP16);
  run(s, "MOVA2D DstRow=0 SrcRow=0");
  EXPECT_EQ(s.Dst.read32(0, 0, 0), (uint32_t{dst16_phys_bf16(0, 127, 0)} << 16) | (1u << 13));
  s.ThreadConfig[0].DISABLE_IMPLIED_SRCA_FMT_Base = true;  // now the override: FP16 (5-bit exponent)
  s.SrcA[0].Rows[0][0] = fp16_datum(0, 15, 0x200);
  run(s, "MOVA2D DstRow=0 SrcRow=0");
  EXPECT_EQ(s.Dst.read16(0, 0, 0), dst16_phys_fp16(0, 15, 0x200));
  s.Config[0].ALU_FORMAT_SPEC_REG_SrcA_override = false;  // REG0: BF16
  s.SrcA[0].Rows[0][0] = bf16_datum(0, 127, 0x40);
  run(s, "MOVA2D DstRow=0 SrcRow=0");
  EXPECT_EQ(s.Dst.read16(0, 0, 0), dst16_phys_bf16(0, 127, 0x40));
}

TEST(Mova2d, WormholeIgnoresTheBankTagAndAppliesTheOverride) {
  TensixState s = ready(Arch::Wormhole, DataFormat::BF16);
  s.SrcA[0].Format = DataFormat::TF32;
  s.SrcA[0].Rows[0][0] = bf16_datum(0, 127, 0x40);
  run(s, "MOVA2D DstRow=0 SrcRow=0");
  EXPECT_EQ(s.Dst.read16(0, 0, 0), dst16_phys_bf16(0, 127, 0x40));
  s.Config[0].ALU_FORMAT_SPEC_REG_SrcA_override = true;
  s.Config[0].ALU_FORMAT_SPEC_REG_SrcA_val = code(DataFormat::FP16);
  s.SrcA[0].Rows[0][0] = fp16_datum(1, 14, 0x001);
  run(s, "MOVA2D DstRow=0 SrcRow=0");
  EXPECT_EQ(s.Dst.read16(0, 0, 0), dst16_phys_fp16(1, 14, 0x001));
}

TEST(Mova2d, RefusesAFormatCodeThatNamesNoFormat) {
  TensixState s = ready(Arch::Wormhole);
  s.Config[0].ALU_FORMAT_SPEC_REG0_SrcA = 12;
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[0].SrcAIncr = 4;
  try {
    exec(s, "MOVA2D DstRow=0 SrcRow=0");
    FAIL() << "expected UndefinedBehaviour";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::UndefinedBehaviour);
  }
  EXPECT_EQ(s.RWCs[0].SrcA, 0);
  EXPECT_FALSE(s.Dst.RowValid[0]);
}

TEST_P(Mov, Mova2dWaitsForSrcAOnly) {
  TensixState s = ready(GetParam());
  s.SrcA[0].AllowedClient = SrcClient::Unpackers;
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[0].SrcAIncr = 4;
  s.MatrixUnit.LastSrcARow = 50;
  ExecResult r = exec(s, "MOVA2D DstRow=0 SrcRow=16 Move8Rows=1");
  EXPECT_EQ(r.status, ExecResult::Status::Stalled);
  EXPECT_NE(r.stall_reason.find("SrcA"), std::string::npos) << r.stall_reason;
  EXPECT_TRUE(r.writes.dst_rows.empty());
  EXPECT_EQ(s.RWCs[0].SrcA, 0);
  EXPECT_EQ(s.MatrixUnit.LastSrcARow, 50);
  EXPECT_FALSE(s.Dst.RowValid[0]);
  s.SrcA[0].AllowedClient = SrcClient::MatrixUnit;
  for (auto& b : s.SrcB) b.AllowedClient = SrcClient::Unpackers;
  run(s, "MOVA2D DstRow=0 SrcRow=16 Move8Rows=1");
  EXPECT_EQ(s.RWCs[0].SrcA, 4);
}

TEST_P(Mov, Mova2dLatchesItsSrcARowForShiftxa) {
  TensixState s = ready(GetParam());
  fill(s.SrcA[0], bf16_at);
  run(s, "MOVA2D DstRow=0 SrcRow=40 Move8Rows=1");
  EXPECT_EQ(s.MatrixUnit.LastSrcARow, 40);
  run(s, "SHIFTXA Direction=3");  // LEFT, input block 40 & 0x30 = 32
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(s.SrcA[0].Rows[i][0], bf16_at(32 + i, 1)) << i;
    EXPECT_EQ(s.SrcA[0].Rows[i][15], 0u) << i;
  }
}

TEST(Mova2d, BlackholeThreeBitAddrModAndDebugBit11) {
  TensixState s = ready(Arch::Blackhole);
  s.ThreadConfig[0].ADDR_MOD_DST_SEC[5].DestIncr = 16;
  run(s, "MOVA2D DstRow=0 SrcRow=0 AddrMod=5");
  EXPECT_EQ(s.RWCs[0].Dst, 16);
  s.DbgFeatureDisableBit11 = true;  // a Dst16b write would leave garbage in the low half
  try {
    exec(s, "MOVA2D DstRow=0 SrcRow=0");
    FAIL() << "expected NonContractualBehaviour";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::NonContractualBehaviour);
  }
}

// ======================= MOVB2D =======================

struct Movb2dCase {
  unsigned mode;                 // movb2d_instr_mod bits: Move4Rows:Broadcast1RowTo8:BroadcastCol0
  unsigned dst_first, rows;      // with DstRow=13, SrcRow=5, RWC.SrcB=2 (source row 7)
  unsigned src_first, src_step;  // src_step 0: one row broadcast
  bool col0;
};
// 1 row: no alignment; 8-row broadcast: Dst & 0x3f8, SrcB row unaligned; 4 rows: Dst & 0x3fc, SrcB & 0x3c.
// Modes 6 and 7 set both row bits; MOVB2D.md tests Broadcast1RowTo8 first.
constexpr Movb2dCase kMovb2dCases[] = {
    {0, 13, 1, 7, 1, false}, {1, 13, 1, 7, 1, true}, {2, 8, 8, 7, 0, false}, {3, 8, 8, 7, 0, true},
    {4, 12, 4, 4, 1, false}, {5, 12, 4, 4, 1, true}, {6, 8, 8, 7, 0, false}, {7, 8, 8, 7, 0, true},
};

TEST_P(Mov, Movb2dEveryModeFromTheSeedWord) {
  for (const Movb2dCase& k : kMovb2dCases) {
    TensixState s = ready(GetParam());
    fill(s.SrcB[1], bf16_at);
    s.MatrixUnit.SrcBBank = 1;
    s.RWCs[0].SrcB = 2;
    // BH puts the mode at bits 13:11, WH at 14:12 (refmodel/engines/tensix/isa/tensix_isa.json).
    const unsigned mode_lo = GetParam() == Arch::Blackhole ? 11 : 12;
    const ExecResult r = execute_word(s, 0x13000000u | (5u << 17) | (k.mode << mode_lo) | 13u, 0);
    ASSERT_EQ(r.status, ExecResult::Status::Retired);
    EXPECT_EQ(sorted(r.writes.dst_rows), rows_from(k.dst_first, k.rows)) << "mode " << k.mode;
    for (unsigned i = 0; i < k.rows; ++i)
      for (unsigned c = 0; c < 16; ++c)
        ASSERT_EQ(s.Dst.read16(k.dst_first + i, c, 0xDEAD), dst16_bf16_at(k.src_first + i * k.src_step, k.col0 ? 0 : c))
            << "mode " << k.mode << " row " << i << " col " << c;
    EXPECT_FALSE(s.Dst.RowValid[k.dst_first + k.rows]) << "mode " << k.mode;
    EXPECT_FALSE(s.Dst.RowValid[k.dst_first - 1]) << "mode " << k.mode;
  }
}

TEST_P(Mov, Movb2dFieldsByNameAppliesAddrModAndWaitsForSrcBOnly) {
  TensixState s = ready(GetParam());
  fill(s.SrcB[0], bf16_at);
  s.SrcB[0].AllowedClient = SrcClient::Unpackers;
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[2].SrcBIncr = 4;
  const std::string text = "MOVB2D DstRow=20 SrcRow=36 Move4Rows=1 AddrMod=2";
  ExecResult r = exec(s, text);
  EXPECT_EQ(r.status, ExecResult::Status::Stalled);
  EXPECT_NE(r.stall_reason.find("SrcB"), std::string::npos) << r.stall_reason;
  EXPECT_EQ(s.RWCs[0].SrcB, 0);
  s.SrcB[0].AllowedClient = SrcClient::MatrixUnit;
  for (auto& b : s.SrcA) b.AllowedClient = SrcClient::Unpackers;
  r = run(s, text);
  EXPECT_EQ(sorted(r.writes.dst_rows), rows_from(20, 4));
  EXPECT_EQ(s.Dst.read16(23, 9, 0), dst16_bf16_at(39, 9));
  EXPECT_EQ(s.RWCs[0].SrcB, 4);
}

TEST(Movb2d, Tf32ToDst32bAndUseDst32bLo) {
  TensixState s = ready(Arch::Wormhole, DataFormat::TF32);
  s.SrcB[0].Rows[0][0] = tf32_datum(1, 126, 0x3F5);
  run(s, "MOVB2D DstRow=4 SrcRow=0 Broadcast1RowTo8=1 BroadcastCol0=1");
  const uint32_t expected = dst32_phys_from_ieee((1u << 31) | (126u << 23) | (0x3F5u << 13));
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned c = 0; c < 16; ++c) ASSERT_EQ(s.Dst.read32(i, c, 0), expected);
  // BF16 into the low half of Dst32b rows 12..15 (high halves DstBits 20..23, low halves 28..31).
  set_format(s, DataFormat::BF16);
  fill(s.SrcB[0], bf16_at);
  for (unsigned i = 12; i < 16; ++i)
    for (unsigned c = 0; c < 16; ++c) s.Dst.write32(i, c, 0x12345678u);
  const ExecResult r = run(s, "MOVB2D DstRow=12 SrcRow=8 Move4Rows=1 UseDst32bLo=1");
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned c = 0; c < 16; ++c) ASSERT_EQ(s.Dst.read32(12 + i, c, 0), 0x12340000u | dst16_bf16_at(8 + i, c));
  std::vector<uint16_t> expected_rows = rows_from(20, 4);
  for (uint16_t row : rows_from(28, 4)) expected_rows.push_back(row);
  EXPECT_EQ(sorted(r.writes.dst_rows), expected_rows);
}

TEST(Movb2d, ConvertsWithSrcAFormatButReadsSrcBInItsOwnFormat) {
  TensixState s = ready(Arch::Wormhole);
  auto move = [&](DataFormat srca, DataFormat srcb, uint32_t datum) {
    s.Config[0].ALU_FORMAT_SPEC_REG0_SrcA = code(srca);
    s.Config[0].ALU_FORMAT_SPEC_REG1_SrcB = code(srcb);
    s.SrcB[0].Rows[0][0] = datum;
    run(s, "MOVB2D DstRow=0 SrcRow=0");
  };
  // SrcA format FP16 decides the 5-bit path even with BF16 SrcB (MOVB2D.md).
  move(DataFormat::FP16, DataFormat::BF16, fp16_datum(0, 9, 0x0F0));
  EXPECT_EQ(s.Dst.read16(0, 0, 0), dst16_phys_fp16(0, 9, 0x0F0));
  // TF32/TF32 keeps mantissa bits 2:0; SrcB read as BF16 loses them (ttsim).
  move(DataFormat::TF32, DataFormat::TF32, tf32_datum(0, 127, 0x007));
  EXPECT_EQ(s.Dst.read32(0, 0, 0), dst32_phys_from_ieee((127u << 23) | (7u << 13)));
  move(DataFormat::TF32, DataFormat::BF16, tf32_datum(0, 127, 0x007));
  EXPECT_EQ(s.Dst.read32(0, 0, 0), dst32_phys_from_ieee(127u << 23));
  // SrcB read as FP16 loses exponent bits 7:5 before the 8-bit path (ttsim; the ISA would keep them).
  move(DataFormat::BF16, DataFormat::FP16, src_datum(0, 0xE3, 0x2A8));
  EXPECT_EQ(s.Dst.read16(0, 0, 0), dst16_phys_bf16(0, 0x03, 0x2A8 >> 3));
}

TEST(Movb2d, BlackholeTakesBothFormatsFromTheSrcBTag) {
  TensixState s = ready(Arch::Blackhole, DataFormat::BF16);
  s.SrcB[0].Format = DataFormat::TF32;  // SrcA's tag stays BF16 and is not consulted
  s.SrcB[0].Rows[0][0] = tf32_datum(0, 127, 0x007);
  run(s, "MOVB2D DstRow=0 SrcRow=0");
  EXPECT_EQ(s.Dst.read32(0, 0, 0), dst32_phys_from_ieee((127u << 23) | (7u << 13)));
  s.ThreadConfig[0].DISABLE_IMPLIED_SRCA_FMT_Base = true;  // SrcAFmt from REG0 (BF16): Dst16b
  run(s, "MOVB2D DstRow=2 SrcRow=0");
  EXPECT_EQ(s.Dst.read16(2, 0, 0), dst16_phys_bf16(0, 127, 0));
}

TEST_P(Mov, Movb2dLatchesTheSrcACounter) {
  // MOVB2D addresses no SrcA row; SHIFTXA.md still lists it. tmu's assumption: the SrcA counter.
  TensixState s = ready(GetParam());
  s.RWCs[0].SrcA = 35;
  const ExecResult r = run(s, "MOVB2D DstRow=0 SrcRow=8");
  EXPECT_EQ(s.MatrixUnit.LastSrcARow, 35);
  EXPECT_TRUE(r.writes.matrix_unit);
}

// ======================= MOVD2A / MOVD2B =======================

struct DstToSrc {
  const char* mnemonic;
  bool to_srca;
};
constexpr DstToSrc kDstToSrc[] = {{"MOVD2A", true}, {"MOVD2B", false}};

SrcBank& target(TensixState& s, const DstToSrc& k) {
  return k.to_srca ? s.SrcA[s.MatrixUnit.SrcABank] : s.SrcB[s.MatrixUnit.SrcBBank];
}
ExecResult run_d2s(TensixState& s, const DstToSrc& k, const std::string& fields) {
  return run(s, std::string(k.mnemonic) + " " + fields);
}

TEST_P(Mov, DstToSrcFourRowsAndOneRowFrom16BitDst) {
  for (const DstToSrc& k : kDstToSrc) {
    TensixState s = ready(GetParam());
    for (unsigned r = 0; r < 32; ++r)
      for (unsigned c = 0; c < 16; ++c) s.Dst.write16(r, c, dst16_bf16_at(r, c));
    s.MatrixUnit.SrcABank = s.MatrixUnit.SrcBBank = 1;
    s.RWCs[0].SrcA = s.RWCs[0].SrcB = 4;
    s.RWCs[0].Dst = 2;
    s.ThreadConfig[0].ADDR_MOD_DST_SEC[3].DestIncr = 4;
    // Dst (19 + 2) & 0x3fc = 20; Src (9 + 4) & 0x3c = 12.
    ExecResult r = run_d2s(s, k, "DstRow=19 SrcRow=9 Move4Rows=1 AddrMod=3");
    for (unsigned i = 0; i < 4; ++i)
      for (unsigned c = 0; c < 16; ++c) ASSERT_EQ(target(s, k).Rows[12 + i][c], bf16_at(20 + i, c)) << k.mnemonic;
    EXPECT_EQ(src_rows(k.to_srca ? r.writes.srca_rows : r.writes.srcb_rows), bank_rows(1, 12, 4)) << k.mnemonic;
    EXPECT_TRUE((k.to_srca ? r.writes.srcb_rows : r.writes.srca_rows).empty());
    EXPECT_TRUE(r.writes.dst_rows.empty());
    EXPECT_EQ(s.RWCs[0].Dst, 6);
    // SHIFTXA latch: MOVD2A its SrcA row; MOVD2B (no SrcA row) the SrcA counter, tmu's assumption.
    EXPECT_EQ(s.MatrixUnit.LastSrcARow, k.to_srca ? 12 : 4) << k.mnemonic;
    // One row: Dst 19 + 6 = 25, Src 9 + 4 = 13, unaligned.
    r = run_d2s(s, k, "DstRow=19 SrcRow=9");
    for (unsigned c = 0; c < 16; ++c) EXPECT_EQ(target(s, k).Rows[13][c], bf16_at(25, c)) << k.mnemonic;
    EXPECT_EQ(src_rows(k.to_srca ? r.writes.srca_rows : r.writes.srcb_rows), bank_rows(1, 13, 1));
  }
}

TEST_P(Mov, DstToSrcFp16AndInt8From16BitDst) {
  for (const DstToSrc& k : kDstToSrc)
    for (DataFormat f : {DataFormat::FP16, DataFormat::INT8, DataFormat::BFP4a}) {
      TensixState s = ready(GetParam(), f);
      s.Dst.write16(0, 0, dst16_phys_fp16(1, 30, 0x3FF));
      s.Dst.write16(0, 1, dst16_phys_fp16(1, 16, 100));  // INT8 -100 is overlaid on FP16
      run_d2s(s, k, "DstRow=0 SrcRow=0");
      EXPECT_EQ(target(s, k).Rows[0][0], fp16_datum(1, 30, 0x3FF)) << k.mnemonic << data_format_name(f);
      EXPECT_EQ(target(s, k).Rows[0][1], int8_datum(-100)) << k.mnemonic << data_format_name(f);
    }
}

TEST_P(Mov, DstToSrcFrom32BitDst) {
  // FP32 0x3FC0FFFF: Dst32b 0x407FFFFF (mantissa high 7 = 0x40, exponent 0x7F, low 16 = 0xFFFF).
  const uint32_t phys = dst32_phys_from_ieee(0x3FC0FFFFu);
  ASSERT_EQ(phys, 0x407FFFFFu);
  struct Case {
    DataFormat f;
    bool lo;
    uint32_t expected;
  } cases[] = {
      {DataFormat::BF16, false, bf16_datum(0, 127, 0x40)},    // truncated, not rounded
      {DataFormat::FP32, false, bf16_datum(0, 127, 0x40)},
      {DataFormat::TF32, false, tf32_datum(0, 127, 0x207)},   // mantissa 0x40FFFF >> 13
      {DataFormat::FP16, false, fp16_datum(0, 0x1F, 0x203)},  // high half 0x407F read as Dst16 FP16
      {DataFormat::BF16, true, bf16_datum(1, 0xFF, 0x7F)},    // low half 0xFFFF read as Dst16 BF16
      {DataFormat::TF32, true, 0x1FFFu},                      // the 13 bits FP32->TF32 drops
  };
  for (const DstToSrc& k : kDstToSrc)
    for (const Case& c : cases)
      for (bool int8_math : {false, true}) {
        TensixState s = ready(GetParam(), c.f);
        s.Config[0].ALU_ACC_CTRL_Fp32_enabled = !int8_math;  // either selects the 32-bit view
        s.Config[0].ALU_ACC_CTRL_INT8_math_enabled = int8_math;
        s.Dst.write32(5, 3, phys);
        run_d2s(s, k, std::string("DstRow=5 SrcRow=2 UseDst32bLo=") + (c.lo ? "1" : "0"));
        EXPECT_EQ(target(s, k).Rows[2][3], c.expected)
            << k.mnemonic << " " << data_format_name(c.f) << " lo=" << c.lo << " int8=" << int8_math;
      }
}

TEST_P(Mov, DstToSrcUndefinedWith16BitDstLeavesStateAlone) {
  for (const DstToSrc& k : kDstToSrc)
    for (auto [f, lo] : {std::pair{DataFormat::BF16, true}, std::pair{DataFormat::TF32, false}}) {
      TensixState s = ready(GetParam(), f);
      s.Dst.write16(0, 0, 0x1234);
      s.ThreadConfig[0].ADDR_MOD_AB_SEC[0].SrcAIncr = s.ThreadConfig[0].ADDR_MOD_AB_SEC[0].SrcBIncr = 4;
      try {
        exec(s, std::string(k.mnemonic) + " DstRow=0 SrcRow=0 UseDst32bLo=" + (lo ? "1" : "0"));
        ADD_FAILURE() << "expected UndefinedBehaviour " << k.mnemonic;
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::UndefinedBehaviour) << e.what();
      }
      EXPECT_EQ(target(s, k).Rows[0][0], 0u);
      EXPECT_EQ(s.RWCs[0].SrcA + s.RWCs[0].SrcB, 0);
    }
}

TEST_P(Mov, DstToSrcReadsUndefinedRowsAsZeroAndDoesNotWaitForTheBank) {
  for (const DstToSrc& k : kDstToSrc) {
    TensixState s = fresh(GetParam());  // every bank held by the Unpackers
    set_format(s, DataFormat::BF16);
    for (auto& b : s.SrcA) b.Rows[0][0] = 0x1234;
    for (auto& b : s.SrcB) b.Rows[0][0] = 0x1234;
    s.Dst.write16_bits(0, 0, dst16_phys_bf16(0, 127, 0));  // bits present, row undefined
    const ExecResult r = run_d2s(s, k, "DstRow=0 SrcRow=0 Move4Rows=1");
    EXPECT_EQ(r.status, ExecResult::Status::Retired);
    EXPECT_EQ(target(s, k).Rows[0][0], 0u) << k.mnemonic;
  }
}

TEST(DstToSrc, BlackholeTakesTheTagOfTheTargetBank) {
  for (const DstToSrc& k : kDstToSrc) {
    TensixState s = ready(Arch::Blackhole, DataFormat::BF16);
    s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
    s.Dst.write32(0, 0, dst32_phys_from_ieee(0x3FC0FFFFu));
    target(s, k).Format = DataFormat::TF32;
    run_d2s(s, k, "DstRow=0 SrcRow=0");
    EXPECT_EQ(target(s, k).Rows[0][0], tf32_datum(0, 127, 0x207)) << k.mnemonic;
    s.ThreadConfig[0].DISABLE_IMPLIED_SRCA_FMT_Base = true;  // REG0 = BF16
    run_d2s(s, k, "DstRow=0 SrcRow=0");
    EXPECT_EQ(target(s, k).Rows[0][0], bf16_datum(0, 127, 0x40)) << k.mnemonic;
  }
}

TEST_P(Mov, DstToSrcFp16aForceReads16BitFp16WhateverTheFormat) {
  for (const DstToSrc& k : kDstToSrc) {
    TensixState s = ready(GetParam());
    for (auto& c : s.Config) c.ALU_FORMAT_SPEC_REG0_SrcA = 12;  // never read under FP16A_FORCE
    s.ThreadConfig[0].DISABLE_IMPLIED_SRCA_FMT_Base = true;
    s.ThreadConfig[0].FP16A_FORCE_Enable = true;
    s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
    s.Dst.write16(0, 0, dst16_phys_fp16(0, 16, 0x155));
    run_d2s(s, k, "DstRow=0 SrcRow=0");
    EXPECT_EQ(target(s, k).Rows[0][0], fp16_datum(0, 16, 0x155)) << k.mnemonic;
  }
}

TEST_P(Mov, Movd2aLatchFeedsShiftxa) {
  TensixState s = ready(GetParam());
  fill(s.SrcA[0], bf16_at);
  run(s, "MOVD2A DstRow=0 SrcRow=52 Move4Rows=1");  // writes rows 52..55 (zeros), latches 52
  run(s, "SHIFTXA Direction=2");                    // RIGHT, input block 48
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(s.SrcA[0].Rows[i][5], bf16_at(48 + i, 4)) << i;
  EXPECT_EQ(s.SrcA[0].Rows[4][5], 0u);  // row 52 now holds what MOVD2A read (undefined Dst: 0)
}

// ======================= Round trips the ISA calls lossless =======================

// Every Dst16 pattern through Dst -> Src -> Dst; a zero exponent field (bits 7:0 for BF16, 4:0 for
// FP16) is flushed on the way back unless the zero flag is disabled.
void round_trip_16(Arch arch, DataFormat f, bool through_srca, bool keep_denormals) {
  TensixState s = ready(arch, f);
  s.Config[0].ALU_ACC_CTRL_Zero_Flag_disabled_src = keep_denormals;
  const uint32_t exponent_mask = f == DataFormat::FP16 ? 0x1F : 0xFF;
  for (uint32_t base = 0; base < 0x10000; base += 128) {
    for (unsigned i = 0; i < 128; ++i) s.Dst.write16(i / 16, i % 16, static_cast<uint16_t>(base + i));
    if (through_srca) {
      run(s, "MOVD2A DstRow=0 SrcRow=0 Move4Rows=1");
      run(s, "MOVD2A DstRow=4 SrcRow=4 Move4Rows=1");
      run(s, "MOVA2D DstRow=8 SrcRow=0 Move8Rows=1");
    } else {
      run(s, "MOVD2B DstRow=0 SrcRow=0 Move4Rows=1");
      run(s, "MOVD2B DstRow=4 SrcRow=4 Move4Rows=1");
      run(s, "MOVB2D DstRow=8 SrcRow=0 Move4Rows=1");
      run(s, "MOVB2D DstRow=12 SrcRow=4 Move4Rows=1");
    }
    for (unsigned i = 0; i < 128; ++i) {
      const uint32_t v = base + i;
      const uint32_t expected = !keep_denormals && (v & exponent_mask) == 0 ? 0 : v;
      ASSERT_EQ(s.Dst.read16(8 + i / 16, i % 16, 0xDEAD), expected) << std::hex << v;
    }
  }
}

TEST_P(Mov, RoundTripDst16ThroughSrcA) {
  for (DataFormat f : {DataFormat::BF16, DataFormat::FP16})
    for (bool keep : {false, true}) round_trip_16(GetParam(), f, true, keep);
}

TEST_P(Mov, RoundTripDst16ThroughSrcB) {
  for (DataFormat f : {DataFormat::BF16, DataFormat::FP16})
    for (bool keep : {false, true}) round_trip_16(GetParam(), f, false, keep);
}

TEST_P(Mov, RoundTripEveryTf32DatumThroughDst32b) {
  TensixState s = ready(GetParam(), DataFormat::TF32);
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
  for (uint32_t base = 0; base < (1u << 19); base += 128) {
    for (unsigned i = 0; i < 128; ++i) s.SrcA[0].Rows[i / 16][i % 16] = base + i;
    run(s, "MOVA2D DstRow=64 SrcRow=0 Move8Rows=1");
    run(s, "MOVD2A DstRow=64 SrcRow=8 Move4Rows=1");
    run(s, "MOVD2A DstRow=68 SrcRow=12 Move4Rows=1");
    for (unsigned i = 0; i < 128; ++i) {
      const uint32_t d = base + i;
      ASSERT_EQ(s.SrcA[0].Rows[8 + i / 16][i % 16], (d & 0xFF) == 0 ? 0u : d) << std::hex << d;
    }
  }
}

// ======================= MOVB2A =======================

TEST_P(Mov, Movb2aCopiesFourRowsUnchangedExceptTheFlush) {
  TensixState s = ready(GetParam());
  s.MatrixUnit.SrcBBank = 1;
  for (unsigned r = 0; r < kSrcRows; ++r)
    for (unsigned c = 0; c < 16; ++c) s.SrcB[1].Rows[r][c] = ((r * 16 + c) * 0x9E37u) & 0x7FFFF;
  s.SrcB[1].Rows[17][3] = src_datum(1, 0, 0x3FF);  // zero exponent
  s.RWCs[0].SrcA = 4;
  s.RWCs[0].SrcB = 8;
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[1].SrcAIncr = 16;
  // SrcA 8 + 4 = 12, SrcB 8 + 8 = 16.
  const ExecResult r = run(s, "MOVB2A SrcARow=8 SrcBRow=8 Move4Rows=1 AddrMod=1");
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned c = 0; c < 16; ++c) {
      const uint32_t d = s.SrcB[1].Rows[16 + i][c];
      ASSERT_EQ(s.SrcA[0].Rows[12 + i][c], (d & 0xFF) == 0 ? 0u : d) << i << "," << c;
    }
  EXPECT_EQ(s.SrcA[0].Rows[13][3], 0u);
  EXPECT_EQ(src_rows(r.writes.srca_rows), bank_rows(0, 12, 4));
  EXPECT_TRUE(r.writes.srcb_rows.empty());
  EXPECT_TRUE(r.writes.dst_rows.empty());
  EXPECT_EQ(s.RWCs[0].SrcA, 20);
  EXPECT_EQ(s.MatrixUnit.LastSrcARow, 12);
  s.Config[0].ALU_ACC_CTRL_Zero_Flag_disabled_src = true;
  s.RWCs[0].SrcA = 4;
  run(s, "MOVB2A SrcARow=8 SrcBRow=8 Move4Rows=1");
  EXPECT_EQ(s.SrcA[0].Rows[13][3], src_datum(1, 0, 0x3FF));
}

TEST_P(Mov, Movb2aWaitsForSrcBButNotSrcA) {
  TensixState s = ready(GetParam());
  s.SrcB[0].AllowedClient = SrcClient::Unpackers;
  ExecResult r = exec(s, "MOVB2A SrcARow=0 SrcBRow=16 Move4Rows=1");
  EXPECT_EQ(r.status, ExecResult::Status::Stalled);
  EXPECT_TRUE(r.writes.srca_rows.empty());
  s.SrcB[0].AllowedClient = SrcClient::MatrixUnit;
  s.SrcA[0].AllowedClient = SrcClient::Unpackers;
  r = run(s, "MOVB2A SrcARow=0 SrcBRow=16 Move4Rows=1");
  EXPECT_EQ(src_rows(r.writes.srca_rows), bank_rows(0, 0, 4));
}

TEST_P(Mov, Movb2aRefusesFormsNoSourceDefines) {
  for (const char* text : {"MOVB2A SrcARow=0 SrcBRow=16", "MOVB2A SrcARow=2 SrcBRow=16 Move4Rows=1",
                           "MOVB2A SrcARow=0 SrcBRow=18 Move4Rows=1", "MOVB2A SrcARow=60 SrcBRow=0 Move4Rows=1"}) {
    TensixState s = ready(GetParam());
    s.RWCs[0].SrcA = 4;  // 60 + 4 = 64 runs off the end
    try {
      exec(s, text);
      ADD_FAILURE() << "expected Unsupported: " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << text;
    }
  }
}

TEST_P(Mov, Movb2aLatchFeedsShiftxa) {
  TensixState s = ready(GetParam());
  fill(s.SrcA[0], bf16_at);
  run(s, "MOVB2A SrcARow=0 SrcBRow=0 Move4Rows=1");  // SrcA rows 0..3 become zeros; latch 0
  run(s, "MOVB2A SrcARow=28 SrcBRow=0 Move4Rows=1");  // latch 28 -> block 16
  run(s, "SHIFTXA Direction=3");
  EXPECT_EQ(s.SrcA[0].Rows[0][0], bf16_at(16, 1));
  EXPECT_EQ(s.SrcA[0].Rows[11][14], bf16_at(27, 15));
}

}  // namespace
}  // namespace tmu::tensix

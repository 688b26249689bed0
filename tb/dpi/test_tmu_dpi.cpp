// The DPI-C adapter exercised through its C functions exactly as a simulator calls them: handles as
// void*, packed SystemVerilog vectors as svBitVecVal words (canonical layout, bit i in word i / 32),
// no simulator. Expected values are worked out by hand from the Src/Dst bit diagrams (Bits32.lua).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vtmu_dpi__Dpi.h"

namespace {

// SystemVerilog `bit [N*width-1:0]` holding N fields of `width` bits, field c at bits [c*width +: width].
std::vector<svBitVecVal> pack(const std::vector<uint32_t>& fields, unsigned width) {
  std::vector<svBitVecVal> words((fields.size() * width + 31) / 32, 0);
  for (size_t c = 0; c < fields.size(); ++c)
    for (unsigned bit = 0; bit < width; ++bit)
      if ((fields[c] >> bit) & 1u) {
        const size_t pos = c * width + bit;
        words[pos / 32] |= svBitVecVal{1} << (pos % 32);
      }
  return words;
}

// Src BF16 layout: sign 18, mantissa 17:11 (of 17:8), exponent 7:0.
constexpr uint32_t src_bf16(uint32_t exponent, uint32_t mantissa7) { return (mantissa7 << 11) | exponent; }
// Dst16 BF16 layout: sign 15, mantissa 14:8, exponent 7:0.
constexpr uint32_t dst16_bf16(uint32_t exponent, uint32_t mantissa7) { return (mantissa7 << 8) | exponent; }

constexpr unsigned kSrcA = 0, kSrcB = 1, kBf16Code = 5;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class TmuDpi : public ::testing::Test {
 protected:
  void SetUp() override {
    h = tmu_sb_create("blackhole", "dpi_round_trip", 77, "sim --seed {seed}", "");
    ASSERT_NE(h, nullptr);
  }
  void TearDown() override { tmu_sb_destroy(h); }

  // SrcA row 0 column c = 2^c (BF16 exponent 127 + c), other SrcA rows zero; SrcB rows i = [1.5, 0..].
  // Every column straddles a different place in the 32-bit words, so a decoding slip shows up.
  void load_operands() {
    std::vector<uint32_t> powers(16), zeros(16, 0), srcb(16, 0);
    for (unsigned c = 0; c < 16; ++c) powers[c] = src_bf16(127 + c, 0);
    srcb[0] = src_bf16(127, 0x40);
    for (unsigned r = 0; r < 16; ++r) {
      ASSERT_EQ(tmu_sb_unpack_src_row(h, kSrcA, r, pack(r == 0 ? powers : zeros, 19).data(), kBf16Code), 0)
          << tmu_sb_last_error(h);
      ASSERT_EQ(tmu_sb_unpack_src_row(h, kSrcB, r, pack(srcb, 19).data(), kBf16Code), 0);
    }
    ASSERT_EQ(tmu_sb_hand_over_src_bank(h, kSrcA), 0);
    ASSERT_EQ(tmu_sb_hand_over_src_bank(h, kSrcB), 0);
  }

  // The Dst rows MVMUL DstRow=0 writes: 1.5 * 2^c in column c (exponent 127 + c, mantissa 0x40).
  static std::vector<uint32_t> expected_dst_row() {
    std::vector<uint32_t> row(16);
    for (unsigned c = 0; c < 16; ++c) row[c] = dst16_bf16(127 + c, 0x40);
    return row;
  }

  // Reports MVMUL DstRow=0 (word 0x26000000) as a correct RTL would, except for `corrupt`.
  int retire_mvmul(uint64_t cycle, unsigned corrupt_row = 99) {
    EXPECT_EQ(tmu_sb_obs_begin(h, 0, 0x26000000u, cycle), 0) << tmu_sb_last_error(h);
    for (unsigned r = 0; r < 8; ++r) {
      std::vector<uint32_t> row = expected_dst_row();
      if (r == corrupt_row) row[13] ^= 1u << 8;
      EXPECT_EQ(tmu_sb_obs_dst_row(h, r, pack(row, 16).data(), 1), 0);
    }
    EXPECT_EQ(tmu_sb_obs_rwcs(h, 0, 0, 0, 0, 0, 0, 0, 0), 0);
    const svBitVecVal owners = 0x1;  // bank 0 held by the Matrix Unit, bank 1 by the unpackers
    EXPECT_EQ(tmu_sb_obs_banks(h, 0, 0, &owners, &owners, 1, 1), 0);
    EXPECT_EQ(tmu_sb_obs_last_srca_row(h, 0), 0);
    return tmu_sb_retire(h);
  }

  void* h = nullptr;
};

TEST_F(TmuDpi, CorrectRetirementPassesAndACorruptedOneIsReported) {
  ASSERT_EQ(tmu_sb_set_field(h, "config", "ALU_ACC_CTRL_Zero_Flag_disabled_dst", 0, 0, 0), 0) << tmu_sb_last_error(h);
  load_operands();
  EXPECT_EQ(retire_mvmul(10), 0) << tmu_sb_report(h);
  EXPECT_EQ(tmu_sb_mismatch_count(h), 0u);
  // The second MVMUL accumulates: 1.5 * 2^c + 1.5 * 2^c = 3 * 2^c (exponent 128 + c, mantissa 0x40).
  // Report the first one's values again, with one more bit flipped in row 6 col 13.
  EXPECT_EQ(tmu_sb_obs_begin(h, 0, 0x26000000u, 20), 0);
  for (unsigned r = 0; r < 8; ++r) {
    std::vector<uint32_t> row(16);
    for (unsigned c = 0; c < 16; ++c) row[c] = dst16_bf16(128 + c, 0x40);
    if (r == 6) row[13] ^= 1u << 8;
    EXPECT_EQ(tmu_sb_obs_dst_row(h, r, pack(row, 16).data(), 1), 0);
  }
  EXPECT_EQ(tmu_sb_obs_rwcs(h, 0, 0, 0, 0, 0, 0, 0, 0), 0);
  EXPECT_EQ(tmu_sb_obs_last_srca_row(h, 0), 0);
  EXPECT_EQ(tmu_sb_retire(h), 1);
  EXPECT_EQ(tmu_sb_mismatch_count(h), 1u);
  EXPECT_EQ(tmu_sb_retired_count(h), 2u);
  const std::string report = tmu_sb_report(h);
  // 3 * 2^13 = 24576 expected; the flipped mantissa LSB gives (1 + 0x41/128) * 2^14 = 24704.
  EXPECT_TRUE(contains(report, "Dst16b row 6 col 13")) << report;
  EXPECT_TRUE(contains(report, "(BF16 24576)")) << report;
  EXPECT_TRUE(contains(report, "(BF16 24704)")) << report;
  EXPECT_TRUE(contains(report, "sim --seed 77")) << report;
}

TEST_F(TmuDpi, FullStateDumpComparesAtTheEnd) {
  load_operands();
  ASSERT_EQ(retire_mvmul(10), 0) << tmu_sb_report(h);
  auto dump_everything = [&](bool corrupt) {
    ASSERT_EQ(tmu_sb_dump_begin(h), 0);
    std::vector<uint32_t> powers(16), srcb(16, 0);
    for (unsigned c = 0; c < 16; ++c) powers[c] = src_bf16(127 + c, 0);
    srcb[0] = src_bf16(127, 0x40);
    ASSERT_EQ(tmu_sb_dump_src_row(h, kSrcA, 0, 0, pack(powers, 19).data()), 0);
    for (unsigned r = 0; r < 16; ++r) ASSERT_EQ(tmu_sb_dump_src_row(h, kSrcB, 0, r, pack(srcb, 19).data()), 0);
    ASSERT_EQ(tmu_sb_dump_src_bank(h, kSrcA, 0, 1, kBf16Code), 0);
    ASSERT_EQ(tmu_sb_dump_src_bank(h, kSrcB, 0, 1, kBf16Code), 0);
    for (unsigned r = 0; r < 8; ++r) {
      std::vector<uint32_t> row = expected_dst_row();
      if (corrupt && r == 4) row[0] = dst16_bf16(127, 0x3F);  // 1.4921875 instead of 1.5
      ASSERT_EQ(tmu_sb_dump_dst_row(h, r, pack(row, 16).data(), 1), 0);
    }
    ASSERT_EQ(tmu_sb_dump_banks(h, 0, 0, 1, 1, 0), 0);
  };
  dump_everything(false);
  EXPECT_EQ(tmu_sb_final_compare(h), 0) << tmu_sb_report(h);
  dump_everything(true);
  EXPECT_EQ(tmu_sb_final_compare(h), 1);
  const std::string report = tmu_sb_report(h);
  EXPECT_TRUE(contains(report, "expected    0x407f (BF16 1.5)")) << report;
  EXPECT_TRUE(contains(report, "actual      0x3f7f (BF16 1.4921875)")) << report;
  // Nothing dumped means zero: a missing Dst row is a difference.
  ASSERT_EQ(tmu_sb_dump_begin(h), 0);
  EXPECT_GT(tmu_sb_final_compare(h), 100);
}

TEST_F(TmuDpi, ErrorsComeBackAsMinusOneWithAReason) {
  EXPECT_EQ(tmu_sb_set_field(h, "config", "NoSuchField", 0, 0, 1), -1);
  EXPECT_TRUE(contains(tmu_sb_last_error(h), "NoSuchField")) << tmu_sb_last_error(h);
  EXPECT_EQ(tmu_sb_set_field(h, "rwc", "SrcA", 0, 0, 64), -1);  // 6 bits
  EXPECT_EQ(tmu_sb_obs_gpr(h, 0, 1, 2), -1);                    // no tmu_sb_obs_begin yet
  EXPECT_TRUE(contains(tmu_sb_last_error(h), "tmu_sb_obs_begin")) << tmu_sb_last_error(h);
  EXPECT_EQ(tmu_sb_unpack_src_row(h, 2, 0, pack(std::vector<uint32_t>(16, 0), 19).data(), kBf16Code), -1);
  EXPECT_EQ(tmu_sb_set_src_bank(h, kSrcA, 0, 1, 12), -1);  // code 12 names no format
  EXPECT_EQ(tmu_sb_final_compare(h), -1);                  // no dump open
  EXPECT_EQ(tmu_sb_obs_begin(h, 0, 0x60000000u, 1), 0);     // DMANOP writes nothing
  EXPECT_EQ(tmu_sb_obs_begin(h, 0, 0x60000000u, 2), -1);    // the previous one was never retired
  EXPECT_EQ(tmu_sb_retire(h), 0) << tmu_sb_report(h);
}

// A refused word: agreement when both refuse it as a decode error; a verdict outside 0..3 is bad input.
// The packer's read port: an all-zero window of the empty (all invalid) Dst agrees, one set lane is one
// mismatch, and a window start that is not a multiple of 8 is bad input.
TEST_F(TmuDpi, RefusalVerdictsAndTheDstReadPort) {
  EXPECT_EQ(tmu_sb_obs_begin(h, 1, 0xFF000000u, 5), 0);
  EXPECT_EQ(tmu_sb_obs_verdict(h, 4), -1);
  EXPECT_TRUE(contains(tmu_sb_last_error(h), "verdict 4")) << tmu_sb_last_error(h);
  EXPECT_EQ(tmu_sb_obs_verdict(h, 1), 0) << tmu_sb_last_error(h);
  EXPECT_EQ(tmu_sb_retire(h), 0) << tmu_sb_report(h);

  std::vector<uint32_t> lanes(128, 0);
  EXPECT_EQ(tmu_sb_dump_dst_read(h, 8, 0, pack(lanes, 32).data()), 0) << tmu_sb_report(h);
  lanes[17] = 0x3F80;
  EXPECT_EQ(tmu_sb_dump_dst_read(h, 8, 1, pack(lanes, 32).data()), 1);
  EXPECT_EQ(tmu_sb_dump_dst_read(h, 3, 0, pack(lanes, 32).data()), -1);
  EXPECT_TRUE(contains(tmu_sb_last_error(h), "multiple of 8")) << tmu_sb_last_error(h);
}

TEST(TmuDpiHandles, InvalidHandlesAreRefusedWithoutBeingFollowed) {
  EXPECT_EQ(tmu_sb_create("pentium", "t", 0, "", ""), nullptr);
  int not_a_session = 0;
  EXPECT_EQ(tmu_sb_retire(&not_a_session), -1);
  EXPECT_EQ(tmu_sb_retire(nullptr), -1);
  EXPECT_EQ(tmu_sb_mismatch_count(nullptr), 0u);
  EXPECT_TRUE(contains(tmu_sb_last_error(&not_a_session), "invalid"));
  void* h = tmu_sb_create("wormhole", "t", 0, "", "");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(tmu_sb_preload_gpr(h, 0, 1, 2), 0);
  tmu_sb_destroy(h);
  EXPECT_EQ(tmu_sb_preload_gpr(h, 0, 1, 2), -1);  // stale after destroy
  tmu_sb_destroy(h);                               // a second destroy is harmless
}

}  // namespace

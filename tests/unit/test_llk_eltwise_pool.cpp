// LLK-style sequences for the element-wise ops (each SrcB broadcast), a GAPOOL column reduction and a
// GMPOOL argmax max-pool. Expected values are computed here from the operand values (Eigen, plain
// maths, the ISA's visit order), never from the model.
#include <array>
#include <cmath>

#include "llk_harness.h"

namespace tmu::tensix {
namespace {

using test::Bf16;

struct SrcImage {
  Bf16 a[64][16], b[64][16];
};

SrcImage load_random(TensixState& s, Rng& rng, int exp_lo, int exp_hi) {
  SrcImage img;
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 16; ++c) {
      img.a[r][c] = test::random_bf16(rng, exp_lo, exp_hi);
      img.b[r][c] = test::random_bf16(rng, exp_lo, exp_hi);
      s.SrcA[0].Rows[r][c] = img.a[r][c].datum();
      s.SrcB[0].Rows[r][c] = img.b[r][c].datum();
    }
  s.SrcA[0].Format = s.SrcB[0].Format = DataFormat::BF16;
  test::give_banks_to_matrix_unit(s);
  return img;
}

double dst32_value(const TensixState& s, uint32_t row, uint32_t col) {
  return test::fp32_bits_value(dst32_to_fp32(s.Dst.read32(row, col, 0)));
}

enum class Bcast { None, Col, Row, Scalar };
const char* bcast_field(Bcast b) {
  switch (b) {
    case Bcast::Col: return " BroadcastSrcBCol0=1";
    case Bcast::Row: return " BroadcastSrcBRow=1";
    case Bcast::Scalar: return " BroadcastSrcBCol0=1 BroadcastSrcBRow=1";
    default: return "";
  }
}

// The SrcB element combined with SrcA[row][col] for a broadcast, with SrcB's RWC stepping like SrcA's
// unless a row is broadcast (then it stays at row 0, as llk_math_eltwise_binary.h sets SrcB.incr=0).
const Bf16& srcb_for(const SrcImage& img, Bcast b, int row, int col) {
  const bool brow = b == Bcast::Row || b == Bcast::Scalar;
  const bool bcol = b == Bcast::Col || b == Bcast::Scalar;
  return img.b[brow ? 0 : row][bcol ? 0 : col];
}

void run_eltwise(TensixState& s, const std::string& mnemonic, Bcast b, unsigned phases) {
  const bool brow = b == Bcast::Row || b == Bcast::Scalar;
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
  // AddrMod 0 steps to the next 8-row block; AddrMod 1 stays and advances the fidelity phase;
  // AddrMod 2 steps to the next block and clears the phase (the multi-phase ELWMUL pattern).
  test::set_addr_mod(s, 0, 0, {.srca_incr = 8, .srcb_incr = static_cast<uint8_t>(brow ? 0 : 8), .dest_incr = 8});
  test::set_addr_mod(s, 0, 1, {.fidelity_incr = 1});
  test::set_addr_mod(s, 0, 2, {.srca_incr = 8, .srcb_incr = static_cast<uint8_t>(brow ? 0 : 8), .dest_incr = 8,
                               .fidelity_clr = true});
  test::run(s, "ZEROACC Mode=3");
  for (int block = 0; block < 8; ++block) {
    for (unsigned p = 0; p + 1 < phases; ++p) test::run(s, mnemonic + " AddrMod=1" + bcast_field(b));
    test::run(s, mnemonic + (phases > 1 ? " AddrMod=2" : " AddrMod=0") + bcast_field(b));
  }
}

class EltwiseBroadcast : public ::testing::TestWithParam<Bcast> {};

// Equal exponents: the sum of two BF16 numbers and their (HiFi4) product are exact in FP32 Dst.
TEST_P(EltwiseBroadcast, AddSubMulOverA64RowRegionAreExact) {
  const Bcast b = GetParam();
  for (const char* op : {"ELWADD", "ELWSUB", "ELWMUL"}) {
    Rng rng(static_cast<unsigned>(b) * 10 + op[3]);
    TensixState s = test::fresh();
    const SrcImage img = load_random(s, rng, 127, 127);
    const bool mul = std::string(op) == "ELWMUL";
    run_eltwise(s, op, b, mul ? 4 : 1);
    for (int r = 0; r < 64; ++r) {
      for (int c = 0; c < 16; ++c) {
        const double x = img.a[r][c].value(), y = srcb_for(img, b, r, c).value();
        const double want = mul ? x * y : std::string(op) == "ELWADD" ? x + y : x - y;
        ASSERT_EQ(dst32_value(s, r, c), want) << op << " row " << r << " col " << c;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllBroadcasts, EltwiseBroadcast,
                         ::testing::Values(Bcast::None, Bcast::Col, Bcast::Row, Bcast::Scalar));

TEST(EltwiseMul, LoFiIsTheProductOfTheTopSlices) {
  Rng rng(5);
  TensixState s = test::fresh();
  const SrcImage img = load_random(s, rng, 127, 127);
  run_eltwise(s, "ELWMUL", Bcast::None, 1);
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 16; ++c) {
      const Bf16 &x = img.a[r][c], &y = img.b[r][c];
      const double xs = (x.sign ? -1 : 1) * (1.0 + (x.mant7 >> 3) / 16.0);  // SrcA: 1 + mantissa 6:3
      const double ys = (y.sign ? -1 : 1) * (1.0 + (y.mant7 >> 1) / 64.0);  // SrcB: 1 + mantissa 6:1
      ASSERT_EQ(dst32_value(s, r, c), xs * ys) << r << "," << c;
    }
}

// GAPOOL as llk_math_reduce.h uses it: SrcB row 0 holds the scaler (1.0), so Dst row 0 receives the
// column sums of the 16x16 SrcA face and rows 1..3 the products with SrcB rows 1..3 (zero here).
TEST(ReduceGapool, ColumnSumsLoFiTruncatesSrcAHiFi2IsExact) {
  for (unsigned phases : {1u, 2u}) {
    Rng rng(77);
    TensixState s = test::fresh();
    load_random(s, rng, 127, 127);
    SrcImage img;
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) {
        img.a[r][c] = test::random_bf16(rng, 127, 127);
        s.SrcA[0].Rows[r][c] = img.a[r][c].datum();
      }
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 16; ++c) s.SrcB[0].Rows[r][c] = r == 0 ? Bf16{0, 127, 0}.datum() : 0;
    s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
    test::set_addr_mod(s, 0, 1, {.fidelity_incr = 1});
    test::run(s, "ZEROACC Mode=3");
    for (unsigned p = 0; p < phases; ++p) test::run(s, "GAPOOL Dim16x16=1 AddrMod=1 DstRow=4");
    for (int c = 0; c < 16; ++c) {
      double want = 0;
      for (int r = 0; r < 16; ++r) {
        const Bf16& x = img.a[r][c];
        want += phases == 1 ? (x.sign ? -1 : 1) * (1.0 + (x.mant7 >> 3) / 16.0) : x.value();
      }
      EXPECT_EQ(dst32_value(s, 4, c), want) << "phases " << phases << " col " << c;
      for (int r = 5; r < 8; ++r) EXPECT_EQ(dst32_value(s, r, c), 0.0);
    }
    EXPECT_FALSE(s.Dst.RowValid[DstRegs::hi_row(8)]) << "GAPOOL writes 4 rows only";
  }
}

// GMPOOL.md: visit order i_ ^ 4 over the first eight rows, ">=" so the later visit wins a tie, the
// index written through NONLINEAR_I_TRANSFORM plus the index phase (DstVal + 0x100) & 0xf00.
constexpr std::array<unsigned, 8> kNonlinear = {0, 3, 6, 1, 4, 7, 2, 5};

unsigned expected_winner_row(const std::array<double, 16>& col) {
  unsigned best = 0;
  double best_v = -INFINITY;
  for (unsigned v = 0; v < 8; ++v) {  // only rows 0..7 record an index
    const unsigned i = v ^ 4;
    if (col[i] >= best_v) best_v = col[i], best = i;
  }
  return best;
}

TEST(MaxPoolGmpool, ArgmaxIndicesPointAtTheMaximaWithHardwareTieOrder) {
  Rng rng(99);
  TensixState s = test::fresh();
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
  test::give_banks_to_matrix_unit(s);
  s.SrcA[0].Format = s.SrcB[0].Format = DataFormat::BF16;
  for (int c = 0; c < 16; ++c) s.SrcB[0].Rows[0][c] = Bf16{0, 127, 0}.datum();  // scale 2^0
  // Column c: random values below 1; the maximum 1.5 placed at rows chosen per column, with ties.
  const std::array<std::array<int, 2>, 16> max_rows = {{{0, -1}, {1, 5}, {3, 4}, {0, 7}, {4, 6}, {2, -1}, {6, 2},
                                                        {7, -1}, {5, 1}, {3, -1}, {4, -1}, {1, 2}, {6, -1},
                                                        {0, 1}, {2, 3}, {5, 6}}};
  std::array<std::array<double, 16>, 16> cols{};
  for (int c = 0; c < 16; ++c) {
    for (int r = 0; r < 16; ++r) {
      Bf16 x = test::random_bf16(rng, 120, 126);
      for (int m : max_rows[c])
        if (m == r) x = Bf16{0, 127, 64};  // 1.5
      s.SrcA[0].Rows[r][c] = x.datum();
      cols[c][r] = x.value();
    }
  }
  test::run(s, "ZEROACC Mode=3");
  test::run(s, "GMPOOL Dim16x16=1 ArgMax=1");
  for (int c = 0; c < 16; ++c) {
    const uint32_t stored = s.Dst.read32(0, c, 0);
    EXPECT_EQ(test::bf16_bits_value(dst16_to_bf16(static_cast<uint16_t>(stored >> 16))), 1.5) << c;
    const uint32_t index = stored & 0xFF;
    EXPECT_EQ(stored & 0xF00, 0u) << "first pool after ZEROACC: index phase 0";
    unsigned row = 99;
    for (unsigned i = 0; i < 8; ++i)
      if (kNonlinear[i] == index) row = i;
    EXPECT_EQ(row, expected_winner_row(cols[c])) << "column " << c;
    EXPECT_EQ(cols[c][row], 1.5);
  }
}

TEST(MaxPoolGmpool, SecondPoolAdvancesTheIndexPhaseAndKeepsTheEarlierWinner) {
  TensixState s = test::fresh();
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;
  test::give_banks_to_matrix_unit(s);
  s.SrcA[0].Format = s.SrcB[0].Format = DataFormat::BF16;
  for (int c = 0; c < 16; ++c) s.SrcB[0].Rows[0][c] = Bf16{0, 127, 0}.datum();
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 16; ++c) s.SrcA[0].Rows[r][c] = Bf16{0, 120, 0}.datum();
  // Block 0 (rows 0..15): column 0's max 2.0 at row 3; block 1 (rows 16..31): column 1's max 4.0 at
  // row 16 + 6, column 0 stays below 2.0.
  s.SrcA[0].Rows[3][0] = Bf16{0, 128, 0}.datum();
  s.SrcA[0].Rows[22][1] = Bf16{0, 129, 0}.datum();
  test::set_addr_mod(s, 0, 1, {.srca_incr = 16});
  test::run(s, "ZEROACC Mode=3");
  test::run(s, "GMPOOL Dim16x16=1 ArgMax=1 AddrMod=1");
  test::run(s, "GMPOOL Dim16x16=1 ArgMax=1 AddrMod=1");
  const uint32_t col0 = s.Dst.read32(0, 0, 0), col1 = s.Dst.read32(0, 1, 0);
  EXPECT_EQ(col0 & 0xF00, 0x100u);
  EXPECT_EQ(col0 & 0xFF, kNonlinear[3]) << "block 1 never beat 2.0, the block-0 index stays";
  EXPECT_EQ(test::bf16_bits_value(dst16_to_bf16(static_cast<uint16_t>(col0 >> 16))), 2.0);
  EXPECT_EQ(col1 & 0xF00, 0x100u);
  EXPECT_EQ(col1 & 0xFF, (0x100u >> 4) + kNonlinear[6]);
  EXPECT_EQ(test::bf16_bits_value(dst16_to_bf16(static_cast<uint16_t>(col1 >> 16))), 4.0);
}

}  // namespace
}  // namespace tmu::tensix

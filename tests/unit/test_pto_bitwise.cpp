// tmu::pto TAND, TOR, TXOR, TNOT, TSHL, TSHR against hand-computed patterns, and the shift-count
// rule of the family page ("shift count MUST be < element bit-width").
#include "test_pto_support.h"

namespace tmu::pto::test {
namespace {

using enum ElemType;

TEST(PtoBitwise, Logic) {
  EXPECT_EQ(cpu(Op::TAND, U8, 0xF0, 0x3C), 0x30u);
  EXPECT_EQ(cpu(Op::TOR, U8, 0xF0, 0x3C), 0xFCu);
  EXPECT_EQ(cpu(Op::TXOR, U8, 0xF0, 0x3C), 0xCCu);
  EXPECT_EQ(cpu(Op::TNOT, I16, 0x00FF), 0xFF00u);
  EXPECT_EQ(cpu(Op::TNOT, U64, 0), ~0ull);
  EXPECT_EQ(npu(Op::TXOR, I32, 0x12345678, 0xFFFF0000), 0xEDCB5678u);
  EXPECT_EQ(npu(Op::TNOT, U8, 0x0F), 0xF0u);
}

TEST(PtoBitwise, Shifts) {
  EXPECT_EQ(cpu(Op::TSHL, U8, 0x81, 1), 0x02u);             // the top bit leaves the byte
  EXPECT_EQ(cpu(Op::TSHL, I8, 0x40, 1), 0x80u);             // 64 << 1 = 128 -> int8_t -128
  EXPECT_EQ(cpu(Op::TSHL, I32, 1, 31), 0x80000000u);
  EXPECT_EQ(cpu(Op::TSHL, U64, 3, 63), 0x8000000000000000ull);
  // Signed: arithmetic; unsigned: logical.
  EXPECT_EQ(cpu(Op::TSHR, I8, 0x80, 1), 0xC0u);             // -128 >> 1 = -64
  EXPECT_EQ(cpu(Op::TSHR, U8, 0x80, 1), 0x40u);
  EXPECT_EQ(cpu(Op::TSHR, I32, 0x80000000, 31), 0xFFFFFFFFu);
  EXPECT_EQ(cpu(Op::TSHR, U32, 0x80000000, 31), 1u);
  EXPECT_EQ(cpu(Op::TSHR, I16, 0x7FFF, 15), 0u);
  EXPECT_EQ(npu(Op::TSHR, I16, 0x8001, 4), 0xF800u);       // TShr.hpp: the same C++ on the scalar unit
}

TEST(PtoBitwise, ShiftCountRule) {
  expect_refusal([] { cpu(Op::TSHL, U8, 1, 8); }, ErrorKind::UndefinedBehaviour,
                 {"TSHL (u8, cpusim) lane (0, 0)", "shift count 8 >= element width 8",
                  "MUST be < the element bit-width"});
  expect_refusal([] { cpu(Op::TSHR, I64, 1, 64); }, ErrorKind::UndefinedBehaviour,
                 {"shift count 64 >= element width 64"});
  expect_refusal([] { cpu(Op::TSHR, I8, 1, 0xFF); }, ErrorKind::UndefinedBehaviour, {"shift count -1 is negative"});
  expect_refusal([] { npu(Op::TSHL, U32, 1, 32); }, ErrorKind::UndefinedBehaviour,
                 {"TSHL (u32, a2a3)", "shift count 32 >= element width 32"});
}

TEST(PtoBitwise, TypeRefusals) {
  expect_refusal([] { cpu(Op::TAND, F32, 1, 1); }, ErrorKind::Unsupported,
                 {"TAND (cpusim)", "element type f32 is not accepted", "accepts i8, u8, i16, u16, i32, u32, i64, u64"});
  expect_refusal([] { npu(Op::TSHL, I64, 1, 1); }, ErrorKind::Unsupported,
                 {"TSHL (a2a3)", "accepts i8, u8, i16, u16, i32, u32"});
}

}  // namespace
}  // namespace tmu::pto::test

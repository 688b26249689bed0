// Scalar Unit (ThCon) GPR instructions: SETDMAREG, ADDDMAREG, SUBDMAREG, MULDMAREG, SHIFTDMAREG,
// BITWOPDMAREG, CMPDMAREG, FLUSHDMA, DMANOP (ScalarUnit.md and the *DMAREG.md functional models).
#include <fmt/format.h>

#include "handlers.h"

namespace tmu::tensix::insn {

namespace {

// ScalarUnit.md: reg-reg forms take 3 cycles when both operands sit in one aligned group of four
// GPRs and 4 otherwise; immediate forms always take 3.
constexpr unsigned kGprOpCyclesSameGroup = 3;
constexpr unsigned kGprOpCyclesCrossGroup = 4;
constexpr unsigned kGprGroupShift = 2;  // aligned groups of four GPRs

unsigned gpr_op_cycles(bool right_is_immediate, uint32_t left_reg, uint32_t right_reg) {
  if (right_is_immediate || (left_reg >> kGprGroupShift) == (right_reg >> kGprGroupShift))
    return kGprOpCyclesSameGroup;
  return kGprOpCyclesCrossGroup;
}

struct GprOperands {
  uint32_t left;
  uint32_t right;
  uint32_t result_reg;
};

// Reads LeftReg and RightReg (or the immediate in RightReg's bits when OpBisConst) and sets the
// instruction's cycle count. imm_width is 6 for most ops and 5 for SHIFTDMAREG.
GprOperands read_gpr_operands(ExecContext& ctx, unsigned imm_width) {
  const bool is_const = ctx.field(Field::OpBisConst) != 0;
  const uint32_t left_reg = ctx.field(Field::LeftReg);
  const uint32_t right_field = ctx.field(Field::RightReg);
  const auto& gprs = ctx.s.GPRs[ctx.thread];
  GprOperands ops{};
  ops.left = gprs[left_reg];
  if (is_const) {
    if (right_field >> imm_width)
      ctx.fail(ErrorKind::DecodeError,
               fmt::format("immediate {} does not fit the {}-bit RightImm{} field", right_field, imm_width, imm_width));
    ops.right = right_field;
  } else {
    ops.right = gprs[right_field];
  }
  ops.result_reg = ctx.field(Field::ResultReg);
  ctx.result.cycles = gpr_op_cycles(is_const, left_reg, right_field);
  return ops;
}

}  // namespace

void exec_setdmareg(ExecContext& ctx) {
  // SetSignalsMode reads packer configuration/state into GPRs (SETDMAREG_Special.md); tmu models no
  // packers, so that mode is refused by name rather than faked.
  if (ctx.field(Field::SetSignalsMode))
    ctx.fail(ErrorKind::Unsupported, "SetSignalsMode=1 reads packer state, which tmu does not model");
  const uint32_t half = ctx.field(Field::ResultHalfReg);  // 7 bits: GPR index * 2 + which half
  const uint32_t reg = half >> 1;
  const uint32_t value = ctx.field(Field::NewValue) & 0xFFFF;
  uint32_t gpr = ctx.s.GPRs[ctx.thread][reg];
  gpr = (half & 1) ? ((gpr & 0x0000FFFFu) | (value << 16)) : ((gpr & 0xFFFF0000u) | value);
  ctx.write_gpr(reg, gpr);
  ctx.result.cycles = 1;
}

void exec_adddmareg(ExecContext& ctx) {
  const GprOperands ops = read_gpr_operands(ctx, 6);
  ctx.write_gpr(ops.result_reg, ops.left + ops.right);  // 32-bit wrap
}

void exec_subdmareg(ExecContext& ctx) {
  const GprOperands ops = read_gpr_operands(ctx, 6);
  ctx.write_gpr(ops.result_reg, ops.left - ops.right);  // 32-bit wrap
}

void exec_muldmareg(ExecContext& ctx) {
  // 16b x 16b -> 32b unsigned: only the low halves of both operands take part (MULDMAREG.md).
  const GprOperands ops = read_gpr_operands(ctx, 6);
  ctx.write_gpr(ops.result_reg, (ops.left & 0xFFFFu) * (ops.right & 0xFFFFu));
}

void exec_shiftdmareg(ExecContext& ctx) {
  enum : uint32_t { kLeft = 0, kRight = 1 };
  const GprOperands ops = read_gpr_operands(ctx, 5);
  const uint32_t amount = ops.right & 0x1F;  // the RightReg form uses the low five bits
  const uint32_t mode = ctx.field(Field::Mode);
  uint32_t result = 0;
  switch (mode) {
    case kLeft: result = ops.left << amount; break;
    case kRight: result = ops.left >> amount; break;
    default: ctx.fail(ErrorKind::UndefinedBehaviour, fmt::format("Mode={} is neither LEFT (0) nor RIGHT (1)", mode));
  }
  ctx.write_gpr(ops.result_reg, result);
}

void exec_bitwopdmareg(ExecContext& ctx) {
  enum : uint32_t { kAnd = 0, kOr = 1, kXor = 2 };
  const GprOperands ops = read_gpr_operands(ctx, 6);
  const uint32_t mode = ctx.field(Field::Mode);
  uint32_t result = 0;
  switch (mode) {
    case kAnd: result = ops.left & ops.right; break;
    case kOr: result = ops.left | ops.right; break;
    case kXor: result = ops.left ^ ops.right; break;
    default: ctx.fail(ErrorKind::UndefinedBehaviour, fmt::format("Mode={} is not AND (0), OR (1) or XOR (2)", mode));
  }
  ctx.write_gpr(ops.result_reg, result);
}

void exec_cmpdmareg(ExecContext& ctx) {
  enum : uint32_t { kGt = 0, kLt = 1, kEq = 2 };
  const GprOperands ops = read_gpr_operands(ctx, 6);
  const uint32_t mode = ctx.field(Field::Mode);
  bool result = false;
  switch (mode) {  // unsigned comparisons
    case kGt: result = ops.left > ops.right; break;
    case kLt: result = ops.left < ops.right; break;
    case kEq: result = ops.left == ops.right; break;
    default: ctx.fail(ErrorKind::UndefinedBehaviour, fmt::format("Mode={} is not GT (0), LT (1) or EQ (2)", mode));
  }
  ctx.write_gpr(ops.result_reg, result ? 1u : 0u);
}

void exec_flushdma(ExecContext& ctx) {
  // In this synchronous model nothing is ever outstanding, so every selected condition (mask 0
  // meaning all four, FLUSHDMA.md) is already met: the instruction completes in its minimum time.
  constexpr unsigned kFlushDmaMinCycles = 2;
  ctx.result.cycles = kFlushDmaMinCycles;
}

void exec_dmanop(ExecContext& ctx) { ctx.result.cycles = 1; }

}  // namespace tmu::tensix::insn

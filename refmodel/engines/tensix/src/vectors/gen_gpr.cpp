// Scalar Unit GPR vectors. Level 1 crosses twelve boundary values (0, 1, 2, 31, 32, 0xffff,
// 0x10000, INT32_MAX, INT32_MIN, all ones, two bit patterns) as left and right operands, the
// immediate forms, every mode, register aliasing, and rotates the issuing thread; level 2 draws
// registers, values and forms at random.
#include <fmt/format.h>

#include "gen.h"

namespace tmu::tensix::vectors::detail {

namespace {

constexpr std::array<uint32_t, 12> kValues = {0,          1,          2,          31,         32,         0xFFFF,
                                              0x10000,    0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x12345678, 0xDEADBEEF};
constexpr std::array<uint32_t, 8> kShiftAmounts = {0, 1, 15, 16, 31, 32, 33, 63};
constexpr std::array<uint32_t, 4> kImmediates = {0, 1, 32, 63};
constexpr std::array<uint32_t, 4> kShiftImmediates = {0, 1, 16, 31};

struct GprOp {
  Op op;
  const char* stem;
  unsigned modes;  // valid Mode values 0 .. modes-1 (0: no Mode field)
};
constexpr GprOp kOps[] = {{Op::SETDMAREG, "setdmareg", 0},    {Op::ADDDMAREG, "adddmareg", 0}, {Op::SUBDMAREG, "subdmareg", 0},
                          {Op::MULDMAREG, "muldmareg", 0},    {Op::SHIFTDMAREG, "shiftdmareg", 2},
                          {Op::BITWOPDMAREG, "bitwopdmareg", 3}, {Op::CMPDMAREG, "cmpdmareg", 3},
                          {Op::FLUSHDMA, "flushdma", 0},      {Op::DMANOP, "dmanop", 0}};

// One GPR operation: registers, operand values, form.
struct Case {
  unsigned thread = 0, left = 1, right = 2, result = 3, mode = 0;
  uint32_t left_value = 0, right_value = 0;  // right_value is the immediate when is_const
  bool is_const = false;
};

class GprGenerator : public FileGenerator {
 public:
  GprGenerator(const GprOp& op, Arch arch) : op_(op), arch_(arch) {}

  std::vector<std::string> describe() const override {
    return {fmt::format("{}: values {}", find_by_op(arch_, op_.op)->mnemonic, values_text())};
  }

  size_t level1_count() const override {
    switch (op_.op) {
      case Op::SETDMAREG: return 4 * 4 * 3;
      case Op::FLUSHDMA: return 16;
      case Op::DMANOP: return 1;
      case Op::SHIFTDMAREG: return op_.modes * kValues.size() * (kShiftAmounts.size() + kShiftImmediates.size());
      default: return std::max(1u, op_.modes) * (kValues.size() * (kValues.size() + kImmediates.size()) + kValues.size());
    }
  }

  Vector level1(size_t i) const override {
    const unsigned thread = static_cast<unsigned>(i % kNumThreads);
    switch (op_.op) {
      case Op::SETDMAREG: {
        static constexpr uint32_t kHalves[] = {0, 3, 2, 127}, kNew[] = {0, 0xFFFF, 0x1234, 0x8000}, kPrior[] = {0, 0xFFFFFFFF, 0x12345678};
        return setdmareg(thread, kHalves[i / 12], kNew[(i / 3) % 4], kPrior[i % 3]);
      }
      case Op::FLUSHDMA: {
        Builder b(arch_, thread);
        b.insn(Op::FLUSHDMA, {{Field::ConditionMask, static_cast<uint32_t>(i)}});
        return b.finish("", fmt::format("level 1: ConditionMask={}", i), {});
      }
      case Op::DMANOP: {
        Builder b(arch_, thread);
        b.insn(Op::DMANOP, {});
        return b.finish("", "level 1", {});
      }
      default: break;
    }
    Case c;
    c.thread = thread;
    const size_t per_mode = level1_count() / std::max(1u, op_.modes);
    c.mode = static_cast<unsigned>(i / per_mode);
    size_t k = i % per_mode;
    const size_t nv = kValues.size();
    const bool shift = op_.op == Op::SHIFTDMAREG;
    const size_t rights = shift ? kShiftAmounts.size() : nv;
    const size_t imms = shift ? kShiftImmediates.size() : kImmediates.size();
    if (k < nv * rights) {
      c.left_value = kValues[k / rights];
      c.right_value = shift ? kShiftAmounts[k % rights] : kValues[k % rights];
    } else if (k < nv * (rights + imms)) {
      k -= nv * rights;
      c.is_const = true;
      c.left_value = kValues[k / imms];
      c.right_value = shift ? kShiftImmediates[k % imms] : kImmediates[k % imms];
    } else {  // one register as left, right and result
      c.left_value = c.right_value = kValues[k - nv * (rights + imms)];
      c.left = c.right = c.result = 5;
    }
    return operation(c, "level 1");
  }

  Vector random(Rng& rng) const override {
    auto value = [&] { return rng.chance(1, 4) ? kValues[rng.below(kValues.size())] : static_cast<uint32_t>(rng.next()); };
    const unsigned thread = rng.below(kNumThreads);
    switch (op_.op) {
      case Op::SETDMAREG: return setdmareg(thread, rng.bits(7), rng.bits(16), value());
      case Op::FLUSHDMA: {
        Builder b(arch_, thread);
        const uint32_t mask = rng.bits(4);
        b.insn(Op::FLUSHDMA, {{Field::ConditionMask, mask}});
        return b.finish("", fmt::format("level 2: ConditionMask={}", mask), {});
      }
      case Op::DMANOP: {
        Builder b(arch_, thread);
        b.insn(Op::DMANOP, {});
        return b.finish("", "level 2", {});
      }
      default: break;
    }
    Case c;
    c.thread = thread;
    c.left = rng.bits(6);
    c.right = rng.bits(6);
    c.result = rng.bits(6);
    c.mode = op_.modes ? rng.below(op_.modes) : 0;
    c.is_const = rng.chance(1, 3);
    c.left_value = value();
    c.right_value = c.is_const ? rng.bits(op_.op == Op::SHIFTDMAREG ? 5 : 6) : value();
    if (c.left == c.right && !c.is_const) c.right_value = c.left_value;
    return operation(c, "level 2");
  }

 private:
  GprOp op_;
  Arch arch_;

  static std::string values_text() {
    std::string s;
    for (uint32_t v : kValues) s += fmt::format("{}{:#x}", s.empty() ? "" : " ", v);
    return s;
  }

  Vector setdmareg(unsigned thread, uint32_t half, uint32_t value, uint32_t prior) const {
    Builder b(arch_, thread);
    b.set_gpr(half >> 1, prior);  // the other half is kept: the register is read as well
    b.insn(Op::SETDMAREG, {{Field::ResultHalfReg, half}, {Field::NewValue, value}});
    return b.finish("", fmt::format("ResultHalfReg={} NewValue={:#x}", half, value), {});
  }

  Vector operation(const Case& c, const char* level) const {
    Builder b(arch_, c.thread);
    b.set_gpr(c.left, c.left_value);
    if (!c.is_const) b.set_gpr(c.right, c.right_value);
    std::vector<std::pair<Field, uint32_t>> fields = {{Field::LeftReg, c.left}, {Field::RightReg, c.is_const ? c.right_value : c.right},
                                                      {Field::ResultReg, c.result}, {Field::OpBisConst, c.is_const}};
    if (op_.modes) fields.emplace_back(Field::Mode, c.mode);
    b.insn_word(encode(arch_, op_.op, fields));
    return b.finish("", fmt::format("{}: thread {}, GPR{} = {:#x} {} {}{}", level, c.thread, c.left, c.left_value,
                                    op_.modes ? fmt::format("mode {}", c.mode) : "op",
                                    c.is_const ? "immediate " : fmt::format("GPR{} = ", c.right), fmt::format("{:#x}", c.right_value)),
                    {});
  }
};

}  // namespace

void plan_gpr_files(std::vector<FileSpec>& out) {
  for (const GprOp& op : kOps) {
    FileSpec s;
    s.family = "gpr";
    s.stem = fmt::format("gpr-{}", op.stem);
    s.option = op.stem;
    out.push_back(s);
  }
}

std::unique_ptr<FileGenerator> make_gpr_generator(const FileSpec& spec, Arch arch) {
  for (const GprOp& op : kOps)
    if (spec.option == op.stem) return std::make_unique<GprGenerator>(op, arch);
  return nullptr;
}

}  // namespace tmu::tensix::vectors::detail

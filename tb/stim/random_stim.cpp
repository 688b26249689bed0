// The "random" stimulus: constrained-random instruction streams with per-class weights, all three
// threads interleaved, configuration Field steps, bank flips, and class-mixed data.
#include <algorithm>
#include <stdexcept>

#include "engine.h"
#include "stim_factories.h"

namespace tmu::tb {

namespace {

// How one instruction field is chosen (derived once from the field's ISA name).
enum class FieldKind : uint8_t {
  Uniform, DstRow, AddrMod, Flip, Dim16x16, Zero, One, Mode, Revert, Direction, KeepReading,
  Imm16, SrcRowB2A, SrcRowA2B, Bit, Dst32Lo,
};

struct FieldPlan {
  Field id;
  uint8_t lo;
  uint8_t width;
  uint32_t max;
  FieldKind kind;
  const FieldSpec* spec;
};

struct OpPlan {
  const InsnSpec* spec = nullptr;
  std::vector<FieldPlan> fields;
};

enum class InsnClass : uint8_t { Matmul, Eltwise, Gmpool, Mov, Zero, Rwc, Shift, Legacy, Gpr, kCount };

FieldKind kind_of(Op op, const FieldSpec& f) {
  const std::string name = field_name(f.id);
  if (name == "DstRow") return FieldKind::DstRow;
  if (name == "AddrMod") return FieldKind::AddrMod;
  if (name == "FlipSrcA" || name == "FlipSrcB") return FieldKind::Flip;
  if (name == "Dim16x16") return FieldKind::Dim16x16;
  if (name == "AddDst") return op == Op::DOTPV ? FieldKind::Zero : FieldKind::Bit;
  if (name == "SetSignalsMode" || name == "Reset") return FieldKind::Zero;
  if (name == "Mode") return FieldKind::Mode;
  if (name == "Revert") return FieldKind::Revert;
  if (name == "Direction") return FieldKind::Direction;
  if (name == "KeepReadingSameSrc") return FieldKind::KeepReading;
  if (name == "NewValue") return FieldKind::Imm16;
  if (name == "UseDst32bLo") return FieldKind::Dst32Lo;
  if (op == Op::MOVB2A && name == "Move4Rows") return FieldKind::One;
  if (op == Op::MOVB2A && name == "SrcBRow") return FieldKind::SrcRowB2A;
  if (op == Op::MOVB2A && name == "SrcARow") return FieldKind::SrcRowA2B;
  if (f.width == 1) return FieldKind::Bit;
  return FieldKind::Uniform;
}

InsnClass class_of(Op op) {
  switch (op) {
    case Op::MVMUL: case Op::DOTPV: case Op::GAPOOL: return InsnClass::Matmul;
    case Op::ELWMUL: case Op::ELWADD: case Op::ELWSUB: return InsnClass::Eltwise;
    case Op::GMPOOL: return InsnClass::Gmpool;
    case Op::MOVA2D: case Op::MOVB2D: case Op::MOVD2A: case Op::MOVD2B: case Op::MOVB2A: return InsnClass::Mov;
    case Op::ZEROACC: case Op::ZEROSRC: return InsnClass::Zero;
    case Op::SETRWC: case Op::INCRWC: case Op::CLEARDVALID: return InsnClass::Rwc;
    case Op::SHIFTXA: case Op::SHIFTXB: case Op::TRNSPSRCB: return InsnClass::Shift;
    default: break;
  }
  return InsnClass::Legacy;  // CONV3S*, APOOL*, MPOOL*, GATESRCRST, CLREXPHIST (GPR ops sorted by unit)
}

// Per-class weights (percent of instructions).
constexpr std::array<unsigned, static_cast<size_t>(InsnClass::kCount)> kClassWeights = {
    18,  // Matmul: MVMUL / DOTPV / GAPOOL
    14,  // Eltwise
    6,   // Gmpool
    12,  // Mov
    5,   // Zero: ZEROACC / ZEROSRC
    10,  // Rwc: SETRWC / INCRWC / CLEARDVALID
    4,   // Shift: SHIFTXA / SHIFTXB / TRNSPSRCB
    3,   // Legacy / no-ops
    12,  // Gpr
};

constexpr std::array<DataFormat, 13> kFloatFormats = {
    DataFormat::BF16, DataFormat::BF16, DataFormat::BF16, DataFormat::FP16, DataFormat::FP16, DataFormat::TF32,
    DataFormat::TF32, DataFormat::FP32, DataFormat::BFP8, DataFormat::BFP8a, DataFormat::FP8, DataFormat::BFP4,
    DataFormat::INT16};
constexpr std::array<uint32_t, 10> kFormatCodes = {0, 1, 2, 4, 5, 6, 10, 14, 5, 1};

class RandomStimulus final : public StreamStimulus {
 public:
  RandomStimulus(Arch arch, uint64_t seed, uint64_t instructions)
      : StreamStimulus("random", arch, seed), target_(instructions) {
    for (const InsnSpec& spec : tmu::tensix::instructions(arch)) {
      if (!unit_in_rtl(spec.unit)) continue;  // UNPACR, PACR: the RTL has no unpacker or packer
      OpPlan p;
      p.spec = &spec;
      for (const FieldSpec& f : spec.fields()) p.fields.push_back({f.id, f.lo, f.width, f.max, kind_of(spec.op, f), &f});
      const InsnClass c = spec.unit == Unit::ScalarUnit ? InsnClass::Gpr : class_of(spec.op);
      by_class_[static_cast<size_t>(c)].push_back(std::move(p));
    }
    for (unsigned c : kClassWeights) weight_total_ += c;
    set_initial(make_initial());
  }

 protected:
  bool generate_some() override {
    if (emitted_insns_ >= target_) return false;
    if (rng_.chance(6, 100)) random_field_step();
    if (rng_.chance(30, 100)) thread_ = static_cast<unsigned>(rng_.below(kNumThreads));
    const InsnClass c = pick_class();
    for (int attempt = 0; attempt < 8; ++attempt) {
      const auto& plans = by_class_[static_cast<size_t>(c)];
      const OpPlan* p = &plans[rng_.below(plans.size())];
      // ZEROSRC rewrites two whole banks (slow in the model and it wipes the filled data): rarer.
      if (p->spec->op == Op::ZEROSRC && rng_.chance(97, 100))
        for (const OpPlan& q : plans)
          if (q.spec->op == Op::ZEROACC) p = &q;
      if (try_insn(thread_, random_word(*p))) return true;
    }
    // Fallback: a harmless instruction the model always accepts.
    if (!try_insn(thread_, encode(arch_, Op::DMANOP, {})))
      throw std::logic_error("stimulus random: DMANOP refused");
    return true;
  }

  UnpackFill make_fill(unsigned operand) override { return fill_for(operand, rng_); }
  UnpackFill make_late_fill(unsigned operand, Rng& rng) override { return fill_for(operand, rng); }

 private:
  InsnClass pick_class() {
    unsigned r = static_cast<unsigned>(rng_.below(weight_total_));
    for (size_t c = 0; c < kClassWeights.size(); ++c) {
      if (r < kClassWeights[c]) return static_cast<InsnClass>(c);
      r -= kClassWeights[c];
    }
    return InsnClass::Matmul;
  }

  uint32_t pick_field(const OpPlan& p, const FieldPlan& f) {
    const Op op = p.spec->op;
    const Rwc& rwc = shadow().RWCs[thread_];
    switch (f.kind) {
      case FieldKind::DstRow: {
        const unsigned k = static_cast<unsigned>(rng_.below(100));
        if (k < 60) return static_cast<uint32_t>(rng_.below(128) * 8) & f.max;
        if (k < 85) return static_cast<uint32_t>(rng_.below(64) * 16) & f.max;
        return static_cast<uint32_t>(rng_() & f.max);
      }
      case FieldKind::AddrMod: return static_cast<uint32_t>(rng_.below(f.max + 1));
      case FieldKind::Flip: return rng_.chance(op == Op::SETRWC ? 12 : op == Op::CLEARDVALID ? 35 : 3, 100) ? 1 : 0;
      case FieldKind::Dim16x16: return 1;  // Dim16x16=0 has no defined behaviour
      case FieldKind::Zero: return 0;
      case FieldKind::One: return 1;
      case FieldKind::Mode:
        if (rng_.chance(2, 100)) return static_cast<uint32_t>(rng_() & f.max);
        if (op == Op::ZEROACC) {  // the whole-Dst modes are the model's slowest instructions: fewer
          const unsigned m = static_cast<unsigned>(rng_.below(100));
          const unsigned w = static_cast<unsigned>(rng_.below(1000));
          return m < 45 ? 0 : m < 99 ? 1 : w < 600 ? 2 : 3;
        }
        if (op == Op::SHIFTDMAREG) return static_cast<uint32_t>(rng_.below(2));
        return static_cast<uint32_t>(rng_.below(3));
      case FieldKind::Revert: return rng_.chance(15, 100) ? 1 : 0;
      case FieldKind::Direction: return 2 + static_cast<uint32_t>(rng_.below(2));
      case FieldKind::KeepReading: return rng_.chance(20, 100) ? 1 : 0;
      case FieldKind::Imm16: {
        static constexpr std::array<uint32_t, 6> kSpecial = {0, 1, 0xFFFF, 0x8000, 0x7FFF, 31};
        return rng_.chance(30, 100) ? kSpecial[rng_.below(kSpecial.size())] : static_cast<uint32_t>(rng_() & 0xFFFF);
      }
      case FieldKind::SrcRowB2A:
      case FieldKind::SrcRowA2B: {
        // MOVB2A is defined only for 4-aligned rows below 64 after adding the counter.
        const unsigned counter = f.kind == FieldKind::SrcRowB2A ? rwc.SrcB : rwc.SrcA;
        const unsigned first_block = (counter + 3) / 4;
        if (first_block > 15) return 0;
        const unsigned target = 4 * (first_block + static_cast<unsigned>(rng_.below(16 - first_block)));
        return std::min<uint32_t>(target - counter, f.max);
      }
      case FieldKind::Bit: return static_cast<uint32_t>(rng_() & 1);
      case FieldKind::Dst32Lo: {  // only meaningful (and only defined for MOVD2x) with 32-bit Dst
        return mov_use_dst32b(shadow(), thread_) && rng_.chance(30, 100) ? 1 : 0;
      }
      case FieldKind::Uniform: break;
    }
    return static_cast<uint32_t>(rng_.below(f.max + 1));
  }

  uint32_t random_word(const OpPlan& p) {
    uint32_t values[32] = {};
    for (size_t i = 0; i < p.fields.size() && i < 32; ++i) values[i] = pick_field(p, p.fields[i]);
    // ZEROACC: Revert is only defined with the 16-row mode.
    if (p.spec->op == Op::ZEROACC) {
      uint32_t mode = 0;
      for (size_t i = 0; i < p.fields.size(); ++i)
        if (p.fields[i].kind == FieldKind::Mode) mode = values[i];
      for (size_t i = 0; i < p.fields.size(); ++i)
        if (p.fields[i].kind == FieldKind::Revert && mode != 1) values[i] = 0;
    }
    // Conditional maxima (SHIFTDMAREG's immediate shares RightReg's bits).
    for (size_t i = 0; i < p.fields.size() && i < 32; ++i) {
      const FieldSpec& f = *p.fields[i].spec;
      if (!f.has_conditional_max()) continue;
      for (size_t j = 0; j < p.fields.size() && j < 32; ++j)
        if (p.fields[j].id == f.when_field && values[j] == f.when_value) values[i] %= f.when_max + 1;
    }
    uint32_t word = uint32_t{p.spec->opcode} << 24;
    for (size_t i = 0; i < p.fields.size() && i < 32; ++i) {
      const uint32_t mask = p.fields[i].width >= 32 ? ~0u : (1u << p.fields[i].width) - 1;
      word |= (values[i] & mask) << p.fields[i].lo;
    }
    return word;
  }

  void random_addr_mod_field(unsigned thread, unsigned slot, std::vector<FieldWrite>* into) {
    static constexpr std::array<const char*, 14> kNames = {
        "SrcAIncr", "SrcACR", "SrcAClear", "SrcBIncr", "SrcBCR", "SrcBClear", "DestIncr",
        "DestCR", "DestClear", "DestCToCR", "FidelityIncr", "FidelityClear", "BiasIncr", "BiasClear"};
    const unsigned which = static_cast<unsigned>(rng_.below(kNames.size()));
    const std::string name = kNames[which];
    uint32_t v;
    if (name == "SrcAIncr" || name == "SrcBIncr") {
      static constexpr std::array<uint32_t, 8> kIncr = {0, 1, 4, 8, 16, 32, 48, 0};
      v = rng_.chance(80, 100) ? kIncr[rng_.below(kIncr.size())] : static_cast<uint32_t>(rng_() & 63);
    } else if (name == "DestIncr") {
      static constexpr std::array<uint32_t, 7> kIncr = {0, 1, 4, 8, 16, 32, 0};
      v = rng_.chance(80, 100) ? kIncr[rng_.below(kIncr.size())] : static_cast<uint32_t>(rng_() & 1023);
    } else if (name == "FidelityIncr") {
      v = rng_.chance(70, 100) ? static_cast<uint32_t>(rng_() & 1) : static_cast<uint32_t>(rng_() & 3);
    } else if (name == "BiasIncr") {
      // On Blackhole an odd ExtraAddrModBit makes every later ApplyAddrMod undefined: keep bits 1:0 clear.
      v = static_cast<uint32_t>(rng_() & 15);
      if (arch_ == Arch::Blackhole) v &= 12;
    } else {
      v = rng_.chance(20, 100) ? 1 : 0;
    }
    if (into) into->push_back(FieldWrite{FieldScope::AddrMod, name, thread, slot, v});
    else field(FieldScope::AddrMod, name, v, thread, slot);
  }

  void random_field_step() {
    const unsigned t = static_cast<unsigned>(rng_.below(kNumThreads));
    const unsigned st = static_cast<unsigned>(rng_() & 1);
    const unsigned k = static_cast<unsigned>(rng_.below(100));
    auto code = [&] {
      return rng_.chance(1, 100) ? static_cast<uint32_t>(12 + (rng_() & 1)) : kFormatCodes[rng_.below(kFormatCodes.size())];
    };
    if (k < 22) {
      static constexpr std::array<const char*, 3> kNames = {"ALU_FORMAT_SPEC_REG0_SrcA", "ALU_FORMAT_SPEC_REG1_SrcB",
                                                            "ALU_FORMAT_SPEC_REG2_Dstacc"};
      field(FieldScope::Config, kNames[rng_.below(3)], code(), 0, st);
    } else if (k < 28) {
      static constexpr std::array<const char*, 3> kVal = {"ALU_FORMAT_SPEC_REG_SrcA_val", "ALU_FORMAT_SPEC_REG_SrcB_val",
                                                          "ALU_FORMAT_SPEC_REG_Dstacc_val"};
      static constexpr std::array<const char*, 3> kOvr = {"ALU_FORMAT_SPEC_REG_SrcA_override",
                                                          "ALU_FORMAT_SPEC_REG_SrcB_override",
                                                          "ALU_FORMAT_SPEC_REG_Dstacc_override"};
      const unsigned i = static_cast<unsigned>(rng_.below(3));
      if (rng_() & 1) field(FieldScope::Config, kVal[i], code(), 0, st);
      else field(FieldScope::Config, kOvr[i], rng_.chance(40, 100) ? 1 : 0, 0, st);
    } else if (k < 38) {
      field(FieldScope::Config, "ALU_ACC_CTRL_Fp32_enabled", static_cast<uint32_t>(rng_() & 1), 0, st);
    } else if (k < 43) {
      field(FieldScope::Config, "ALU_ACC_CTRL_INT8_math_enabled", rng_.chance(35, 100) ? 1 : 0, 0, st);
    } else if (k < 48) {
      field(FieldScope::Config, rng_() & 1 ? "ALU_ACC_CTRL_Zero_Flag_disabled_src" : "ALU_ACC_CTRL_Zero_Flag_disabled_dst",
            static_cast<uint32_t>(rng_() & 1), 0, st);
    } else if (k < 54) {
      field(FieldScope::ThreadConfig, "CFG_STATE_ID_StateID", static_cast<uint32_t>(rng_() & 1), t);
    } else if (k < 60) {
      static constexpr std::array<uint32_t, 6> kOffsets = {0, 0x100, 0x200, 0x300, 0x40, 0x3F0};
      const uint32_t v = rng_.chance(70, 100) ? kOffsets[rng_.below(kOffsets.size())] : static_cast<uint32_t>(rng_() & 0xFFF);
      field(FieldScope::ThreadConfig, "DEST_TARGET_REG_CFG_MATH_Offset", v, t);
    } else if (k < 68) {
      field(FieldScope::ThreadConfig, "FIDELITY_BASE_Phase", static_cast<uint32_t>(rng_() & 3), t);
    } else if (k < 72) {
      field(FieldScope::ThreadConfig, "FP16A_FORCE_Enable", rng_.chance(40, 100) ? 1 : 0, t);
    } else if (k < 78) {
      if (arch_ == Arch::Blackhole)
        field(FieldScope::ThreadConfig, rng_() & 1 ? "DISABLE_IMPLIED_SRCA_FMT_Base" : "DISABLE_IMPLIED_SRCB_FMT_Base",
              rng_.chance(40, 100) ? 1 : 0, t);
      else
        field(FieldScope::ThreadConfig, "ADDR_MOD_SET_Base", rng_.chance(30, 100) ? 1 : 0, t);
    } else if (k < 80) {
      field(FieldScope::ThreadConfig, rng_() & 1 ? "CLR_DVALID_SrcA_Disable" : "CLR_DVALID_SrcB_Disable",
            rng_.chance(30, 100) ? 1 : 0, t);
    } else if (k < 97) {
      random_addr_mod_field(t, static_cast<unsigned>(rng_() & 7), nullptr);
    } else if (k < 98) {
      field(FieldScope::Config, "DEST_REGW_BASE_Base", rng_.chance(50, 100) ? 0 : static_cast<uint32_t>(rng_() & 0x3F0), 0, st);
    } else {
      // Not DbgFeatureDisableBit11: with it every Dst16b write is NonContractualBehaviour in the model.
      field(FieldScope::Global, "DEST_ACCESS_CFG_zeroacc_absolute_tile_mode", rng_.chance(30, 100) ? 1 : 0);
    }
  }

  DataFormat fill_format(unsigned operand, Rng& rng, bool* int8) {
    const TensixState& s = shadow();
    *int8 = (s.Config[0].ALU_ACC_CTRL_INT8_math_enabled || s.Config[1].ALU_ACC_CTRL_INT8_math_enabled) && rng.chance(70, 100);
    if (*int8) return DataFormat::INT8;
    const bool implied = src_format_implied(s, 0, operand);
    if (!implied && rng.chance(70, 100)) {  // data in the style the configuration will read it in
      const ConfigRegs& c = s.Config[rng() & 1];
      const uint32_t code = operand ? c.ALU_FORMAT_SPEC_REG1_SrcB : c.ALU_FORMAT_SPEC_REG0_SrcA;
      if (is_valid_data_format_code(code) && code != static_cast<uint32_t>(DataFormat::INT8))
        return static_cast<DataFormat>(code);
    }
    return kFloatFormats[rng.below(kFloatFormats.size())];
  }

  UnpackFill fill_for(unsigned operand, Rng& rng) {
    bool int8 = false;
    const DataFormat f = fill_format(operand, rng, &int8);
    if (rng.chance(50, 100)) return pool_.fill(rng, f, int8, 0, kSrcRows);
    const unsigned first = static_cast<unsigned>(rng.below(kSrcRows));
    return pool_.fill(rng, f, int8, first, 8 + static_cast<unsigned>(rng.below(40)));
  }

  InitialState make_initial() {
    InitialState init;
    for (unsigned st = 0; st < kNumConfigStates; ++st) {
      init.fields.push_back({FieldScope::Config, "ALU_ACC_CTRL_Fp32_enabled", 0, st, static_cast<uint32_t>(rng_() & 1)});
      init.fields.push_back({FieldScope::Config, "ALU_FORMAT_SPEC_REG0_SrcA", 0, st, kFormatCodes[rng_.below(7)]});
      init.fields.push_back({FieldScope::Config, "ALU_FORMAT_SPEC_REG1_SrcB", 0, st, kFormatCodes[rng_.below(7)]});
      init.fields.push_back({FieldScope::Config, "ALU_FORMAT_SPEC_REG2_Dstacc", 0, st, kFormatCodes[rng_.below(7)]});
    }
    for (unsigned t = 0; t < kNumThreads; ++t) {
      init.fields.push_back({FieldScope::ThreadConfig, "FIDELITY_BASE_Phase", t, 0, static_cast<uint32_t>(rng_() & 3)});
      for (unsigned slot = 0; slot < kNumAddrMods; ++slot)
        for (int i = 0; i < 4; ++i) random_addr_mod_field(t, slot, &init.fields);
    }
    for (unsigned op = 0; op < 2; ++op) {
      bool int8 = false;
      const DataFormat f = kFloatFormats[rng_.below(kFloatFormats.size())];
      init.banks.push_back({op, 0, true, static_cast<uint32_t>(f)});
      init.banks.push_back({op, 1, false, static_cast<uint32_t>(DataFormat::BF16)});
      const SrcStyle style = int8 ? SrcStyle::INT8 : src_style_of_format(f);
      for (unsigned r = 0; r < kSrcRows; ++r) init.src_rows.push_back({op, 0, r, random_src_row(rng_, style)});
    }
    init.unpacker_bank = {1, 1};
    init.matrix_unit_bank = {0, 0};
    for (unsigned r = 0; r < kDstRows; ++r) init.dst_rows.push_back({r, random_dst_row(rng_), rng_.chance(90, 100)});
    static constexpr std::array<uint32_t, 6> kGprSpecial = {0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0xFFFF};
    for (unsigned t = 0; t < kNumThreads; ++t)
      for (unsigned i = 0; i < kNumGprs; ++i)
        init.gprs.push_back({t, i, rng_.chance(30, 100) ? kGprSpecial[rng_.below(kGprSpecial.size())]
                                                        : static_cast<uint32_t>(rng_())});
    return init;
  }

  uint64_t target_;
  unsigned thread_ = 0;
  DatumPool pool_;
  std::array<std::vector<OpPlan>, static_cast<size_t>(InsnClass::kCount)> by_class_;
  unsigned weight_total_ = 0;
};

}  // namespace

std::unique_ptr<Stimulus> make_random_stimulus(Arch arch, uint64_t seed, uint64_t instructions) {
  return std::make_unique<RandomStimulus>(arch, seed, instructions);
}

}  // namespace tmu::tb

// The coverage model: declarations of every coverpoint (the table in docs/coverage.md), the
// value classes, and the sampling of one instruction from the decoded word and the state it reads.
// The database side (merge, reports, JSON) is coverage_io.cpp.
#include "coverage.h"

#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

#include "tmu/tensix/decode.h"
#include "tmu/error.h"
#include "tmu/tensix/query.h"

namespace tmu::tb {
using namespace tmu::tensix;

namespace {

const char* arch_tag(Arch a) { return a == Arch::Blackhole ? "bh" : "wh"; }

enum class Family : uint8_t { Matmul, Elw, Gmpool, Mov, Other };

Family family_of(Op op) {
  switch (op) {
    case Op::MVMUL: case Op::DOTPV: case Op::GAPOOL: return Family::Matmul;
    case Op::ELWADD: case Op::ELWSUB: case Op::ELWMUL: return Family::Elw;
    case Op::GMPOOL: return Family::Gmpool;
    case Op::MOVA2D: case Op::MOVB2D: case Op::MOVD2A: case Op::MOVD2B: case Op::MOVB2A: return Family::Mov;
    default: return Family::Other;
  }
}
const char* family_name(Family f) {
  switch (f) {
    case Family::Matmul: return "matmul";
    case Family::Elw: return "elw";
    case Family::Gmpool: return "gmpool";
    case Family::Mov: return "mov";
    case Family::Other: break;
  }
  return "other";
}

// The arithmetic instructions, in table order.
constexpr std::array<Op, 7> kMathOps = {Op::MVMUL,  Op::DOTPV,  Op::GAPOOL, Op::ELWADD,
                                         Op::ELWSUB, Op::ELWMUL, Op::GMPOOL};
constexpr std::array<SrcStyle, 3> kFloatStyles = {SrcStyle::BF16, SrcStyle::FP16, SrcStyle::TF32};
constexpr std::array<Arch, 2> kArches = {Arch::Blackhole, Arch::Wormhole};
constexpr std::array<const char*, 3> kOperandSources = {"implied", "spec_override", "spec_reg"};

// Which ADDR_MOD family an instruction belongs to for the addr_mod coverpoints; nullptr when the
// instruction applies no AddrMod (ZEROACC modes 2 and 3 are handled by the caller).
const char* addr_mod_family(Op op) {
  switch (family_of(op)) {
    case Family::Matmul: case Family::Elw: case Family::Gmpool: return "math";
    case Family::Mov: return "mov";
    case Family::Other: break;
  }
  switch (op) {
    case Op::SHIFTXB: return "shiftxb";
    case Op::ZEROACC: return "zeroacc";
    case Op::CONV3S1: case Op::CONV3S2: case Op::APOOL3S1: case Op::APOOL3S2: case Op::MPOOL3S1: case Op::MPOOL3S2:
      return "legacy";
    default: return nullptr;
  }
}
constexpr std::array<const char*, 5> kAddrModFamilies = {"math", "mov", "shiftxb", "zeroacc", "legacy"};

std::string style_key(const MathMode& m) {
  if (m.fp16a_force) return "FP16A_FORCE";
  if (m.int8_math) return "INT8";
  return fmt::format("A{}_B{}", src_style_name(m.srca_style), src_style_name(m.srcb_style));
}
std::vector<std::string> all_style_keys() {
  std::vector<std::string> keys = {"FP16A_FORCE", "INT8"};
  for (SrcStyle a : kFloatStyles)
    for (SrcStyle b : kFloatStyles) keys.push_back(fmt::format("A{}_B{}", src_style_name(a), src_style_name(b)));
  return keys;
}

// The broadcast/argmax variants of an arithmetic instruction (the last axis of math_cross).
std::vector<std::string> variants_of(Op op) {
  switch (op) {
    case Op::MVMUL: return {"bcast_row0", "bcast_row1"};
    case Op::ELWADD: case Op::ELWSUB: case Op::ELWMUL: return {"row0_col0", "row0_col1", "row1_col0", "row1_col1"};
    case Op::GMPOOL: return {"argmax0", "argmax1"};
    default: return {"plain"};
  }
}
std::string variant_of(const Insn& insn) {
  switch (insn.op()) {
    case Op::MVMUL: return fmt::format("bcast_row{}", insn[Field::BroadcastSrcBRow]);
    case Op::ELWADD: case Op::ELWSUB: case Op::ELWMUL:
      return fmt::format("row{}_col{}", insn[Field::BroadcastSrcBRow], insn[Field::BroadcastSrcBCol0]);
    case Op::GMPOOL: return fmt::format("argmax{}", insn[Field::ArgMax]);
    default: return "plain";
  }
}

// A Dst operand as the model reads it (tmu/tensix/query.h); undefined_row for a row that is not valid.
ValueClass dst_class(const TensixState& s, uint32_t row, uint32_t col, bool dst32, bool int32, SrcStyle style) {
  if (dst32) {
    const std::optional<uint32_t> v = read_dst32(s, row, col);
    return v ? classify_dst32(*v, int32) : ValueClass::Undefined;
  }
  const std::optional<uint16_t> v = read_dst16(s, row, col);
  return v ? classify_dst16(*v, style) : ValueClass::Undefined;
}

// Accumulates the set of classes seen per operand, then hits each once per instruction.
struct ClassSet {
  std::array<bool, 8> seen{};
  void add(ValueClass c) { seen[static_cast<unsigned>(c)] = true; }
};

constexpr std::array<ValueClass, 8> kAllClasses = {ValueClass::Zero,   ValueClass::NegZero,     ValueClass::Denormal,
                                                   ValueClass::MaxExp, ValueClass::InfNan,      ValueClass::Int8Extreme,
                                                   ValueClass::Normal, ValueClass::Undefined};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Value classes

const char* value_class_name(ValueClass c) {
  switch (c) {
    case ValueClass::Zero: return "zero";
    case ValueClass::NegZero: return "neg_zero";
    case ValueClass::Denormal: return "denormal";
    case ValueClass::MaxExp: return "max_exp";
    case ValueClass::InfNan: return "inf_nan";
    case ValueClass::Int8Extreme: return "int8_extreme";
    case ValueClass::Normal: return "normal";
    case ValueClass::Undefined: return "undefined_row";
  }
  return "?";
}

namespace {
// Float classes from sign, exponent, mantissa and the all-ones exponent of the format. The Matrix
// Unit has no infinities or NaNs (FloatBitPatterns.md): the all-ones exponent is an ordinary
// exponent, and exactly those patterns are what an IEEE reader would call inf/NaN — the bin
// checks the RTL treats them as numbers. max_exp is the largest IEEE-finite exponent.
ValueClass float_class(uint32_t sign, uint32_t exponent, uint32_t mantissa, uint32_t exp_ones) {
  if (exponent == 0) return mantissa ? ValueClass::Denormal : (sign ? ValueClass::NegZero : ValueClass::Zero);
  if (exponent == exp_ones) return ValueClass::InfNan;
  if (exponent == exp_ones - 1) return ValueClass::MaxExp;
  return ValueClass::Normal;
}
ValueClass int_class(uint32_t sign, uint32_t magnitude, bool extreme) {
  if (magnitude == 0) return sign ? ValueClass::NegZero : ValueClass::Zero;
  return extreme ? ValueClass::Int8Extreme : ValueClass::Normal;
}
}  // namespace

ValueClass classify_src(uint32_t d, SrcStyle style) {
  const uint32_t sign = src_layout::sign(d);
  switch (style) {
    case SrcStyle::BF16: return float_class(sign, src_layout::exponent(d), src_layout::mantissa_hi7(d), 0xFF);
    case SrcStyle::TF32: return float_class(sign, src_layout::exponent(d), src_layout::mantissa(d), 0xFF);
    case SrcStyle::FP16: return float_class(sign, src_layout::exponent_lo5(d), src_layout::mantissa(d), 0x1F);
    case SrcStyle::INT8: {
      const uint32_t mag = src_layout::mantissa(d);
      return int_class(sign, mag, mag == 127 || mag == 1023);
    }
  }
  return ValueClass::Normal;
}

ValueClass classify_dst16(uint16_t v, SrcStyle style) {
  const uint32_t sign = dst_layout::sign16(v);
  switch (style) {
    case SrcStyle::BF16: case SrcStyle::TF32:
      return float_class(sign, dst_layout::bf16_exponent(v), dst_layout::bf16_mantissa(v), 0xFF);
    case SrcStyle::FP16: return float_class(sign, dst_layout::fp16_exponent(v), dst_layout::fp16_mantissa(v), 0x1F);
    case SrcStyle::INT8: {
      const uint32_t mag = dst_layout::fp16_mantissa(v);
      return int_class(sign, mag, mag == 127 || mag == 1023);
    }
  }
  return ValueClass::Normal;
}

ValueClass classify_dst32(uint32_t v, bool is_int32) {
  const uint32_t sign = v >> 31;
  if (is_int32) {
    // Sign-magnitude in the FP32 shuffle (formats.h): undo the shuffle for the magnitude.
    const uint32_t hi7 = (v >> 24) & 0x7F, mid8 = (v >> 16) & 0xFF, lo16 = v & 0xFFFF;
    const uint32_t mag = (mid8 << 23) | (hi7 << 16) | lo16;
    return int_class(sign, mag, mag == 0x7FFFFFFFu);
  }
  const uint32_t exponent = (v >> 16) & 0xFF;
  const uint32_t mantissa = ((v >> 24) & 0x7F) << 16 | (v & 0xFFFF);
  return float_class(sign, exponent, mantissa, 0xFF);
}

// ---------------------------------------------------------------------------------------------
// Declarations

Coverage::Coverage() {
  {
    Coverpoint& cp = declare("opcode_x_arch", "every instruction of each architecture's ISA table");
    for (Arch arch : kArches) {
      const Arch other = arch == Arch::Blackhole ? Arch::Wormhole : Arch::Blackhole;
      for (const InsnSpec& spec : instructions(arch)) {
        if (unit_in_rtl(spec.unit)) add_bin(cp, fmt::format("{}@{}", spec.mnemonic, arch_tag(arch)));
        else cp.excluded.emplace_back(fmt::format("{}@{}", spec.mnemonic, arch_tag(arch)), "the RTL has no unpacker or packer");
      }
      for (const InsnSpec& spec : instructions(other))
        if (!find_by_op(arch, spec.op))
          cp.excluded.emplace_back(fmt::format("{}@{}", spec.mnemonic, arch_tag(arch)),
                                   "not in this architecture's ISA");
    }
  }
  const std::vector<std::string> styles = all_style_keys();
  {
    Coverpoint& cp =
        declare("math_style", "arithmetic opcode x Src style pair (FP16A_FORCE, INT8 math, A<style>_B<style>)");
    for (Op op : kMathOps)
      for (const std::string& k : styles) add_bin(cp, fmt::format("{}:{}", op_name(op), k));
  }
  {
    Coverpoint& cp = declare("math_style_source",
                             "arithmetic opcode x arch x where each operand's style comes from (math_formats)");
    for (Op op : kMathOps)
      for (Arch arch : kArches) {
        const std::string pre = fmt::format("{}@{}:", op_name(op), arch_tag(arch));
        add_bin(cp, pre + "fp16a_force");
        add_bin(cp, pre + "int8_math");
        for (const char* operand : {"A", "B"})
          for (int i = 0; i < 3; ++i) {
            const std::string bin = fmt::format("{}{}_{}", pre, operand, kOperandSources[i]);
            if (arch == Arch::Wormhole && i == 0) cp.excluded.emplace_back(bin, "Wormhole has no implied Src formats");
            else add_bin(cp, bin);
          }
      }
  }
  {
    Coverpoint& cp = declare("math_fidelity", "arithmetic opcode x fidelity phase ((RWC + FIDELITY_BASE) & 3)");
    for (Op op : kMathOps) {
      for (unsigned ph = 0; ph < 4; ++ph) {
        const std::string bin = fmt::format("{}:ph{}", op_name(op), ph);
        if (op == Op::GMPOOL) cp.excluded.emplace_back(bin, "GMPOOL reads no fidelity phase");
        else add_bin(cp, bin);
      }
    }
  }
  {
    Coverpoint& cp = declare("math_dst_mode", "arithmetic opcode x Dst mode (dst32 = Fp32_enabled or INT8 math)");
    for (Op op : kMathOps)
      for (const char* d : {"dst16", "dst32"}) add_bin(cp, fmt::format("{}:{}", op_name(op), d));
  }
  {
    Coverpoint& cp = declare("math_variant", "MVMUL BroadcastSrcBRow, ELW* row x col0 broadcast, GMPOOL ArgMax");
    for (Op op : {Op::MVMUL, Op::ELWADD, Op::ELWSUB, Op::ELWMUL, Op::GMPOOL})
      for (const std::string& v : variants_of(op)) add_bin(cp, fmt::format("{}:{}", op_name(op), v));
  }
  {
    Coverpoint& cp = declare("math_cross", "opcode x style pair x fidelity phase x Dst mode x broadcast/argmax");
    for (Op op : kMathOps)
      for (const std::string& k : styles)
        for (unsigned ph = 0; ph < 4; ++ph)
          for (const char* d : {"dst16", "dst32"})
            for (const std::string& v : variants_of(op)) {
              if (op == Op::GMPOOL && ph != 0) continue;  // GMPOOL: no phase axis, listed as ph0
              const std::string bin = fmt::format("{}:{}:ph{}:{}:{}", op_name(op), k, ph, d, v);
              const bool dst32 = d[3] == '3';
              if (k == "FP16A_FORCE" && dst32) cp.excluded.emplace_back(bin, "FP16A_FORCE forces Dst16");
              else if (k == "INT8" && !dst32) cp.excluded.emplace_back(bin, "INT8 math forces Dst32");
              else add_bin(cp, bin);
            }
  }
  {
    Coverpoint& cp = declare("movb2d_mode", "MOVB2D Broadcast1RowTo8 x BroadcastCol0 x Move4Rows x UseDst32bLo");
    for (unsigned r = 0; r < 2; ++r)
      for (unsigned c = 0; c < 2; ++c)
        for (unsigned m4 = 0; m4 < 2; ++m4)
          for (unsigned lo = 0; lo < 2; ++lo) add_bin(cp, fmt::format("row8_{}:col0_{}:move4_{}:lo_{}", r, c, m4, lo));
  }
  {
    Coverpoint& cp = declare("addr_mod_mask",
                             "family x which counters the applied ADDR_MOD slot changes (A=SrcA, B=SrcB, D=Dst, "
                             "F=fidelity; incr, cr or clear non-zero)");
    for (const char* fam : kAddrModFamilies)
      for (unsigned m = 0; m < 16; ++m) {
        std::string s;
        for (unsigned b = 0; b < 4; ++b)
          if (m & (1u << b)) s += "ABDF"[b];
        add_bin(cp, fmt::format("{}:{}", fam, s.empty() ? "none" : s));
      }
  }
  {
    Coverpoint& cp = declare("addr_mod_fields", "each non-zero field of the applied ADDR_MOD slot");
    for (const char* f : {"srca_incr", "srca_cr", "srca_clear", "srcb_incr", "srcb_cr", "srcb_clear", "dst_incr",
                          "dst_cr", "dst_clear", "dst_ctocr", "fid_incr", "fid_clear", "bias_incr", "bias_clear"})
      add_bin(cp, f);
  }
  {
    Coverpoint& cp = declare("addr_mod_slot", "arch x the ADDR_MOD slot an instruction applies");
    for (Arch arch : kArches)
      for (unsigned slot = 0; slot < kNumAddrMods; ++slot) add_bin(cp, fmt::format("{}:slot{}", arch_tag(arch), slot));
    cp.excluded.emplace_back("bh:extra_bit", "Blackhole ApplyAddrMod with ExtraAddrModBit=1 is refused by the model");
  }
  {
    Coverpoint& cp = declare("operand_values",
                             "family x operand x special-value class of every element the instruction reads");
    for (const char* fam : {"matmul", "elw", "gmpool", "mov"})
      for (const char* operand : {"SrcA", "SrcB", "Dst"})
        for (ValueClass c : kAllClasses) {
          const std::string bin = fmt::format("{}:{}:{}", fam, operand, value_class_name(c));
          if (c == ValueClass::Undefined && operand[0] == 'S')
            cp.excluded.emplace_back(bin, "Src rows have no validity");
          else add_bin(cp, bin);
        }
  }
  {
    Coverpoint& cp = declare("zeroacc", "ZEROACC Mode x Revert x Dst mode (mode 0: the config's; else UseDst32b)");
    for (unsigned mode = 0; mode < 4; ++mode)
      for (unsigned rev = 0; rev < 2; ++rev)
        for (const char* d : {"dst16", "dst32"}) {
          const std::string bin = fmt::format("mode{}:revert{}:{}", mode, rev, d);
          if (rev && mode != 1) cp.excluded.emplace_back(bin, "Revert is undefined outside the 16-row mode");
          else add_bin(cp, bin);
        }
  }
  {
    Coverpoint& cp = declare("thread", "unit x issuing thread");
    for (const char* unit : {"MatrixUnit", "ScalarUnit"})
      for (unsigned t = 0; t < kNumThreads; ++t) add_bin(cp, fmt::format("{}:t{}", unit, t));
  }
  {
    Coverpoint& cp = declare("events", "RTL micro-architectural events (open: new names are added)");
    cp.open = true;
    for (const char* e : {"dst_hazard_stall", "src_wait_stall", "shiftxb_second_cycle", "gpr_thread_blocked",
                          "back_to_back_dependent_mvmul", "unpacker_backpressure"})
      add_bin(cp, e);
  }
}

// ---------------------------------------------------------------------------------------------
// Sampling

void Coverage::hit(std::string_view coverpoint, std::string_view bin) {
  Coverpoint& cp = point(coverpoint);
  if (CoverBin* b = cp.find(bin)) {
    ++b->hits;
    return;
  }
  if (cp.open) {
    cp.bins.push_back(CoverBin{std::string(bin), 1});
    return;
  }
  ++illegal_[fmt::format("{}/{}", coverpoint, bin)];
}

void Coverage::event(std::string_view name) { hit("events", name); }

void Coverage::sample(const TensixState& s, unsigned thread, uint32_t word) {
  ++samples_;
  arches_.insert(arch_tag(s.arch));
  Insn insn;
  try {
    insn = decode(word, s.arch);
  } catch (const Error&) {
    ++illegal_["opcode_x_arch/undecodable"];
    return;
  }
  thread %= kNumThreads;
  const Op op = insn.op();
  const Family fam = family_of(op);
  hit("opcode_x_arch", fmt::format("{}@{}", insn.mnemonic(), arch_tag(s.arch)));
  hit("thread", fmt::format("{}:t{}", unit_name(insn.spec->unit), thread));

  const MathMode mm = math_mode(s, thread);
  const ThreadConfigRegs& tc = s.ThreadConfig[thread];
  const unsigned phase = fidelity_phase(s, thread);
  const InsnAccess access = insn_access(s, thread, insn);

  // ---- arithmetic modes
  if (fam == Family::Matmul || fam == Family::Elw || fam == Family::Gmpool) {
    const std::string mn = insn.mnemonic();
    const std::string key = style_key(mm);
    const char* dmode = access.dst.dst32 ? "dst32" : "dst16";
    hit("math_style", fmt::format("{}:{}", mn, key));
    const std::string pre = fmt::format("{}@{}:", mn, arch_tag(s.arch));
    // FP16A_FORCE and INT8 math set both operands at once: one bin for the pair.
    if (mm.fp16a_force || mm.int8_math) hit("math_style_source", pre + style_source_name(mm.srca_source));
    else {
      hit("math_style_source", pre + "A_" + style_source_name(mm.srca_source));
      hit("math_style_source", pre + "B_" + style_source_name(mm.srcb_source));
    }
    if (op != Op::GMPOOL) hit("math_fidelity", fmt::format("{}:ph{}", mn, phase));
    hit("math_dst_mode", fmt::format("{}:{}", mn, dmode));
    const std::string variant = variant_of(insn);
    if (op != Op::DOTPV && op != Op::GAPOOL) hit("math_variant", fmt::format("{}:{}", mn, variant));
    hit("math_cross", fmt::format("{}:{}:ph{}:{}:{}", mn, key, op == Op::GMPOOL ? 0 : phase, dmode, variant));
  }
  if (op == Op::MOVB2D)
    hit("movb2d_mode", fmt::format("row8_{}:col0_{}:move4_{}:lo_{}", insn[Field::Broadcast1RowTo8],
                                   insn[Field::BroadcastCol0], insn[Field::Move4Rows], insn[Field::UseDst32bLo]));

  // ---- ZEROACC
  if (op == Op::ZEROACC) {
    const uint32_t mode = insn[Field::Mode];
    const bool dst32 = mode == 0 ? access.dst.dst32 : insn[Field::UseDst32b] != 0;
    hit("zeroacc", fmt::format("mode{}:revert{}:{}", mode, insn[Field::Revert], dst32 ? "dst32" : "dst16"));
  }

  // ---- ADDR_MOD of the slot the instruction applies
  const char* am_family = addr_mod_family(op);
  if (op == Op::ZEROACC && insn[Field::Mode] >= 2) am_family = nullptr;
  if (am_family && insn.has(Field::AddrMod)) {
    const std::optional<uint32_t> index = addr_mod_slot(s, thread, insn[Field::AddrMod]);
    if (!index) {
      ++illegal_["addr_mod_slot/bh:extra_bit"];
    } else {
      const uint32_t slot = *index;
      hit("addr_mod_slot", fmt::format("{}:slot{}", arch_tag(s.arch), slot));
      const AddrModAB& ab = tc.ADDR_MOD_AB_SEC[slot];
      const AddrModDst& d = tc.ADDR_MOD_DST_SEC[slot];
      const AddrModBias& bias = tc.ADDR_MOD_BIAS_SEC[slot];
      const bool a = ab.SrcAIncr || ab.SrcACR || ab.SrcAClear;
      const bool b = ab.SrcBIncr || ab.SrcBCR || ab.SrcBClear;
      const bool dd = d.DestIncr || d.DestCR || d.DestClear || d.DestCToCR;
      const bool f = d.FidelityIncr || d.FidelityClear;
      std::string m;
      if (a) m += 'A';
      if (b) m += 'B';
      if (dd) m += 'D';
      if (f) m += 'F';
      hit("addr_mod_mask", fmt::format("{}:{}", am_family, m.empty() ? "none" : m));
      const std::pair<bool, const char*> fields[] = {
          {ab.SrcAIncr != 0, "srca_incr"}, {ab.SrcACR, "srca_cr"},       {ab.SrcAClear, "srca_clear"},
          {ab.SrcBIncr != 0, "srcb_incr"}, {ab.SrcBCR, "srcb_cr"},       {ab.SrcBClear, "srcb_clear"},
          {d.DestIncr != 0, "dst_incr"},   {d.DestCR, "dst_cr"},         {d.DestClear, "dst_clear"},
          {d.DestCToCR, "dst_ctocr"},      {d.FidelityIncr != 0, "fid_incr"}, {d.FidelityClear, "fid_clear"},
          {bias.BiasIncr != 0, "bias_incr"}, {bias.BiasClear, "bias_clear"}};
      for (const auto& [on, name] : fields)
        if (on) hit("addr_mod_fields", name);
    }
  }

  // ---- operand values: every element the instruction reads (tmu/tensix/query.h's windows)
  if (fam == Family::Other) return;
  ClassSet ca, cb, cd;
  auto add_src = [&](ClassSet& set, const std::array<SrcBank, kSrcBanks>& banks, const SrcWindow& w) {
    if (w.written) return;
    const SrcBank& bank = banks[w.bank];
    for (unsigned i = 0; i < w.rows; ++i)
      for (unsigned j = 0; j < kSrcCols; ++j)
        set.add(classify_src(bank.Rows[(w.row + (w.one_row ? 0 : i)) & (kSrcRows - 1)][w.col0 ? 0 : j], w.style));
  };
  add_src(ca, s.SrcA, access.srca);
  add_src(cb, s.SrcB, access.srcb);
  const DstWindow& d = access.dst;
  // A move out of Dst is classified in the configuration's Dst mode, also under FP16A_FORCE (where
  // the move itself reads Dst16b).
  const bool dst32 = fam == Family::Mov ? mov_use_dst32b(s, thread) : d.dst32;
  for (unsigned i = 0; i < d.read_rows; ++i)
    for (unsigned j = 0; j < kSrcCols; ++j) cd.add(dst_class(s, d.row + i * d.step, j, dst32, d.int32, d.style));
  const char* fname = family_name(fam);
  const std::pair<const ClassSet*, const char*> operands[] = {{&ca, "SrcA"}, {&cb, "SrcB"}, {&cd, "Dst"}};
  for (const auto& [set, name] : operands)
    for (ValueClass c : kAllClasses)
      if (set->seen[static_cast<unsigned>(c)])
        hit("operand_values", fmt::format("{}:{}:{}", fname, name, value_class_name(c)));
}

}  // namespace tmu::tb

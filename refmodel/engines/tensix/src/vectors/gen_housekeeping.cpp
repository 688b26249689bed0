// Vectors of the Matrix Unit's housekeeping and data-shuffling instructions: ZEROACC; ZEROSRC,
// TRNSPSRCB, CLEARDVALID; SETRWC, INCRWC; SHIFTXA, SHIFTXB; the neutered legacy instructions,
// GATESRCRST and CLREXPHIST. Level 1 enumerates their modes and field combinations at the edges
// (row 0, the last row, counters that wrap, blocks out of range); level 2 randomises fields and state.
#include <fmt/format.h>

#include "gen.h"

namespace tmu::tensix::vectors::detail {

namespace {

enum class Kind : uint8_t { ZeroAcc, ZeroSrc, TrnspSrcB, ClearDvalid, SetRwc, IncRwc, ShiftXA, ShiftXB, Legacy, GateSrcRst, ClrExpHist };

struct KindInfo {
  Kind kind;
  const char* family;
  const char* stem;
  const char* what;
};
constexpr KindInfo kKinds[] = {
    {Kind::ZeroAcc, "zeroacc", "zeroacc", "ZEROACC: modes 0-3, 16/32-bit blocks, Revert, Blackhole's relative tile mode"},
    {Kind::ZeroSrc, "src", "zerosrc", "ZEROSRC: every combination of its five bits"},
    {Kind::TrnspSrcB, "src", "trnspsrcb", "TRNSPSRCB: both banks"},
    {Kind::ClearDvalid, "src", "cleardvalid", "CLEARDVALID: every combination of Reset, KeepReadingSameSrc, FlipSrcA, FlipSrcB"},
    {Kind::SetRwc, "rwc", "setrwc", "SETRWC: each counter, the carry forms, the fidelity reset and the bank flips"},
    {Kind::IncRwc, "rwc", "incrwc", "INCRWC: increments, carry forms and wrap-around"},
    {Kind::ShiftXA, "shift", "shiftxa", "SHIFTXA: both directions from the latched SrcA row blocks"},
    {Kind::ShiftXB, "shift", "shiftxb", "SHIFTXB: rotate and shift-in-zero, rows that wrap"},
    {Kind::Legacy, "legacy", "legacy-conv-pool", "CONV3S1, CONV3S2, MPOOL3S1, APOOL3S1, MPOOL3S2, APOOL3S2: bank flips and AddrMod"},
    {Kind::GateSrcRst, "legacy", "gatesrcrst", "GATESRCRST: no architectural effect"},
    {Kind::ClrExpHist, "legacy", "clrexphist", "CLREXPHIST: no architectural effect"},
};
constexpr Op kLegacyOps[] = {Op::CONV3S1, Op::CONV3S2, Op::MPOOL3S1, Op::APOOL3S1, Op::MPOOL3S2, Op::APOOL3S2};

// A value distinct per (row, column) with every bit position exercised, for data shuffles.
uint32_t tagged(unsigned row, unsigned col, unsigned salt) { return ((row * 16 + col) * 0x9E37u + salt * 0x51u) & kSrcDatumMask; }

class HousekeepingGenerator : public FileGenerator {
 public:
  HousekeepingGenerator(Kind kind, Arch arch) : kind_(kind), arch_(arch) {}

  std::vector<std::string> describe() const override {
    for (const KindInfo& k : kKinds)
      if (k.kind == kind_) return {k.what};
    return {};
  }

  size_t level1_count() const override {
    switch (kind_) {
      case Kind::ZeroAcc: return 12 + 20 + 4 + 3;
      case Kind::ZeroSrc: return 32;
      case Kind::TrnspSrcB: return 4;
      case Kind::ClearDvalid: return 16;
      case Kind::SetRwc: return kSetRwcCases.size();
      case Kind::IncRwc: return 8;
      case Kind::ShiftXA: return 8;
      case Kind::ShiftXB: return 6;
      case Kind::Legacy: return 3 * std::size(kLegacyOps);
      case Kind::GateSrcRst: return 4;
      case Kind::ClrExpHist: return 1;
    }
    return 0;
  }

  Vector level1(size_t i) const override {
    Rng fixed(fnv1a("level1", i));  // level-1 data is a constant of the corpus: no run seed in it
    return make(static_cast<unsigned>(i), nullptr, fixed);
  }
  Vector random(Rng& rng) const override { return make(0, &rng, rng); }

 private:
  Kind kind_;
  Arch arch_;

  // SETRWC level 1: the instruction's fields for each case.
  struct SetRwcCase {
    bool srca, srcb, dst, fidelity, srca_cr, srcb_cr, dst_cr, dst_c_to_cr, flip_a, flip_b;
    uint32_t srca_val, srcb_val, dst_val;
  };
  static constexpr std::array<SetRwcCase, 14> kSetRwcCases = {{
      {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0},   {1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 15, 0, 0},
      {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0},   {0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 15, 0},
      {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3},   {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 15},
      {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 7},   {0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 2},
      {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},   {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0},   {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0},
      {1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 15, 15, 15}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
  }};

  // Counters away from zero so that sets, carries and wraps all show.
  static Rwc busy_rwcs() {
    Rwc r;
    r.SrcA = 9;
    r.SrcA_Cr = 62;
    r.SrcB = 33;
    r.SrcB_Cr = 2;
    r.Dst = 1000;
    r.Dst_Cr = 513;
    r.FidelityPhase = 2;
    return r;
  }
  static Rwc random_rwcs(Rng& rng, Arch arch) {
    Rwc r;
    r.SrcA = static_cast<uint8_t>(rng.bits(6));
    r.SrcA_Cr = static_cast<uint8_t>(rng.bits(6));
    r.SrcB = static_cast<uint8_t>(rng.bits(6));
    r.SrcB_Cr = static_cast<uint8_t>(rng.bits(6));
    r.Dst = static_cast<uint16_t>(rng.bits(10));
    r.Dst_Cr = static_cast<uint16_t>(rng.bits(10));
    r.FidelityPhase = static_cast<uint8_t>(rng.bits(2));
    r.ExtraAddrModBit = arch == Arch::Wormhole ? static_cast<uint8_t>(rng.bits(1)) : 0;
    return r;
  }

  // Bank pointers and owners; `owners` are SrcA0, SrcA1, SrcB0, SrcB1 (1 = Matrix Unit).
  static void set_bank_state(Builder& b, unsigned a_ptr, unsigned b_ptr, unsigned unpack_a, unsigned unpack_b, unsigned owners) {
    b.set_global("SrcABank", a_ptr);
    b.set_global("SrcBBank", b_ptr);
    for (unsigned k = 0; k < 4; ++k) b.set_bank(k >= 2, k & 1, "AllowedClient", (owners >> k) & 1);
    b.set_unpacker(0, unpack_a);
    b.set_unpacker(1, unpack_b);
  }

  Vector make(unsigned i, Rng* random, Rng& rng) const {
    const unsigned thread = random ? rng.below(kNumThreads) : 0;
    Builder b(arch_, thread);
    MathEnv env = random ? random_env(*random, arch_, Op::SHIFTXB, 0) : level1_env(0);
    env.thread = thread;
    std::string note;
    switch (kind_) {
      case Kind::ZeroAcc: note = zeroacc(b, i, random, env); break;
      case Kind::ZeroSrc: {
        const unsigned bits = random ? rng.bits(5) : i;
        const unsigned a_ptr = random ? rng.bits(1) : 1, b_ptr = random ? rng.bits(1) : 0;
        const unsigned ua = random ? rng.bits(1) : 0, ub = random ? rng.bits(1) : 1;
        const bool both = bits & 4, matrix = bits & 8;
        if ((bits & 1) && !both) matrix ? b.set_global("SrcABank", a_ptr) : b.set_unpacker(0, ua);
        if ((bits & 2) && !both) matrix ? b.set_global("SrcBBank", b_ptr) : b.set_unpacker(1, ub);
        b.insn(Op::ZEROSRC, {{Field::ClearSrcA, bits & 1}, {Field::ClearSrcB, (bits >> 1) & 1}, {Field::BothBanks, both},
                             {Field::SingleBankMatrixUnit, matrix}, {Field::NegativeInfSrcA, (bits >> 4) & 1}});
        note = fmt::format("fields {:05b}", bits);
        break;
      }
      case Kind::TrnspSrcB: {
        const unsigned bank = random ? rng.bits(1) : (i & 1);
        b.set_global("SrcBBank", bank);
        b.set_bank(true, bank, "AllowedClient", 1);
        for (unsigned r = 16; r < 32; ++r)
          b.set_src_row(true, bank, r, row_of([&](unsigned c) { return (random || (i & 2)) ? rng.bits(19) : tagged(r, c, i); }));
        b.insn(Op::TRNSPSRCB, {});
        note = fmt::format("bank {}", bank);
        break;
      }
      case Kind::ClearDvalid: {
        const unsigned bits = random ? rng.bits(4) : i;
        const unsigned owners = random ? rng.bits(4) : 0xF;
        set_bank_state(b, random ? rng.bits(1) : 1, random ? rng.bits(1) : 0, random ? rng.bits(1) : 0, random ? rng.bits(1) : 1, owners);
        b.insn(Op::CLEARDVALID, {{Field::Reset, bits & 1}, {Field::KeepReadingSameSrc, (bits >> 1) & 1},
                                 {Field::FlipSrcA, (bits >> 2) & 1}, {Field::FlipSrcB, (bits >> 3) & 1}});
        note = fmt::format("Reset={} Keep={} FlipSrcA={} FlipSrcB={}", bits & 1, (bits >> 1) & 1, (bits >> 2) & 1, (bits >> 3) & 1);
        break;
      }
      case Kind::SetRwc: note = setrwc(b, i, random); break;
      case Kind::IncRwc: {
        apply_rwcs(b, random ? random_rwcs(*random, arch_) : busy_rwcs());
        const uint32_t a = random ? rng.bits(4) : (i * 5) & 15, bb = random ? rng.bits(4) : (i * 7 + 3) & 15;
        const uint32_t d = random ? rng.bits(4) : (15 - i) & 15;
        const unsigned cr = random ? rng.bits(3) : i;
        b.insn(Op::INCRWC, {{Field::SrcAInc, a}, {Field::SrcBInc, bb}, {Field::DstInc, d}, {Field::SrcACr, cr & 1},
                            {Field::SrcBCr, (cr >> 1) & 1}, {Field::DstCr, (cr >> 2) & 1}});
        note = fmt::format("SrcAInc={} SrcBInc={} DstInc={} carry bits {:03b}", a, bb, d, cr);
        break;
      }
      case Kind::ShiftXA: {
        static constexpr uint32_t kLatched[] = {0, 16, 37, 63};
        const uint32_t dir = random ? 2 + rng.bits(1) : 2 + (i & 1);
        const uint32_t latched = random ? rng.bits(6) : kLatched[i / 2];
        const unsigned bank = random ? rng.bits(1) : 0;
        b.set_global("SrcABank", bank);
        b.set_bank(false, bank, "AllowedClient", 1);
        b.set_global("LastSrcARow", latched);
        for (unsigned r = 0; r < 16; ++r)
          b.set_src_row(false, bank, (latched & 0x30) + r, row_of([&](unsigned c) { return random ? rng.bits(19) : tagged(r, c, latched); }));
        b.insn(Op::SHIFTXA, {{Field::Direction, dir}});
        note = fmt::format("{}, last SrcA row {}", dir == 2 ? "right" : "left", latched);
        break;
      }
      case Kind::ShiftXB: {
        static constexpr uint32_t kField[] = {0, 60, 40}, kCounter[] = {0, 3, 30};
        if (!random) {
          env.rwc.SrcB = static_cast<uint8_t>(kCounter[i / 2]);
          env.rwc.SrcA = 7;
        }
        const uint32_t field = random ? rng.bits(6) : kField[i / 2];
        const bool zero = random ? rng.chance(1, 2) : (i & 1);
        apply_rwcs(b, env.rwc);
        apply_addr_mod_slot(b, env);
        b.set_global("SrcBBank", env.srcb_bank);
        b.set_bank(true, env.srcb_bank, "AllowedClient", 1);
        const uint32_t row = (field + env.rwc.SrcB) & (kSrcRows - 1);
        b.set_src_row(true, env.srcb_bank, row, row_of([&](unsigned c) { return random ? rng.bits(19) : tagged(row, c, 3); }));
        b.insn(Op::SHIFTXB, {{Field::SrcRow, field}, {Field::ShiftInZero, zero}, {Field::AddrMod, env.addr_mod}});
        note = fmt::format("row {}{}", row, zero ? ", shift in zero" : ", rotate");
        break;
      }
      case Kind::Legacy: {
        const Op op = random ? kLegacyOps[rng.below(std::size(kLegacyOps))] : kLegacyOps[i % std::size(kLegacyOps)];
        const unsigned variant = random ? 3 : i / static_cast<unsigned>(std::size(kLegacyOps));
        if (variant == 1) env.flip_a = env.flip_b = true;
        if (variant == 2) env.flip_a = env.clr_disable_a = true;
        apply_rwcs(b, env.rwc);
        apply_addr_mod_slot(b, env);
        if (env.flip_a || env.flip_b) {
          set_bank_state(b, random ? rng.bits(1) : 1, random ? rng.bits(1) : 0, 0, 1, random ? rng.bits(4) : 0xF);
          if (env.flip_a) b.set_tcfg("CLR_DVALID_SrcA_Disable", env.clr_disable_a);
          if (env.flip_b) b.set_tcfg("CLR_DVALID_SrcB_Disable", env.clr_disable_b);
        }
        b.insn(op, {{Field::DstRow, env.dst_row_field}, {Field::AddrMod, env.addr_mod}, {Field::FlipSrcA, env.flip_a},
                    {Field::FlipSrcB, env.flip_b}});
        note = fmt::format("{}{}{}", find_by_op(arch_, op)->mnemonic, env.flip_a ? " FlipSrcA" : "", env.flip_b ? " FlipSrcB" : "");
        break;
      }
      case Kind::GateSrcRst: {
        const unsigned bits = random ? rng.bits(2) : i;
        b.insn(Op::GATESRCRST, {{Field::ResetSrcAGateControl, bits & 1}, {Field::InvalidateSrcBCache, bits >> 1}});
        note = fmt::format("fields {:02b}", bits);
        break;
      }
      case Kind::ClrExpHist:
        b.insn(Op::CLREXPHIST, {});
        note = "no fields";
        break;
    }
    return b.finish("", (random ? "level 2: " : "level 1: ") + note, {}, kind_ == Kind::ZeroAcc);
  }

  std::string setrwc(Builder& b, unsigned i, Rng* random) const {
    SetRwcCase c = kSetRwcCases[i % kSetRwcCases.size()];
    if (random) {
      const uint32_t bits = random->bits(13);
      c = SetRwcCase{bool(bits & 1), bool(bits & 2), bool(bits & 4), bool(bits & 8), bool(bits & 16), bool(bits & 32),
                     bool(bits & 64), bool(bits & 128), bool(bits & 256), bool(bits & 512),
                     random->bits(4), random->bits(4), random->bits(4)};
    }
    apply_rwcs(b, random ? random_rwcs(*random, arch_) : busy_rwcs());
    if (c.flip_a || c.flip_b) {
      set_bank_state(b, random ? random->bits(1) : 1, random ? random->bits(1) : 0, 0, 1, random ? random->bits(4) : 0xF);
      if (c.flip_a) b.set_tcfg("CLR_DVALID_SrcA_Disable", random ? random->bits(1) : (i & 1));
      if (c.flip_b) b.set_tcfg("CLR_DVALID_SrcB_Disable", random ? random->bits(1) : 0);
    }
    b.insn(Op::SETRWC, {{Field::SrcA, c.srca}, {Field::SrcB, c.srcb}, {Field::Dst, c.dst}, {Field::Fidelity, c.fidelity},
                        {Field::SrcAVal, c.srca_val}, {Field::SrcBVal, c.srcb_val}, {Field::DstVal, c.dst_val},
                        {Field::SrcACr, c.srca_cr}, {Field::SrcBCr, c.srcb_cr}, {Field::DstCr, c.dst_cr},
                        {Field::DstCtoCr, c.dst_c_to_cr}, {Field::FlipSrcA, c.flip_a}, {Field::FlipSrcB, c.flip_b}});
    return fmt::format("SrcA={:d} SrcB={:d} Dst={:d} Fidelity={:d} SrcACr={:d} SrcBCr={:d} DstCr={:d} DstCtoCr={:d} FlipSrcA={:d} "
                       "FlipSrcB={:d}",
                       c.srca, c.srcb, c.dst, c.fidelity, c.srca_cr, c.srcb_cr, c.dst_cr, c.dst_c_to_cr, c.flip_a, c.flip_b);
  }

  // ZEROACC level 1: 0-11 one row (Fp32 / INT8 / debug bit x Imm10), 12-31 sixteen rows
  // (UseDst32b x Revert x block), 32-35 Blackhole's relative tile mode, 36-38 half and all of Dst.
  std::string zeroacc(Builder& b, unsigned i, Rng* random, MathEnv& env) const {
    unsigned mode = 0, imm = 0;
    bool dst32 = false, revert = false;
    uint32_t wide_cfg = 0;  // bit 0 Fp32_enabled, 1 INT8_math_enabled, 2 DbgFeatureDisableBit11
    bool absolute = true;
    if (random) {
      mode = random->below(4);
      imm = random->bits(10);
      dst32 = random->bits(1);
      revert = mode == 1 && random->chance(1, 2);
      wide_cfg = random->chance(1, 2) ? 0 : 1u << random->below(3);
      absolute = random->chance(1, 2);
    } else if (i < 12) {
      static constexpr uint32_t kImm[] = {0, 17, 1023};
      wide_cfg = (i / 3) ? 1u << (i / 3 - 1) : 0;
      imm = kImm[i % 3];
      if (imm == 17) {
        env.dst_offset = 40;
        env.rwc.Dst = 3;
      }
    } else if (i < 32) {
      static constexpr uint32_t kBlock[] = {0, 5, 31, 63, 200};
      mode = 1;
      dst32 = (i - 12) & 1;
      revert = ((i - 12) >> 1) & 1;
      imm = kBlock[(i - 12) / 4];
    } else if (i < 36) {
      mode = 1;
      imm = 3;
      absolute = i == 35;
      dst32 = i == 33 || i == 34;
      env.dst_offset = i == 34 ? 0x100 : 0x200;
    } else {
      mode = i == 38 ? 3 : 2;
      imm = i - 36;
    }
    const bool uses_addr_mod = mode <= 1;
    if (uses_addr_mod) {
      apply_rwcs(b, env.rwc);
      apply_addr_mod_slot(b, env);
    }
    if (mode == 0) {
      b.set_tcfg("CFG_STATE_ID_StateID", env.state_id);
      apply_dst_offsets(b, env);
      b.set_cfg("ALU_ACC_CTRL_Fp32_enabled", wide_cfg & 1);
      b.set_cfg("ALU_ACC_CTRL_INT8_math_enabled", (wide_cfg >> 1) & 1);
      b.set_global("DbgFeatureDisableBit11", (wide_cfg >> 2) & 1);
    }
    if (mode == 1 && arch_ == Arch::Blackhole) {
      b.set_global("DEST_ACCESS_CFG_zeroacc_absolute_tile_mode", absolute);
      if (!absolute) b.set_tcfg("DEST_TARGET_REG_CFG_MATH_Offset", env.dst_offset);
    }
    // The rows start in the opposite state so that the change is visible.
    for (uint32_t row : zeroacc_rows(mode, imm, dst32, wide_cfg != 0, absolute, env)) b.set_dst_validity(row, !revert);
    b.insn(Op::ZEROACC, {{Field::Imm10, imm}, {Field::AddrMod, uses_addr_mod ? env.addr_mod : 0}, {Field::Revert, revert},
                         {Field::UseDst32b, dst32}, {Field::Mode, mode}});
    return fmt::format("Mode={} Imm10={} UseDst32b={:d} Revert={:d}", mode, imm, dst32, revert);
  }

  // The rows ZEROACC.md says each mode touches (with Blackhole's relative tile mode, ttsim).
  std::vector<uint32_t> zeroacc_rows(unsigned mode, unsigned imm, bool dst32, bool wide, bool absolute, const MathEnv& e) const {
    std::vector<uint32_t> rows;
    if (mode == 0) {
      const uint32_t row = (imm + e.dst_offset + e.rwc.Dst + e.regw_base) & (kDstRows - 1);
      rows.push_back(wide ? DstRegs::hi_row(row) : row);
    } else if (mode == 1) {
      uint32_t block = imm & 0xFF;
      if (arch_ == Arch::Blackhole && !absolute) {
        const uint32_t offset = e.dst_offset + e.rwc.Dst;
        if (dst32 ? (offset & 0x300) : (offset & 0x200)) block += dst32 ? 16 : 32;
      }
      if (block < (dst32 ? 32u : 64u))
        for (uint32_t r = 0; r < 16; ++r) rows.push_back(dst32 ? DstRegs::hi_row(block * 16 + r) : block * 16 + r);
    } else {
      const uint32_t first = (mode == 2 && (imm & 1)) ? kDstRows / 2 : 0;
      for (uint32_t r = first; r < first + (mode == 2 ? kDstRows / 2 : kDstRows); ++r) rows.push_back(r);
    }
    return rows;
  }
};

}  // namespace

void plan_housekeeping_files(std::vector<FileSpec>& out) {
  for (const KindInfo& k : kKinds) {
    FileSpec s;
    s.family = k.family;
    s.stem = k.stem;
    s.option = k.stem;
    out.push_back(s);
  }
}

std::unique_ptr<FileGenerator> make_housekeeping_generator(const FileSpec& spec, Arch arch) {
  for (const KindInfo& k : kKinds)
    if (spec.stem == k.stem) return std::make_unique<HousekeepingGenerator>(k.kind, arch);
  return nullptr;
}

}  // namespace tmu::tensix::vectors::detail

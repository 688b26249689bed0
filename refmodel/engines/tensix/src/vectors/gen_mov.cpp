// MOVA2D, MOVB2D, MOVD2A, MOVD2B and MOVB2A vectors. Level 1 moves rows made of the format's
// classes, of the other operand's classes and of datums with the bits a conversion drops set (BF16
// mantissa bits 10:8, FP16 exponent bits 7:5), with the denormal flush on and off and, where the
// instruction reads Dst, with valid and invalid rows; each shape of the instruction (1, 4 or 8
// rows, the MOVB2D broadcasts) gets its own vectors.
#include <fmt/format.h>

#include "gen.h"

namespace tmu::tensix::vectors::detail {

namespace {

enum class MovOp : uint8_t { A2D, B2D, D2A, D2B, B2A };
constexpr const char* kMovNames[] = {"mova2d", "movb2d", "movd2a", "movd2b", "movb2a"};
constexpr Op kMovOps[] = {Op::MOVA2D, Op::MOVB2D, Op::MOVD2A, Op::MOVD2B, Op::MOVB2A};

struct MovSpec {
  MovOp op = MovOp::A2D;
  Fmt fmt = Fmt::BF16;
  bool dst32 = false;  // MOVD2*: ALU_ACC_CTRL_Fp32/INT8 select Dst32b
  bool lo = false;     // UseDst32bLo
  bool bcast_row = false, bcast_col = false;  // MOVB2D
};

// One instruction form: rows moved and which source rows feed them.
struct Shape {
  unsigned count;       // 1, 4 or 8 rows
  unsigned content;     // first row pattern (0 classes, 1 other classes, 2 dropped bits, 3+ patterns)
  bool bcast_row, bcast_col;
  const char* name;
};

class MovGenerator : public FileGenerator {
 public:
  MovGenerator(const MovSpec& s, Arch arch)
      : s_(s), arch_(arch), a_(src_classes(s.fmt, Role::SrcA, -3)), b_(src_classes(s.fmt, Role::SrcB, -3)) {}

  std::vector<std::string> describe() const override {
    return {fmt::format("{}: data format {}{}{}{}{}", find_by_op(arch_, op())->mnemonic, fmt_name(s_.fmt),
                        from_dst() ? fmt::format(", {}-bit Dst", s_.dst32 ? 32 : 16) : "", s_.lo ? ", UseDst32bLo" : "",
                        s_.bcast_row ? ", Broadcast1RowTo8" : "", s_.bcast_col ? ", BroadcastCol0" : ""),
            "row patterns: 0 SrcA classes (" + class_legend(a_) + "), 1 SrcB classes, 2 datums with the bits "
            "conversions drop set, 3+ fixed pseudo-random patterns"};
  }

  size_t level1_count() const override { return shapes().size() * flush_variants() * prior_variants() * enable_variants(); }

  Vector level1(size_t index) const override {
    const auto sh = shapes();
    const size_t prior = index % prior_variants();
    index /= prior_variants();
    const size_t enable = index % enable_variants();
    index /= enable_variants();
    const bool flush = index % flush_variants() == 0;
    const Shape& shape = sh[index / flush_variants()];
    MathEnv env = level1_env(0);
    env.zero_flag_disabled = !flush;
    Rng patterns(fnv1a(shape.name, 0x5EED));  // level-1 data is a constant of the corpus: no run seed in it
    Builder b(arch_, 0);
    build(b, env, shape, [&](unsigned r) { return pattern_row(r, patterns); }, prior == 0, enable == 1);
    return b.finish("", fmt::format("level 1: {}; flush {}{}{}", shape.name, flush ? "on" : "off",
                                    reads_dst() ? (prior == 0 ? "; Dst rows valid" : "; Dst rows invalid") : "",
                                    enable ? "; Dst32b through INT8_math_enabled" : ""),
                    views());
  }

  Vector random(Rng& rng) const override {
    MathEnv env = random_env(rng, arch_, op(), 0);
    const auto sh = shapes();
    const Shape& shape = sh[rng.below(static_cast<uint32_t>(sh.size()))];
    if (s_.op == MovOp::B2A) {  // MOVB2A rows must be 4-aligned (the only form any source defines)
      env.rwc.SrcA &= 0x3C;
      env.rwc.SrcB &= 0x3C;
    }
    Builder b(arch_, env.thread);
    build(b, env, shape, [&](unsigned) { return random_row(rng); }, !rng.chance(1, 4), rng.chance(1, 2));
    return b.finish("", fmt::format("level 2: {}, random data", shape.name), views());
  }

 private:
  MovSpec s_;
  Arch arch_;
  std::array<Named, kNumSrcClasses> a_, b_;

  Op op() const { return kMovOps[static_cast<unsigned>(s_.op)]; }
  bool from_dst() const { return s_.op == MovOp::D2A || s_.op == MovOp::D2B; }
  bool reads_flush() const { return !from_dst(); }
  // MOVA2D/MOVB2D with UseDst32bLo keep the high half: Dst is read.
  bool reads_dst() const { return from_dst() || (s_.lo && s_.fmt != Fmt::TF32); }
  size_t flush_variants() const { return reads_flush() ? 2 : 1; }
  size_t prior_variants() const { return reads_dst() ? 2 : 1; }
  size_t enable_variants() const { return from_dst() && s_.dst32 ? 2 : 1; }

  std::vector<Shape> shapes() const {
    switch (s_.op) {
      case MovOp::A2D: return {{8, 0, false, false, "8 rows"}, {1, 0, false, false, "1 row of classes"},
                               {1, 1, false, false, "1 row of SrcB classes"}, {1, 2, false, false, "1 row of dropped bits"}};
      case MovOp::B2D:
        if (s_.bcast_row)
          return {{8, 0, true, false, "row 0 to 8 rows"}, {8, 2, true, false, "dropped-bits row to 8 rows"}};
        if (s_.bcast_col)
          return {{4, 0, false, true, "4 rows, column 0"}, {1, 1, false, true, "1 row, column 0"},
                  {8, 2, true, true, "row to 8 rows, column 0"}};
        return {{4, 0, false, false, "4 rows"}, {1, 0, false, false, "1 row of classes"},
                {1, 1, false, false, "1 row of SrcA-role classes"}, {1, 2, false, false, "1 row of dropped bits"}};
      case MovOp::D2A:
      case MovOp::D2B: return {{4, 0, false, false, "4 rows"}, {1, 0, false, false, "1 row of classes"}, {1, 2, false, false, "1 row of patterns"}};
      case MovOp::B2A: return {{4, 0, false, false, "4 rows"}, {4, 1, false, false, "4 rows of SrcB classes"}};
    }
    return {};
  }

  Builder::Views views() const {
    const View src = src_view_of(s_.fmt);
    View dst = View::Raw;
    if (from_dst()) dst = s_.lo ? View::Raw : s_.dst32 ? (s_.fmt == Fmt::INT8 ? View::INT32 : View::FP32) : dst16_view();
    else if (s_.fmt == Fmt::TF32) dst = View::FP32;
    else if (!s_.lo) dst = dst16_view();
    return {src, src, dst};
  }
  View dst16_view() const { return s_.fmt == Fmt::INT8 ? View::INT8 : s_.fmt == Fmt::FP16 ? View::FP16 : View::BF16; }

  // Datums with the bits the conversion to Dst drops set.
  uint32_t with_dropped_bits(uint32_t d) const {
    switch (s_.fmt) {
      case Fmt::BF16: return with_bits<10, 8>(d, 0x5);                            // below the BF16 mantissa
      case Fmt::TF32: return with_bits<9, 8>(d, bits<9, 8>(d) ^ 3);               // TF32 keeps every bit: flip two
      default: return with_bits<7, 5>(d, 0x3);                                   // above the FP16 exponent
    }
  }

  std::array<uint32_t, 16> pattern_row(unsigned r, Rng& patterns) const {
    if (from_dst()) return dst_pattern_row(r, patterns);
    // Each row starts at a different class, so that column 0 (what BroadcastCol0 copies) differs.
    auto cls = [&](unsigned c) { return (c + r * 7 + 6) % kNumSrcClasses; };
    switch (r) {
      case 0: return row_of([&](unsigned c) { return a_[cls(c)].bits; });
      case 1: return row_of([&](unsigned c) { return b_[cls(c)].bits; });
      case 2: return row_of([&](unsigned c) { return with_dropped_bits(a_[cls(c)].bits); });
      default: return random_row(patterns);
    }
  }

  // Dst contents for MOVD2A/MOVD2B: the Dst classes of the format and values whose low bits the
  // conversion to Src drops (FP32 -> BF16/TF32 truncation), then those with the low bits set.
  std::array<uint32_t, 16> dst_pattern_row(unsigned r, Rng& patterns) const {
    if (r > 2) return random_row(patterns);
    std::vector<uint32_t> v;
    if (s_.fmt == Fmt::INT8 && !s_.dst32) {
      // Dst16 INT8 (the FP16 layout): sign 15, magnitude 14:5, marker 4:0 (16, or 0 for zero).
      for (uint32_t mag : {0u, 1u, 127u, 128u, 255u, 1023u, 0x155u, 0x2AAu})
        for (uint32_t sign : {0u, 1u})
          v.push_back(with_bits<15, 15>(with_bits<14, 5>(with_bits<4, 0>(0, mag ? src_layout::kInt8Marker : 0), mag), sign));
    } else {
      for (const DstClass& d : dst_classes(s_.fmt, s_.dst32)) v.push_back(d.value);
      const std::array<uint32_t, 6> extra32 = {0x3F80FFFF, 0x3F801000, 0xBF7FFFFF, 0x00800001, 0x7F7FFFFF, 0x80000001};
      const std::array<uint32_t, 6> extra16 = {0x3F81, 0x3C01, 0xBF7F, 0x0081, 0x7BFF, 0x8001};
      for (unsigned k = 0; k < 6; ++k) {
        if (s_.dst32) v.push_back(s_.fmt == Fmt::INT8 ? dst32_from_int32(static_cast<int32_t>(extra32[k] >> 1)) : dst32_from_fp32(extra32[k]));
        else v.push_back(s_.fmt == Fmt::FP16 ? dst16_from_fp16(static_cast<uint16_t>(extra16[k])) : dst16_from_bf16(static_cast<uint16_t>(extra16[k])));
      }
    }
    if (r == 1) return row_of([&](unsigned c) { return v[(c + 7) % v.size()]; });
    const uint32_t low_bits = s_.dst32 ? 0x1FFFu : 0x3u;
    return row_of([&](unsigned c) { return r == 2 ? (v[c % v.size()] | low_bits) : v[c % v.size()]; });
  }

  std::array<uint32_t, 16> random_row(Rng& rng) const {
    if (!from_dst()) return row_of([&](unsigned) { return random_src_pattern(rng, s_.fmt); });
    if (s_.dst32 || s_.lo) return row_of([&](unsigned) { return static_cast<uint32_t>(rng.next()); });
    return row_of([&](unsigned) { return rng.bits(16); });
  }

  uint32_t format_code() const { return static_cast<uint32_t>(data_format_of(s_.fmt)); }

  // What MOV*'s "SrcAFmt" comes from (mov_srca_format in the model): the moved bank's tag on
  // Blackhole with implied formats, else the SrcA override or ALU_FORMAT_SPEC_REG0_SrcA.
  void apply_srca_format(Builder& b, const MathEnv& e, bool tag_bank_is_srcb, unsigned tag_bank) const {
    if (arch_ == Arch::Blackhole) {
      const bool use_tag = e.path == FormatPath::BankTag;
      b.set_tcfg("DISABLE_IMPLIED_SRCA_FMT_Base", !use_tag);
      if (use_tag) return b.set_bank(tag_bank_is_srcb, tag_bank, "Format", format_code());
    }
    const bool override_on = e.path == FormatPath::Override;
    b.set_cfg("ALU_FORMAT_SPEC_REG_SrcA_override", override_on);
    b.set_cfg(override_on ? "ALU_FORMAT_SPEC_REG_SrcA_val" : "ALU_FORMAT_SPEC_REG0_SrcA", format_code());
  }
  // MOVB2D also reads SrcB in its own format (ttsim): the SrcB tag or ALU_FORMAT_SPEC_REG1_SrcB.
  void apply_srcb_format(Builder& b, const MathEnv& e) const {
    if (arch_ == Arch::Blackhole) {
      const bool use_tag = e.path == FormatPath::BankTag;
      b.set_tcfg("DISABLE_IMPLIED_SRCB_FMT_Base", !use_tag);
      if (use_tag) return b.set_bank(true, e.srcb_bank, "Format", format_code());
    }
    b.set_cfg("ALU_FORMAT_SPEC_REG1_SrcB", format_code());
  }

  template <typename Rows>
  void build(Builder& b, const MathEnv& e, const Shape& shape, Rows rows, bool dst_valid, bool int8_enable) const {
    b.set_tcfg("CFG_STATE_ID_StateID", e.state_id);
    apply_rwcs(b, e.rwc);
    apply_addr_mod_slot(b, e);
    const bool b2a = s_.op == MovOp::B2A;
    if (!b2a) apply_dst_offsets(b, e);
    // The bank pointers each instruction uses, and the ownership of the bank it waits for.
    const bool uses_a = s_.op == MovOp::A2D || s_.op == MovOp::D2A || b2a;
    const bool uses_b = !uses_a || b2a;
    if (uses_a) b.set_global("SrcABank", e.srca_bank);
    if (uses_b) b.set_global("SrcBBank", e.srcb_bank);
    if (s_.op == MovOp::A2D) b.set_bank(false, e.srca_bank, "AllowedClient", 1);
    if (s_.op == MovOp::B2D || b2a) b.set_bank(true, e.srcb_bank, "AllowedClient", 1);
    if (reads_flush()) b.set_cfg("ALU_ACC_CTRL_Zero_Flag_disabled_src", e.zero_flag_disabled);
    if (!b2a) b.set_tcfg("FP16A_FORCE_Enable", 0);
    switch (s_.op) {
      case MovOp::A2D: apply_srca_format(b, e, false, e.srca_bank); break;
      case MovOp::B2D:
        apply_srca_format(b, e, true, e.srcb_bank);
        apply_srcb_format(b, e);
        break;
      case MovOp::D2A: apply_srca_format(b, e, false, e.srca_bank); break;
      case MovOp::D2B: apply_srca_format(b, e, true, e.srcb_bank); break;
      case MovOp::B2A: break;
    }
    if (from_dst()) {
      b.set_cfg("ALU_ACC_CTRL_Fp32_enabled", s_.dst32 && !int8_enable);
      b.set_cfg("ALU_ACC_CTRL_INT8_math_enabled", s_.dst32 && int8_enable);
    }
    const uint32_t row_field = b2a ? 0 : e.dst_row_field & 0x3F;
    if (b2a) return build_b2a(b, e, shape, rows);
    const unsigned block = shape.bcast_row ? 8 : shape.count;
    const uint32_t src_counter = (s_.op == MovOp::A2D || s_.op == MovOp::D2A) ? e.rwc.SrcA : e.rwc.SrcB;
    const uint32_t src_row = (row_field + src_counter) & (kSrcRows - 1) & (shape.bcast_row ? ~0u : ~(block - 1));
    const uint32_t dst_row = dst_row_unaligned(e) & (kDstRows - 1) & ~(block - 1);
    const bool dst_is_32 = from_dst() ? s_.dst32 : (s_.fmt == Fmt::TF32 || s_.lo);
    if (!(from_dst() ? s_.dst32 : dst_is_32)) b.set_global("DbgFeatureDisableBit11", 0);
    for (unsigned i = 0; i < block; ++i) {
      const auto values = rows(shape.content + i);
      if (from_dst()) {
        if (s_.dst32) b.set_dst32_row(dst_row + i, dst_valid, values);
        else b.set_dst_row(dst_row + i, dst_valid, values);
      } else {
        if (!shape.bcast_row || i == 0) b.set_src_row(s_.op == MovOp::B2D, s_.op == MovOp::B2D ? e.srcb_bank : e.srca_bank, src_row + i, values);
        if (reads_dst()) b.set_dst32_row(dst_row + i, dst_valid, row_of([&](unsigned c) { return values[c] * 0x9E3779B1u; }));
        else if (dst_is_32) b.set_dst_validity(DstRegs::lo_row(dst_row + i), false);
      }
    }
    const Op o = op();
    const Field count_field = s_.op == MovOp::A2D ? Field::Move8Rows : Field::Move4Rows;
    if (s_.op == MovOp::B2D)
      b.insn(o, {{Field::DstRow, e.dst_row_field}, {Field::BroadcastCol0, shape.bcast_col}, {Field::Broadcast1RowTo8, shape.bcast_row},
                 {Field::Move4Rows, shape.count == 4}, {Field::AddrMod, e.addr_mod}, {Field::SrcRow, row_field},
                 {Field::UseDst32bLo, s_.lo}});
    else
      b.insn(o, {{Field::DstRow, e.dst_row_field}, {count_field, shape.count > 1}, {Field::AddrMod, e.addr_mod},
                 {Field::SrcRow, row_field}, {Field::UseDst32bLo, s_.lo}});
  }

  template <typename Rows>
  void build_b2a(Builder& b, const MathEnv& e, const Shape& shape, Rows rows) const {
    // Level 1 varies the rows through the fields; the counters (level 2) are already 4-aligned.
    // The row is field + counter, unwrapped: pick a 4-aligned row at or above the counter.
    auto row_above = [](uint32_t counter, uint32_t wanted) { return counter + ((wanted % (kSrcRows - counter)) & 0x3Cu); };
    const uint32_t a_row = row_above(e.rwc.SrcA, shape.content == 0 ? 60 : 8);
    const uint32_t b_row = row_above(e.rwc.SrcB, shape.content == 0 ? 4 : 32);
    for (unsigned i = 0; i < 4; ++i) b.set_src_row(true, e.srcb_bank, b_row + i, rows(shape.content + i));
    b.insn(Op::MOVB2A, {{Field::SrcBRow, b_row - e.rwc.SrcB}, {Field::Move4Rows, 1}, {Field::AddrMod, e.addr_mod},
                        {Field::SrcARow, a_row - e.rwc.SrcA}});
  }
};

}  // namespace

void plan_mov_files(std::vector<FileSpec>& out) {
  auto add = [&](MovOp op, Fmt f, int dst, const std::string& option) {
    FileSpec s;
    s.family = "mov";
    s.format = fmt_name(f);
    s.dst_bits = dst;
    s.option = kMovNames[static_cast<unsigned>(op)] + (option.empty() ? "" : "-" + option);
    const bool dst_in_name = op == MovOp::D2A || op == MovOp::D2B;
    s.stem = fmt::format("{}-{}{}{}{}", kMovNames[static_cast<unsigned>(op)], s.format, dst_in_name ? fmt::format("-d{}", dst) : "",
                         option.empty() ? "" : "-", option);
    out.push_back(s);
  };
  for (Fmt f : {Fmt::BF16, Fmt::FP16, Fmt::TF32, Fmt::INT8}) {
    const int natural = f == Fmt::TF32 ? 32 : 16;
    add(MovOp::A2D, f, natural, "");
    add(MovOp::A2D, f, 32, "lo");
    for (const char* opt : {"", "lo", "bcastrow", "bcastcol"}) add(MovOp::B2D, f, std::string(opt) == "lo" ? 32 : natural, opt);
    for (MovOp op : {MovOp::D2A, MovOp::D2B}) {
      if (f != Fmt::TF32) add(op, f, 16, "");  // TF32 from Dst16b is undefined
      add(op, f, 32, "");
      add(op, f, 32, "lo");
    }
    add(MovOp::B2A, f, 0, "");
  }
}

std::unique_ptr<FileGenerator> make_mov_generator(const FileSpec& spec, Arch arch) {
  MovSpec m;
  parse_fmt(spec.format, &m.fmt);
  for (unsigned i = 0; i < 5; ++i)
    if (spec.option.rfind(kMovNames[i], 0) == 0) m.op = static_cast<MovOp>(i);
  m.dst32 = spec.dst_bits == 32;
  const std::string variant = spec.option.size() > 6 ? spec.option.substr(7) : "";
  m.lo = variant == "lo";
  m.bcast_row = variant == "bcastrow";
  m.bcast_col = variant == "bcastcol";
  return std::make_unique<MovGenerator>(m, arch);
}

}  // namespace tmu::tensix::vectors::detail

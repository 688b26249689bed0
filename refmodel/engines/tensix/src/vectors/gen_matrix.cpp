// MVMUL (with DOTPV and GAPOOL) and ELWMUL/ELWADD/ELWSUB vectors.
//
// Level 1 crosses the sixteen SrcA classes (one per column j) with the sixteen SrcB classes (one per
// output row, eight at a time, or one per column under a row broadcast) and the ten Dst classes
// (one per output row, rotated across vectors so every (SrcB, Dst) pair meets), so each vector
// checks up to 128 distinct class triples. MVMUL places the operands at dot-product positions
// chosen by a pattern: k = 0 only (the bare product), all sixteen (equal products in both groups of
// eight), or k = 0 and k = 8 with opposite signs (exact cancellation between the groups).
#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "gen.h"

namespace tmu::tensix::vectors::detail {

namespace {

enum class Bcast : uint8_t { None, Row, Col, Scalar };

const char* bcast_option(Bcast b) {
  switch (b) {
    case Bcast::None: return "";
    case Bcast::Row: return "bcastrow";
    case Bcast::Col: return "bcastcol";
    case Bcast::Scalar: return "bcastscalar";
  }
  return "";
}

enum class KPattern : uint8_t { Single, All, Cancel };
constexpr unsigned kNumKPatterns = 3;
const char* kpattern_name(KPattern p) {
  switch (p) {
    case KPattern::Single: return "products at k=0";
    case KPattern::All: return "equal products at every k";
    case KPattern::Cancel: return "k=0 and k=8 cancel";
  }
  return "";
}

struct MatrixSpec {
  Op op = Op::MVMUL;
  Fmt fmt = Fmt::BF16;
  bool dst32 = false;
  unsigned phase = 0;
  Bcast bcast = Bcast::None;
};

constexpr unsigned kRows = 8;
constexpr unsigned kCols = 16;

class MatrixGenerator : public FileGenerator {
 public:
  MatrixGenerator(const MatrixSpec& spec, Arch arch) : spec_(spec), arch_(arch) {
    const int half_ulp = half_ulp_exponent(spec.fmt, spec.dst32);
    // Multiplies tie when the two tie operands' slice product is half an ulp of a Dst of 1; the
    // adds when the tie operand alone is, after ELWADD's phase division.
    int tie_a = 0, tie_b = 0;
    if (is_add()) {
      tie_a = tie_b = half_ulp + ((spec.phase & 1) ? 5 : 0) + ((spec.phase & 2) ? 7 : 0);
    } else {
      std::tie(tie_a, tie_b) = tie_exponents(half_ulp, spec.phase);
    }
    a_ = src_classes(spec.fmt, Role::SrcA, tie_a);
    b_ = src_classes(spec.fmt, Role::SrcB, tie_b);
    if (is_add() && spec.fmt != Fmt::INT8) {  // the adds read whole operands: plain powers of two tie
      a_[13] = {"+tie", power_of_two(tie_a)};
      a_[14] = {"-tie", negate_src(a_[13].bits)};
      b_[13] = {"+tie", power_of_two(tie_b)};
      b_[14] = {"-tie", negate_src(b_[13].bits)};
    }
    d_ = dst_classes(spec.fmt, spec.dst32);
  }

  std::vector<std::string> describe() const override {
    std::vector<std::string> lines;
    lines.push_back(fmt::format("{}: data format {}, fidelity phase {}, {}-bit Dst{}{}", mnemonics(), fmt_name(spec_.fmt),
                                spec_.phase, spec_.dst32 ? 32 : 16, spec_.bcast == Bcast::None ? "" : ", ",
                                broadcast_text()));
    lines.push_back("SrcA classes (by column): " + class_legend(a_));
    lines.push_back("SrcB classes: " + class_legend(b_));
    lines.push_back("Dst classes (by row, rotated): " + class_legend(d_));
    return lines;
  }

  size_t level1_count() const override {
    if (is_mvmul_family()) {
      if (spec_.bcast == Bcast::Row) return kNumKPatterns * kNumSrcClasses * row_rotations(4);
      return kNumKPatterns * 2 * d_.size() + 4;  // + 2 DOTPV and 2 GAPOOL
    }
    const ElwCounts c = elw_counts();
    return c.layouts * c.rotations + (is_add() ? c.layouts : 0) + 2;
  }

  Vector level1(size_t index) const override {
    return is_mvmul_family() ? mvmul_level1(index) : elw_level1(index);
  }

  Vector random(Rng& rng) const override {
    const Op op = pick_random_op(rng);
    MathEnv env = random_env(rng, arch_, op, spec_.phase);
    if (is_mvmul_family()) env.zero_flag_disabled = false;  // read but unused by matmuls
    Builder b(arch_, env.thread);
    apply_math_env(b, config(), env);
    const Layout lay = layout(op, env);
    const int center = 0, spread = spec_.fmt == Fmt::INT8 ? 0 : 4;
    if (is_mvmul_family()) {
      for (unsigned k = 0; k < 16; ++k)
        b.set_src_row(false, env.srca_bank, lay.srca_row + k, row_of([&](unsigned) { return random_src(rng, spec_.fmt, a_, center, spread); }));
    } else {
      for (unsigned i = 0; i < kRows; ++i)
        b.set_src_row(false, env.srca_bank, lay.srca_row + i, row_of([&](unsigned) { return random_src(rng, spec_.fmt, a_, center, spread); }));
    }
    for (unsigned r : lay.srcb_rows)
      b.set_src_row(true, env.srcb_bank, lay.srcb_row + r, row_of([&](unsigned) { return random_src(rng, spec_.fmt, b_, center, spread); }));
    const bool add_dst = !is_add() || rng.chance(3, 4);  // only ELWADD/ELWSUB may leave Dst unread
    if (add_dst) {
      for (unsigned i : lay.dst_rows) {
        const bool valid = !rng.chance(1, 8);
        set_dst(b, lay.dst_base + i, valid, row_of([&](unsigned) { return random_dst(rng, spec_.fmt, spec_.dst32, 1, 4); }));
      }
    } else {
      prepare_write_only_rows(b, lay);
    }
    // ELWMUL accumulates whatever its AddDst bit says (ttsim): the bit is drawn too.
    emit(b, op, env, op == Op::ELWMUL ? rng.chance(1, 2) : add_dst);
    return b.finish("", fmt::format("level 2: {} random operands", find_by_op(arch_, op)->mnemonic), views());
  }

 private:
  MatrixSpec spec_;
  Arch arch_;
  std::array<Named, kNumSrcClasses> a_{}, b_{};
  std::vector<DstClass> d_;

  bool is_mvmul_family() const { return spec_.op == Op::MVMUL; }
  bool is_add() const { return spec_.op == Op::ELWADD || spec_.op == Op::ELWSUB; }

  uint32_t power_of_two(int exponent) const {
    const int biased = std::clamp(exponent_bias(spec_.fmt) + exponent, 1, static_cast<int>(max_exponent(spec_.fmt)));
    return src_float(spec_.fmt, 0, static_cast<uint32_t>(biased), 0);
  }

  std::string mnemonics() const {
    if (is_mvmul_family()) return spec_.bcast == Bcast::Row ? "MVMUL" : "MVMUL, DOTPV, GAPOOL";
    return find_by_op(arch_, spec_.op)->mnemonic;
  }
  std::string broadcast_text() const {
    switch (spec_.bcast) {
      case Bcast::None: return "";
      case Bcast::Row: return "SrcB row broadcast";
      case Bcast::Col: return "SrcB column 0 broadcast";
      case Bcast::Scalar: return "SrcB row and column 0 broadcast (scalar)";
    }
    return "";
  }

  MathConfig config() const { return MathConfig{spec_.fmt, spec_.dst32, true, true}; }
  Builder::Views views() const {
    return {src_view_of(spec_.fmt), src_view_of(spec_.fmt), math_dst_view(spec_.fmt, spec_.dst32)};
  }

  size_t row_rotations(unsigned rows) const { return (d_.size() + rows - 1) / rows; }
  // ELW level 1: `layouts` class placements (see elw_level1) x `rotations` of the Dst classes over
  // the rows, then (ELWADD/ELWSUB) each placement once with AddDst = 0, then two vectors with the
  // SrcB zero flag disabled.
  struct ElwCounts {
    size_t layouts, rotations;
  };
  ElwCounts elw_counts() const {
    if (spec_.bcast == Bcast::Scalar) return {kNumSrcClasses, row_rotations(kRows)};
    return {2, d_.size()};
  }

  Op pick_random_op(Rng& rng) const {
    if (!is_mvmul_family() || spec_.bcast == Bcast::Row) return spec_.op;
    const unsigned r = rng.below(8);
    return r == 0 ? Op::DOTPV : r == 1 ? Op::GAPOOL : Op::MVMUL;
  }

  // Rows an instruction touches, as the model addresses them (MVMUL.md, ELWMUL.md).
  struct Layout {
    uint32_t srca_row = 0, srcb_row = 0, dst_base = 0;
    std::vector<unsigned> srcb_rows;  // offsets from srcb_row
    std::vector<unsigned> dst_rows;   // offsets from dst_base written (and read)
  };
  Layout layout(Op op, const MathEnv& e) const {
    Layout l;
    const bool row_bcast = spec_.bcast == Bcast::Row || spec_.bcast == Bcast::Scalar;
    l.srca_row = e.rwc.SrcA & 0x38;
    l.srcb_row = e.rwc.SrcB & (row_bcast ? 0x3F : 0x38);
    unsigned rows = kRows, step = 1;
    if (op == Op::GAPOOL) rows = 4;
    if (op == Op::MVMUL && spec_.bcast == Bcast::Row) {
      rows = 7;  // MVMUL.md: NumRows 7 (so DstRow &= 0x400 - 7), and only rows 0, 2, 4, 6 are written
      step = 2;
    }
    l.dst_base = dst_row_unaligned(e) & (is_mvmul_family() ? (kDstRows - rows) : 0x3F8);
    for (unsigned i = 0; i < rows; i += step) l.dst_rows.push_back(i);
    if (row_bcast) l.srcb_rows = {0};
    else
      for (unsigned i = 0; i < rows; i += step) l.srcb_rows.push_back(i);
    return l;
  }

  void set_dst(Builder& b, uint32_t row, bool valid, const std::array<uint32_t, 16>& values) const {
    if (spec_.dst32 || spec_.fmt == Fmt::INT8) b.set_dst32_row(row, valid, values);
    else b.set_dst_row(row, valid, values);
  }
  // A 32-bit write leaves the low-half row's validity as it was: list it when Dst is not read.
  void prepare_write_only_rows(Builder& b, const Layout& lay) const {
    if (!(spec_.dst32 || spec_.fmt == Fmt::INT8)) return;
    for (unsigned i : lay.dst_rows) b.set_dst_validity(DstRegs::lo_row(lay.dst_base + i), false);
  }

  void emit(Builder& b, Op op, const MathEnv& e, bool add_dst) const {
    const bool bcast_row = spec_.bcast == Bcast::Row || spec_.bcast == Bcast::Scalar;
    const bool bcast_col = spec_.bcast == Bcast::Col || spec_.bcast == Bcast::Scalar;
    switch (op) {
      case Op::MVMUL:
        b.insn(op, {{Field::DstRow, e.dst_row_field}, {Field::AddrMod, e.addr_mod}, {Field::BroadcastSrcBRow, bcast_row},
                    {Field::FlipSrcA, e.flip_a}, {Field::FlipSrcB, e.flip_b}});
        break;
      case Op::DOTPV:
        b.insn(op, {{Field::DstRow, e.dst_row_field}, {Field::AddrMod, e.addr_mod}, {Field::FlipSrcA, e.flip_a},
                    {Field::FlipSrcB, e.flip_b}});
        break;
      case Op::GAPOOL:
        b.insn(op, {{Field::DstRow, e.dst_row_field}, {Field::AddrMod, e.addr_mod}, {Field::Dim16x16, 1},
                    {Field::FlipSrcA, e.flip_a}, {Field::FlipSrcB, e.flip_b}});
        break;
      default:
        b.insn(op, {{Field::DstRow, e.dst_row_field}, {Field::AddrMod, e.addr_mod}, {Field::BroadcastSrcBCol0, bcast_col},
                    {Field::BroadcastSrcBRow, bcast_row}, {Field::AddDst, add_dst}, {Field::FlipSrcA, e.flip_a},
                    {Field::FlipSrcB, e.flip_b}});
        break;
    }
  }

  // ---- MVMUL level 1 ----
  Vector mvmul_level1(size_t index) const {
    const size_t nd = d_.size();
    Op op = Op::MVMUL;
    KPattern pattern = KPattern::Single;
    unsigned chunk = 0, rotation = 0;
    if (spec_.bcast == Bcast::Row) {
      const size_t rot = row_rotations(4);
      rotation = static_cast<unsigned>(index % rot) * 4;
      chunk = static_cast<unsigned>((index / rot) % kNumSrcClasses);
      pattern = static_cast<KPattern>(index / (rot * kNumSrcClasses));
    } else if (index < kNumKPatterns * 2 * nd) {
      rotation = static_cast<unsigned>(index % nd);
      chunk = static_cast<unsigned>((index / nd) % 2);
      pattern = static_cast<KPattern>(index / (2 * nd));
    } else {
      const size_t extra = index - kNumKPatterns * 2 * nd;
      op = extra < 2 ? Op::DOTPV : Op::GAPOOL;
      chunk = static_cast<unsigned>(extra % 2);
    }
    const MathEnv env = level1_env(spec_.phase);
    Builder b(arch_, 0);
    apply_math_env(b, config(), env);
    const Layout lay = layout(op, env);
    const bool at_all = pattern == KPattern::All;
    auto at = [&](unsigned k) { return at_all || k == 0 || (pattern == KPattern::Cancel && k == 8); };
    for (unsigned k = 0; k < 16; ++k)
      b.set_src_row(false, env.srca_bank, lay.srca_row + k, row_of([&](unsigned j) { return at(k) ? a_[j].bits : a_[0].bits; }));
    for (unsigned r : lay.srcb_rows) {
      const unsigned cls = spec_.bcast == Bcast::Row ? chunk : chunk * 8 + r;
      b.set_src_row(true, env.srcb_bank, lay.srcb_row + r, row_of([&](unsigned k) {
        if (!at(k)) return b_[0].bits;
        return (pattern == KPattern::Cancel && k == 8) ? negate_src(b_[cls].bits) : b_[cls].bits;
      }));
    }
    for (size_t n = 0; n < lay.dst_rows.size(); ++n) {
      const DstClass& d = d_[(n + rotation) % nd];
      set_dst(b, lay.dst_base + lay.dst_rows[n], d.valid, row_of([&](unsigned) { return d.value; }));
    }
    emit(b, op, env, true);
    const std::string srcb = spec_.bcast == Bcast::Row ? fmt::format("SrcB class {}", chunk)
                                                       : fmt::format("SrcB classes {}-{} by row", chunk * 8, chunk * 8 + 7);
    return b.finish("", fmt::format("level 1: {}; {}; {}; Dst classes from {}", find_by_op(arch_, op)->mnemonic, kpattern_name(pattern),
                                    srcb, rotation),
                    views());
  }

  // ---- ELW level 1 ----
  // Layout u picks which classes go where: no broadcast / column broadcast: SrcA class j in column j,
  // SrcB class 8u + i in row i; row broadcast: SrcA class 8u + i in row i, SrcB class j in column j;
  // scalar: SrcA class j in column j, SrcB class u everywhere.
  Vector elw_level1(size_t index) const {
    const size_t nd = d_.size();
    const ElwCounts c = elw_counts();
    // Scalar broadcast: the rows all see one SrcB class, so two rotations by eight rows suffice.
    const unsigned rotation_step = spec_.bcast == Bcast::Scalar ? kRows : 1;
    bool add_dst = true, zero_flag = false;
    unsigned u = 0, rotation = 0;
    if (index < c.layouts * c.rotations) {
      u = static_cast<unsigned>(index / c.rotations);
      rotation = static_cast<unsigned>(index % c.rotations) * rotation_step;
    } else if (is_add() && index < c.layouts * c.rotations + c.layouts) {
      add_dst = false;
      u = static_cast<unsigned>(index - c.layouts * c.rotations);
    } else {
      zero_flag = true;  // SrcB denormals read as numbers: classes 0-7 include both denormals
      u = spec_.bcast == Bcast::Scalar ? 2 + static_cast<unsigned>(index % 2) : 0;
      rotation = static_cast<unsigned>(index % 2);
    }
    MathEnv env = level1_env(spec_.phase);
    env.zero_flag_disabled = zero_flag;
    const Op op = spec_.op;
    Builder b(arch_, 0);
    apply_math_env(b, config(), env);
    const Layout lay = layout(op, env);
    const bool by_row = spec_.bcast == Bcast::Row;
    for (unsigned i = 0; i < kRows; ++i)
      b.set_src_row(false, env.srca_bank, lay.srca_row + i, row_of([&](unsigned j) { return a_[by_row ? 8 * u + i : j].bits; }));
    for (unsigned r : lay.srcb_rows) {
      b.set_src_row(true, env.srcb_bank, lay.srcb_row + r, row_of([&](unsigned j) {
        switch (spec_.bcast) {
          case Bcast::Row: return b_[j].bits;
          case Bcast::Scalar: return b_[u].bits;
          default: return b_[8 * u + r].bits;
        }
      }));
    }
    if (add_dst) {
      for (unsigned i = 0; i < kRows; ++i) {
        const DstClass& d = d_[(i + rotation) % nd];
        set_dst(b, lay.dst_base + i, d.valid, row_of([&](unsigned) { return d.value; }));
      }
    } else {
      prepare_write_only_rows(b, lay);
    }
    emit(b, op, env, add_dst);
    std::string what = spec_.bcast == Bcast::Scalar ? fmt::format("SrcB class {}", u)
                       : by_row                     ? fmt::format("SrcA classes {}-{} by row, SrcB classes by column", 8 * u, 8 * u + 7)
                                                    : fmt::format("SrcB classes {}-{} by row", 8 * u, 8 * u + 7);
    if (add_dst) what += fmt::format("; Dst classes from {}", rotation);
    else what += "; AddDst=0";
    if (zero_flag) what += "; SrcB zero flag disabled";
    return b.finish("", "level 1: " + what, views());
  }
};

}  // namespace

void plan_matrix_files(std::vector<FileSpec>& out) {
  struct Family {
    const char* name;
    std::vector<Bcast> options;
  };
  const Family families[] = {{"mvmul", {Bcast::None, Bcast::Row}},
                             {"elwmul", {Bcast::None, Bcast::Row, Bcast::Col, Bcast::Scalar}},
                             {"elwadd", {Bcast::None, Bcast::Row, Bcast::Col, Bcast::Scalar}},
                             {"elwsub", {Bcast::None, Bcast::Row, Bcast::Col, Bcast::Scalar}}};
  for (const Family& fam : families) {
    const bool add = fam.name[3] == 'a' || fam.name[3] == 's';
    for (Fmt f : {Fmt::BF16, Fmt::FP16, Fmt::TF32, Fmt::INT8}) {
      for (int dst : {16, 32}) {
        if (f == Fmt::INT8 && dst == 16) continue;  // INT8 math always accumulates in Dst32b
        for (int phase = 0; phase < 4; ++phase) {
          if (f == Fmt::INT8 && add && phase) continue;  // the INT8 add path neither slices nor scales
          for (Bcast opt : fam.options) {
            FileSpec s;
            s.family = fam.name;
            s.format = fmt_name(f);
            s.phase = phase;
            s.dst_bits = dst;
            s.option = bcast_option(opt);
            s.stem = fmt::format("{}-{}-p{}-d{}{}{}", fam.name, s.format, phase, dst, s.option.empty() ? "" : "-", s.option);
            out.push_back(s);
          }
        }
      }
    }
  }
}

std::unique_ptr<FileGenerator> make_matrix_generator(const FileSpec& spec, Arch arch) {
  MatrixSpec m;
  m.op = spec.family == "mvmul" ? Op::MVMUL : spec.family == "elwmul" ? Op::ELWMUL : spec.family == "elwadd" ? Op::ELWADD : Op::ELWSUB;
  parse_fmt(spec.format, &m.fmt);
  m.dst32 = spec.dst_bits == 32;
  m.phase = static_cast<unsigned>(spec.phase);
  for (Bcast b : {Bcast::None, Bcast::Row, Bcast::Col, Bcast::Scalar})
    if (spec.option == bcast_option(b)) m.bcast = b;
  return std::make_unique<MatrixGenerator>(m, arch);
}

}  // namespace tmu::tensix::vectors::detail

// GMPOOL vectors. Level 1 gives each of the sixteen columns its own pattern over the sixteen SrcA
// rows (the classes in order and reversed, ties between rows of the first eight, a tie across the
// 4..7 / 0..3 visiting order, ties beyond row 7, signed zeros, denormals, the largest values), and
// crosses them with four SrcB scale rows (1, 2, exponent 0 = minus infinity, mixed) and five
// running-maximum Dst classes.
#include <fmt/format.h>

#include "gen.h"

namespace tmu::tensix::vectors::detail {

namespace {

constexpr unsigned kBlockRows = 4;
constexpr unsigned kColumnRows = 16;
constexpr std::array<unsigned, 5> kDstClassPick = {0, 1, 4, 8, 9};  // invalid, +0, +1, -max, +max
constexpr unsigned kScaleClasses = 4;

class GmpoolGenerator : public FileGenerator {
 public:
  GmpoolGenerator(Fmt fmt, bool dst32, bool argmax, Arch arch)
      : fmt_(fmt), dst32_(dst32), argmax_(argmax), arch_(arch), a_(src_classes(fmt, Role::SrcA, -6)),
        d_(dst_classes(fmt, dst32)) {}

  std::vector<std::string> describe() const override {
    return {fmt::format("GMPOOL: data format {}, {}-bit Dst{}", fmt_name(fmt_), dst32_ ? 32 : 16, argmax_ ? ", ArgMax" : ""),
            "SrcA classes: " + class_legend(a_),
            "columns: 0 classes in row order, 1 reversed, 2 all +1, 3 max at rows 2 and 5, 4 max at rows 0 and 7, "
            "5 max at row 12, 6 all +0, 7 +0/-0, 8 denormals, 9 all -max, 10 -1 with -0 at row 9, "
            "11 min-normal among denormals, 12 -1 with -tie at row 14, 13 +1 at rows 0 and 4, 14 +1 at rows 8 and 15, "
            "15 slice patterns",
            "SrcB scale rows: 0 all 1, 1 all 2, 2 exponent 0 (minus infinity), 3 mixed exponents with one 0",
            "Dst classes: " + dst_legend()};
  }

  size_t level1_count() const override { return kScaleClasses * kDstClassPick.size(); }

  Vector level1(size_t index) const override {
    const unsigned scale = static_cast<unsigned>(index / kDstClassPick.size());
    const DstClass& d = d_[kDstClassPick[index % kDstClassPick.size()]];
    MathEnv env = level1_env(0);
    Builder b(arch_, 0);
    apply_math_env(b, config(), env);
    const Layout lay = layout(env);
    std::array<std::array<uint32_t, 16>, kColumnRows> rows{};
    for (unsigned j = 0; j < 16; ++j) {
      const auto column = column_pattern(j);
      for (unsigned i = 0; i < kColumnRows; ++i) rows[i][j] = column[i];
    }
    for (unsigned i = 0; i < kColumnRows; ++i) b.set_src_row(false, env.srca_bank, lay.srca_row + i, rows[i]);
    b.set_src_row(true, env.srcb_bank, lay.srcb_row, row_of([&](unsigned i) { return scale_value(scale, i); }));
    set_dst_block(b, lay, [&](unsigned) { return d.valid; }, [&](unsigned, unsigned) { return d.value; });
    emit(b, env);
    return b.finish("", fmt::format("level 1: SrcB scale row {}, Dst class {}", scale, d.name), views());
  }

  Vector random(Rng& rng) const override {
    MathEnv env = random_env(rng, arch_, Op::GMPOOL, 0);
    Builder b(arch_, env.thread);
    apply_math_env(b, config(), env);
    const Layout lay = layout(env);
    for (unsigned i = 0; i < kColumnRows; ++i)
      b.set_src_row(false, env.srca_bank, lay.srca_row + i, row_of([&](unsigned) { return random_src(rng, fmt_, a_, 0, 6); }));
    b.set_src_row(true, env.srcb_bank, lay.srcb_row, row_of([&](unsigned) {
      if (rng.chance(1, 16)) return scale_value(2, 0);
      if (fmt_ == Fmt::INT8) return src_int8(0, 1 + rng.below(1023));
      return src_float(fmt_, 0, static_cast<uint32_t>(exponent_bias(fmt_) + rng.between(-2, 2)), rng.bits(10));
    }));
    std::array<bool, kBlockRows> valid{};
    for (bool& v : valid) v = !rng.chance(1, 4);
    set_dst_block(b, lay, [&](unsigned i) { return valid[i]; },
                  [&](unsigned, unsigned) { return random_dst(rng, fmt_, dst32_, 0, 6) ^ (argmax_ ? rng.bits(12) : 0); });
    emit(b, env);
    return b.finish("", "level 2: random operands", views());
  }

 private:
  Fmt fmt_;
  bool dst32_, argmax_;
  Arch arch_;
  std::array<Named, kNumSrcClasses> a_;
  std::vector<DstClass> d_;

  std::string dst_legend() const {
    std::string s;
    for (size_t k = 0; k < kDstClassPick.size(); ++k) s += (k ? ", " : "") + std::string(d_[kDstClassPick[k]].name);
    return s;
  }

  MathConfig config() const { return MathConfig{fmt_, dst32_ || fmt_ == Fmt::INT8, false, true}; }
  Builder::Views views() const {
    // With ArgMax a 32-bit Dst holds an index (and for BF16/FP16 a 16-bit value above it).
    const View dst = argmax_ && (dst32_ || fmt_ == Fmt::INT8) ? View::Raw : math_dst_view(fmt_, dst32_);
    return {src_view_of(fmt_), src_view_of(fmt_), dst};
  }

  struct Layout {
    uint32_t srca_row, srcb_row, dst_row;
  };
  // GMPOOL.md: a 16-row SrcA block, one SrcB row, a 4-row aligned Dst block.
  static Layout layout(const MathEnv& e) {
    return {e.rwc.SrcA & 0x30u, e.rwc.SrcB & 0x38u, dst_row_unaligned(e) & 0x3FCu};
  }

  // The top row is read; with a 32-bit Dst the other three rows are read too (their argmax index
  // phase), with a 16-bit Dst they are only written.
  template <typename Valid, typename Value>
  void set_dst_block(Builder& b, const Layout& lay, Valid valid, Value value) const {
    const bool wide = dst32_ || fmt_ == Fmt::INT8;
    for (unsigned i = 0; i < (wide ? kBlockRows : 1); ++i) {
      const auto row = row_of([&](unsigned c) { return value(i, c); });
      if (wide) b.set_dst32_row(lay.dst_row + i, valid(i), row);
      else b.set_dst_row(lay.dst_row + i, valid(i), row);
    }
  }

  void emit(Builder& b, const MathEnv& e) const {
    b.insn(Op::GMPOOL, {{Field::DstRow, e.dst_row_field}, {Field::ArgMax, argmax_}, {Field::AddrMod, e.addr_mod},
                        {Field::Dim16x16, 1}, {Field::FlipSrcA, e.flip_a}, {Field::FlipSrcB, e.flip_b}});
  }

  uint32_t scale_value(unsigned scale, unsigned row) const {
    const uint32_t bias = static_cast<uint32_t>(exponent_bias(fmt_));
    if (fmt_ == Fmt::INT8) {
      if (scale == 2 || (scale == 3 && row == 5)) return src_int8(0, 3, true);  // exponent field 0
      return src_int8(0, scale == 1 ? 2 : 1 + (scale == 3 ? row : 0));
    }
    switch (scale) {
      case 0: return src_float(fmt_, 0, bias, 0);
      case 1: return src_float(fmt_, 0, bias + 1, 0);
      case 2: return src_float(fmt_, 0, 0, 0);
      default: return row == 5 ? src_float(fmt_, 0, 0, 0) : src_float(fmt_, row & 1, bias + (row % 3) - 1, row * 37);
    }
  }

  std::array<uint32_t, kColumnRows> column_pattern(unsigned j) const {
    const uint32_t plus_one = a_[8].bits, minus_one = a_[9].bits, max = a_[6].bits;
    std::array<uint32_t, kColumnRows> c{};
    auto fill = [&](uint32_t v) { c.fill(v); };
    switch (j) {
      case 0: for (unsigned i = 0; i < 16; ++i) c[i] = a_[i].bits; break;
      case 1: for (unsigned i = 0; i < 16; ++i) c[i] = a_[15 - i].bits; break;
      case 2: fill(plus_one); break;
      case 3: fill(plus_one); c[2] = c[5] = max; break;
      case 4: fill(plus_one); c[0] = c[7] = max; break;
      case 5: fill(minus_one); c[12] = max; break;
      case 6: fill(a_[0].bits); break;
      case 7: for (unsigned i = 0; i < 16; ++i) c[i] = a_[i & 1].bits; break;
      case 8: for (unsigned i = 0; i < 16; ++i) c[i] = a_[2 + (i & 1)].bits; break;
      case 9: fill(a_[7].bits); break;
      case 10: fill(minus_one); c[9] = a_[1].bits; break;
      case 11: for (unsigned i = 0; i < 16; ++i) c[i] = a_[2 + (i & 1)].bits; c[3] = a_[4].bits; break;
      case 12: fill(minus_one); c[14] = a_[14].bits; break;
      case 13: fill(minus_one); c[0] = c[4] = plus_one; break;
      case 14: fill(minus_one); c[8] = c[15] = plus_one; break;
      default: for (unsigned i = 0; i < 16; ++i) c[i] = a_[i % 5 == 4 ? 15 : 10 + i % 3].bits; break;
    }
    return c;
  }
};

}  // namespace

void plan_gmpool_files(std::vector<FileSpec>& out) {
  for (Fmt f : {Fmt::BF16, Fmt::FP16, Fmt::TF32, Fmt::INT8}) {
    for (int dst : {16, 32}) {
      if (f == Fmt::INT8 && dst == 16) continue;
      for (const char* opt : {"", "argmax"}) {
        FileSpec s;
        s.family = "gmpool";
        s.format = fmt_name(f);
        s.dst_bits = dst;
        s.option = opt;
        s.stem = fmt::format("gmpool-{}-d{}{}{}", s.format, dst, *opt ? "-" : "", opt);
        out.push_back(s);
      }
    }
  }
}

std::unique_ptr<FileGenerator> make_gmpool_generator(const FileSpec& spec, Arch arch) {
  Fmt f = Fmt::BF16;
  parse_fmt(spec.format, &f);
  return std::make_unique<GmpoolGenerator>(f, spec.dst_bits == 32, spec.option == "argmax", arch);
}

}  // namespace tmu::tensix::vectors::detail

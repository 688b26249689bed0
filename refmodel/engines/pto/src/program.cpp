// PTO programs: tile declarations, data lines and operation lines (docs/program-format.md).
#include "tmu/pto/program.h"

#include <algorithm>
#include <istream>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/suggest.h"
#include "tmu/exact_number.h"
#include "tmu/program_error.h"
#include "tmu/text_lines.h"
#include "tmu/pto/text.h"

namespace tmu::pto {

namespace {

using Line = TextLine;

unsigned small_number(std::string_view text, const char* what) {
  const auto v = parse_unsigned(text);
  if (!v || *v > 1u << 20)
    throw Error(ErrorKind::BadInput, fmt::format("{} '{}' is not a number from 0 to 1048576", what, text));
  return static_cast<unsigned>(*v);
}

class Runner {
 public:
  Runner(const std::string& path, const ProgramOptions& opts) : path_(path), opts_(opts) {
    run_.profile = opts.profile;
  }

  void run(const std::vector<Line>& lines) {
    bool first = true;
    for (const Line& l : lines) {
      try {
        const std::string& w0 = l.words[0];
        if (w0 == ".profile") {
          if (!first) fail(l, ".profile must be the first line of the program");
          if (l.words.size() != 2) fail(l, ".profile takes one of cpusim a2a3 a5");
          const auto p = profile_from_name(l.words[1]);
          if (!p) fail(l, fmt::format("unknown profile '{}' (cpusim, a2a3, a5)", l.words[1]));
          run_.profile = *p;
        } else if (w0 == ".assume") {
          // `.assume a5-ieee` (the default) or `.assume none`: a5's float lanes under a5-ieee, or refused.
          if (l.words.size() != 2 || (l.words[1] != "a5-ieee" && l.words[1] != "none"))
            fail(l, ".assume takes a5-ieee or none");
          run_.a5_ieee = l.words[1] == "a5-ieee";
        } else if (w0 == ".tile") {
          declare(l);
        } else if (w0 == ".valid") {
          if (l.words.size() != 3) fail(l, ".valid takes a tile and VALIDROWSxVALIDCOLS");
          const auto [vr, vc] = shape_from_text(l.words[2], "valid region");
          set_valid_region(tile(l, l.words[1]), vr, vc);
        } else if (w0 == ".set" || w0 == ".bits") {
          data(l, w0 == ".bits");
        } else if (w0.starts_with(".")) {
          static constexpr std::string_view kDirectives[] = {".profile", ".assume", ".tile", ".valid", ".set", ".bits"};
          fail(l, fmt::format("unknown directive '{}'{} (.profile .assume .tile .valid .set .bits)", w0, did_you_mean(w0, kDirectives)));
        } else {
          operation(l);
        }
      } catch (const Error& e) {
        fail(l, e.kind() == ErrorKind::BadInput ? e.message() : std::string(e.what()));
      }
      first = false;
    }
  }

  ProgramRun result() && { return std::move(run_); }

 private:
  [[noreturn]] void fail(const Line& l, const std::string& why) const {
    throw ProgramError(path_, static_cast<int>(l.number), why);
  }

  Tile& tile(const Line& l, const std::string& name) {
    for (NamedTile& t : run_.tiles)
      if (t.name == name) return t.tile;
    fail(l, fmt::format("no tile named '{}' (declare it with .tile first)", name));
  }

  void declare(const Line& l) {
    NamedTile t = tile_from_declaration(std::span(l.words).subspan(1));
    for (const NamedTile& have : run_.tiles)
      if (have.name == t.name) fail(l, fmt::format("tile '{}' is already declared", t.name));
    run_.tiles.push_back(std::move(t));
  }

  // .set NAME R C v0 v1 ... / .set NAME R fill V / .set NAME fill V; .bits the same with patterns.
  void data(const Line& l, bool patterns) {
    const auto& w = l.words;
    const char* usage = patterns ? ".bits takes NAME ROW COL P0 P1 ..., NAME ROW fill P or NAME fill P"
                                 : ".set takes NAME ROW COL V0 V1 ..., NAME ROW fill V or NAME fill V";
    if (w.size() < 4) fail(l, usage);
    Tile& t = tile(l, w[1]);
    const auto lane = [&](const std::string& text) {
      if (!patterns) return lane_from_text(t.type, text);
      const auto v = parse_unsigned(text);
      if (!v || !text.starts_with("0x") || (*v & ~lane_mask(t.type)) != 0)
        throw Error(ErrorKind::BadInput, fmt::format("'{}' is not a 0x pattern of {} bits", text, width_bits(t.type)));
      return *v;
    };
    if (w[2] == "fill") {
      if (w.size() != 4) fail(l, "fill takes exactly one value");
      std::fill(t.bits.begin(), t.bits.end(), lane(w[3]));
      return;
    }
    if (w.size() < 5) fail(l, usage);
    if (w[3] == "fill") {
      if (w.size() != 5) fail(l, "fill takes exactly one value");
      const unsigned r = small_number(w[2], "row");
      if (r >= t.rows) fail(l, fmt::format("row {} is outside the {}x{} tile '{}'", r, t.rows, t.cols, w[1]));
      const uint64_t v = lane(w[4]);
      for (unsigned c = 0; c < t.cols; ++c) set(t, r, c, v);
      return;
    }
    const unsigned r = small_number(w[2], "row");
    const unsigned c = small_number(w[3], "column");
    if (r >= t.rows || c >= t.cols)
      fail(l, fmt::format("element ({}, {}) is outside the {}x{} tile '{}'", r, c, t.rows, t.cols, w[1]));
    if (w.size() - 4 > t.cols - c)
      fail(l, fmt::format("{} values from column {}: row {} of '{}' has {} columns", w.size() - 4, c, r, w[1], t.cols));
    for (size_t i = 4; i < w.size(); ++i) set(t, r, c + static_cast<unsigned>(i - 4), lane(w[i]));
  }

  void operation(const Line& l) {
    if (!op_from_name(l.words[0])) fail(l, unknown_operation(l.words[0]));
    ProgramStep step = step_from_words(l.words);
    step.line = l.number;
    // Sources are copies: dst may also be a source, and TCMP clears dst before it reads.
    std::vector<Tile> operands;
    operands.reserve(step.srcs.size() + 1);
    for (const std::string& s : step.srcs) operands.push_back(tile(l, s));
    Tile& dst = tile(l, step.dst);
    std::vector<const Tile*> srcs;
    for (const Tile& t : operands) srcs.push_back(&t);
    operands.push_back(dst);
    step.params.a5_ieee = run_.a5_ieee;
    execute(run_.profile, step.op, dst, srcs, step.params);
    if (opts_.trace) *opts_.trace << fmt::format("{}:{}: {}\n", path_, l.number, step_text(step));
    run_.steps.push_back(std::move(step));
    run_.operands.push_back(std::move(operands));
  }

  const std::string& path_;
  const ProgramOptions& opts_;
  ProgramRun run_;
};

}  // namespace

std::string step_text(const ProgramStep& s) {
  std::string out(op_name(s.op));
  out += " " + s.dst;
  for (const std::string& n : s.srcs) out += " " + n;
  return out + params_text(s.op, s.params);
}

// .tile NAME TYPE ROWSxCOLS [row_major|col_major] [valid=VRxVC]
NamedTile tile_from_declaration(std::span<const std::string> w) {
  if (w.size() < 3 || w.size() > 5)
    throw Error(ErrorKind::BadInput,
                ".tile takes NAME TYPE ROWSxCOLS, then optionally row_major or col_major and valid=VRxVC");
  const std::string& name = w[0];
  if (name.empty() || name[0] == '.' || name.find('=') != std::string::npos)
    throw Error(ErrorKind::BadInput, fmt::format("'{}' cannot name a tile", name));
  const auto type = elem_from_name(w[1]);
  if (!type)
    throw Error(ErrorKind::BadInput,
                fmt::format("unknown element type '{}' (f32 f16 bf16 i8 u8 i16 u16 i32 u32 i64 u64)", w[1]));
  const auto [rows, cols] = shape_from_text(w[2], "shape");
  Layout layout = Layout::RowMajor;
  std::pair<unsigned, unsigned> valid{rows, cols};
  bool layout_given = false, valid_given = false;
  for (size_t i = 3; i < w.size(); ++i) {
    if (w[i].starts_with("valid=") && !valid_given) {
      valid = shape_from_text(std::string_view(w[i]).substr(6), "valid region");
      valid_given = true;
    } else if (!w[i].starts_with("valid=") && !layout_given) {
      layout = layout_from_name(w[i]);
      layout_given = true;
    } else {
      throw Error(ErrorKind::BadInput,
                  fmt::format("'{}' is given twice", w[i].starts_with("valid=") ? "valid=" : "the layout"));
    }
  }
  return {name, make_tile(*type, rows, cols, layout, valid.first, valid.second)};
}

// OP DST SRC... [cmp=MODE] [round=MODE] [sat=on|off]
ProgramStep step_from_words(std::span<const std::string> w) {
  if (w.empty()) throw Error(ErrorKind::BadInput, "an empty operation line");
  const auto op = op_from_name(w[0]);
  if (!op) throw Error(ErrorKind::BadInput, unknown_operation(w[0]));
  ProgramStep step{0, *op, {}, {}, {}};
  std::vector<std::string> names;
  ParamsGiven given;
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i].find('=') == std::string::npos)
      names.push_back(w[i]);
    else
      param_from_text(*op, w[i], step.params, given);
  }
  require_params(*op, given);
  if (names.size() != 1 + source_count(*op))
    throw Error(ErrorKind::BadInput,
                fmt::format("{} takes a destination and {} source tile{} ({} given)", op_name(*op), source_count(*op),
                            source_count(*op) == 1 ? "" : "s", names.size() - 1));
  step.dst = names[0];
  step.srcs.assign(names.begin() + 1, names.end());
  return step;
}

ProgramRun run_program(std::istream& in, const std::string& path, const ProgramOptions& opts) {
  Runner r(path, opts);
  r.run(read_text_lines(in, "#;"));
  return std::move(r).result();
}

}  // namespace tmu::pto

// The AMX scoreboard (tmu/amx/scoreboard.h): location text, words <-> rows, and the mismatch lines.
// The arithmetic is execute_matfp's; this file only moves bytes and words.
#include "tmu/amx/scoreboard.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tmu/amx/lane_diagnosis.h"
#include "tmu/amx/program.h"
#include "tmu/amx/state.h"
#include "tmu/error.h"
#include "tmu/exact_number.h"
#include "tmu/ieee.h"
#include "tmu/lane_difference.h"
#include "tmu/text_lines.h"

namespace tmu::amx {

namespace {

constexpr unsigned kRowWords = kRowBytes / 4;
constexpr const char* kLocations =
    "x, y, z, 'x N' or 'y N' (N 0..7), 'z N' (N 0..63), and one lane of a register or row: 'z N lane L'";

[[noreturn]] void refuse(const std::string& why) { throw Error(ErrorKind::BadInput, why); }

// A parsed location: one of the three register files, and either every row of it or one.
struct Location {
  char file = 'z';                // 'x', 'y' or 'z'
  std::optional<unsigned> index;  // the register or row; none for the whole file
  std::optional<unsigned> lane;   // one lane of it, in the lane type of the last operand
  std::string text;               // as given, for messages

  unsigned first() const { return index.value_or(0); }
  unsigned count() const { return index ? 1 : (file == 'z' ? kZRows : kPoolRegs); }
  unsigned words() const { return count() * kRowWords; }
  // "z row 5", "x register 2"
  std::string row_name(unsigned row) const {
    return fmt::format("{} {} {}", file, file == 'z' ? "row" : "register", row);
  }
};

Location parse_location(std::string_view text) {
  const auto w = split_words(text);
  Location l;
  l.text = std::string(text);
  if (w.empty() || (w.size() != 1 && w.size() != 2 && !(w.size() == 4 && w[2] == "lane")) || w[0].size() != 1 ||
      (w[0] != "x" && w[0] != "y" && w[0] != "z"))
    refuse(fmt::format("unknown AMX location '{}' ({})", text, kLocations));
  l.file = w[0][0];
  if (w.size() >= 2) {
    const unsigned limit = l.file == 'z' ? kZRows : kPoolRegs;
    const auto n = parse_unsigned(w[1]);
    if (!n || *n >= limit)
      refuse(fmt::format("AMX location '{}': {} '{}' is not a number from 0 to {}", text,
                         l.file == 'z' ? "Z row" : "register", w[1], limit - 1));
    l.index = static_cast<unsigned>(*n);
  }
  if (w.size() == 4) {
    const auto lane = parse_unsigned(w[3]);
    if (!lane || *lane >= kRowBytes) refuse(fmt::format("AMX location '{}': lane '{}' is not a number", text, w[3]));
    l.lane = static_cast<unsigned>(*lane);  // checked against the lane type where it is known
  }
  return l;
}

void check_count(const Location& l, std::span<const uint32_t> words) {
  if (words.size() != l.words())
    refuse(fmt::format("AMX location '{}' takes {} 32-bit words, {} given", l.text, l.words(), words.size()));
}

Row row_of(std::span<const uint32_t> words) {
  Row r{};
  for (unsigned b = 0; b < kRowBytes; ++b) r[b] = static_cast<uint8_t>(words[b / 4] >> (8 * (b % 4)));
  return r;
}

void append_words(const Row& r, std::vector<uint32_t>& out) {
  for (unsigned w = 0; w < kRowWords; ++w) {
    uint32_t v = 0;
    for (unsigned b = 0; b < 4; ++b) v |= uint32_t{r[4 * w + b]} << (8 * b);
    out.push_back(v);
  }
}

std::string lane_type_name(const LaneType& t) {
  if (!t.typed) return fmt::format("raw{}", 8 * t.bytes);
  if (t.bytes == 2) return t.bfloat ? "bf16" : "f16";
  return t.bytes == 4 ? "f32" : "f64";
}

struct LaneMismatch {
  unsigned row, lane;
  uint64_t design, model;
};

class AmxScoreboard final : public EngineScoreboard {
 public:
  explicit AmxScoreboard(Version v) : version_(v) { version_name(v); }

  void declare(std::string_view text) override {
    refuse(fmt::format("the AMX scoreboard has nothing to declare (its registers are fixed), got '{}'", text));
  }

  void load(std::string_view location, std::span<const uint32_t> words) override {
    const Location l = parse_location(location);
    if (l.lane) {
      Row r = row(l.file, l.first());
      put_lane_bits(r, lane_type(l.file).bytes, *l.lane, lane_word_bits(l, words));
      store_row(l.file, l.first(), r);
      return;
    }
    check_count(l, words);
    for (unsigned i = 0; i < l.count(); ++i) store_row(l.file, l.first() + i, row_of(words.subspan(i * kRowWords, kRowWords)));
  }

  void execute(std::string_view operation) override {
    const auto w = split_words(operation);
    if (w.empty()) refuse("an empty AMX operation (a 0x matfp operand or 'matfp ...' text)");
    uint64_t operand = 0;
    if (w[0] == "matfp") {
      operand = encode_matfp(assemble_matfp(operation, version_));
    } else {
      const auto v = parse_unsigned(w[0]);
      if (w.size() != 1 || !v || !(w[0].starts_with("0x") || w[0].starts_with("0X")))
        refuse(fmt::format("AMX operation '{}' is neither a 64-bit matfp operand in hex (0x...) nor matfp text "
                           "('matfp f32 z+=x*y x=0x40 y=0x80')",
                           operation));
      operand = *v;
    }
    before_ = state_;
    execute_matfp(state_, operand, version_);
    last_operand_ = operand;
    ++steps_;
  }

  std::vector<std::string> compare(std::string_view location, std::span<const uint32_t> words) override {
    const Location l = parse_location(location);
    const LaneType t = lane_type(l.file);
    const unsigned lanes = kRowBytes / t.bytes;
    Row one_lane{};  // a lane location: the model's row with the design's lane in it
    if (l.lane) {
      one_lane = row(l.file, l.first());
      put_lane_bits(one_lane, t.bytes, *l.lane, lane_word_bits(l, words));
    } else {
      check_count(l, words);
    }
    std::vector<LaneMismatch> found;
    for (unsigned i = 0; i < l.count(); ++i) {
      const Row design = l.lane ? one_lane : row_of(words.subspan(i * kRowWords, kRowWords));
      const Row model = row(l.file, l.first() + i);
      for (unsigned lane = 0; lane < lanes; ++lane) {
        const uint64_t d = lane_bits(design, t.bytes, lane), m = lane_bits(model, t.bytes, lane);
        if (d != m) found.push_back({l.first() + i, lane, d, m});
      }
    }
    std::vector<std::string> lines;
    for (const LaneMismatch& f : found) {
      std::string line = fmt::format("{} lane {} ({}): design {} model {}; ", l.row_name(f.row), f.lane,
                                     lane_type_name(t), value(t, f.design), value(t, f.model));
      if (!last_operand_) {
        line += operation_text();
      } else if (&f != &found.front()) {
        // The operation and the inputs' story are on the comparison's first line.
        line += fmt::format("step {}, the operand of the line above", steps_);
      } else {
        line += fmt::format("{}; step {}", operation_text(), steps_);
        if (l.file == 'z') line += lane_inputs(f.row, f.lane, t, f.design);
        line += others_text(l, found, f);
      }
      // Lanes are typed once an operand has run.
      line += tally_.add_lane(t.typed ? std::optional(format_of(t)) : std::nullopt, f.design, f.model);
      lines.push_back(std::move(line));
    }
    return lines;
  }

  std::string replay_program() const override {
    if (!last_operand_) return "";
    std::string p = fmt::format(
        "# The AMX scoreboard's step {} on the model alone: the X and Y registers and the Z rows it read\n"
        "# (registers and rows left out are zero), then its operand:\n#   {:#018x}: {}\n.version {}\n",
        steps_, *last_operand_, disassemble_matfp(decode_matfp(*last_operand_), version_), version_name(version_));
    const auto words_line = [&](std::string head, const Row& r) {
      bool any = false;
      for (uint8_t b : r) any = any || b != 0;
      if (!any) return;
      for (unsigned w = 0; w < kRowWords; ++w) head += fmt::format(" {:#010x}", lane_bits(r, 4, w));
      p += head + "\n";
    };
    for (unsigned r = 0; r < kPoolRegs; ++r) words_line(fmt::format(".x {} raw32", r * kRowBytes), pool_register(before_.x, r));
    for (unsigned r = 0; r < kPoolRegs; ++r) words_line(fmt::format(".y {} raw32", r * kRowBytes), pool_register(before_.y, r));
    for (unsigned r = 0; r < kZRows; ++r) words_line(fmt::format(".z {} raw32", r), before_.z[r]);
    return p + fmt::format("matfp {:#018x}\n", *last_operand_);
  }

  std::string replay_command(std::string_view file) const override {
    if (!last_operand_) return "";
    const LaneType t = lane_type('z');
    return fmt::format("tmu --engine amx run {} --show z --values {}", file, lane_type_name(t));
  }

  std::string summary() const override { return tally_.summary("matfp"); }

  std::vector<uint32_t> read(std::string_view location) const override {
    const Location l = parse_location(location);
    if (l.lane) {
      const unsigned bytes = lane_type(l.file).bytes;
      check_lane(l, bytes);
      const uint64_t bits = lane_bits(row(l.file, l.first()), bytes, *l.lane);
      if (bytes == 8) return {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
      return {static_cast<uint32_t>(bits)};
    }
    std::vector<uint32_t> out;
    out.reserve(l.words());
    for (unsigned i = 0; i < l.count(); ++i) append_words(row(l.file, l.first() + i), out);
    return out;
  }

 private:
  void store_row(char file, unsigned at, const Row& r) {
    if (file == 'z')
      state_.z[at] = r;
    else
      store_span(file == 'x' ? state_.x : state_.y, at * kRowBytes, r);
  }

  // A lane location's lane must exist in the lane type the last operand gives its register file.
  void check_lane(const Location& l, unsigned bytes) const {
    if (*l.lane >= kRowBytes / bytes)
      refuse(fmt::format("AMX location '{}': lane {} of {} (the lanes are {}-bit now: 0..{})", l.text, *l.lane,
                         l.row_name(l.first()), 8 * bytes, kRowBytes / bytes - 1));
  }

  // A lane location's value: one 32-bit word (a 16-bit lane in its low half), two for a 64-bit lane
  // (low word first).
  uint64_t lane_word_bits(const Location& l, std::span<const uint32_t> words) const {
    const unsigned bytes = lane_type(l.file).bytes;
    check_lane(l, bytes);
    const size_t want = bytes == 8 ? 2 : 1;
    if (words.size() != want) refuse(fmt::format("AMX location '{}' takes {} 32-bit word{}, {} given", l.text, want,
                                                 want == 1 ? "" : "s", words.size()));
    const uint64_t bits = bytes == 8 ? (uint64_t{words[1]} << 32 | words[0]) : words[0];
    if (bytes < 8 && (bits >> (8 * bytes)) != 0)
      refuse(fmt::format("AMX location '{}': {:#x} does not fit a {}-bit lane", l.text, bits, 8 * bytes));
    return bits;
  }

  Row row(char file, unsigned at) const {
    if (file == 'z') return state_.z[at];
    return pool_register(file == 'x' ? state_.x : state_.y, at);
  }

  // Lanes are compared as the last operand computed them: Z in its Z lane type, X and Y in their
  // input lane type; before any operand, as raw 32-bit words.
  LaneType lane_type(char file) const {
    if (!last_operand_) return LaneType{4, false, false};
    const LaneWidth w = lane_width(decode_matfp(*last_operand_).lane_width, version_);
    LaneType t;
    t.typed = true;
    t.bytes = file == 'z' ? z_bytes(w) : xy_bytes(w);
    t.bfloat = t.bytes == 2 && (w == LaneWidth::BF16 || (file != 'z' && w == LaneWidth::BF16F32));
    return t;
  }

  static std::string value(const LaneType& t, uint64_t bits) {
    const std::string hex = fmt::format("{:#0{}x}", bits, 2 + 2 * t.bytes);
    return t.typed ? fmt::format("{} ({})", hex, lane_to_text(t, bits)) : hex;
  }

  // What Z row `row` lane `lane` read in the last operand: "; z before V; x lane I V * y lane J V",
  // the products' lanes as the operand took them (offsets, indexed load, shuffle, enables), and which
  // departure from matfp's arithmetic gives the design's value (lane_diagnosis.h), where one does.
  std::string lane_inputs(unsigned row, unsigned lane, const LaneType& z_type, uint64_t design) const {
    const uint64_t z = lane_bits(before_.z[row], z_type.bytes, lane);
    std::string text = fmt::format("; z before {}", value(z_type, z));
    const MatfpOperand op = decode_matfp(*last_operand_);
    const auto in = matfp_lane_operands(before_, op, version_, row, lane);
    if (!in) return text + "; no product of the operation lands in this lane";
    const LaneType xy = lane_type('x');
    text += fmt::format("; x lane {} {} * y lane {} {}", in->x_lane, value(xy, in->x), in->y_lane, value(xy, in->y));
    if (op.alu_mode == kAluAdd || op.alu_mode == kAluSub) {
      const std::string d = diagnose_fma_lane(format_of(xy), format_of(z_type), op.alu_mode == kAluSub, in->x, in->y, z,
                                              design);
      if (!d.empty()) text += "; " + d;
    }
    return text;
  }

  // The comparison's other mismatching lanes (lane_difference.h): by number within one row, by row
  // and lane across several.
  static std::string others_text(const Location& l, const std::vector<LaneMismatch>& found, const LaneMismatch& first) {
    std::vector<std::string> names;
    for (const LaneMismatch& f : found)
      if (&f != &first)
        names.push_back(l.count() == 1 ? std::to_string(f.lane) : fmt::format("{} lane {}", l.row_name(f.row), f.lane));
    return other_lanes_text(l.count() == 1 ? l.row_name(l.first()) : std::string(1, l.file), "operand", names,
                            l.count() == 1 ? "lane" : "");
  }

  std::string operation_text() const {
    if (!last_operand_) return "no operation executed yet";
    return fmt::format("after {:#018x}: {}", *last_operand_, disassemble_matfp(decode_matfp(*last_operand_), version_));
  }

  static ieee::Format format_of(const LaneType& t) {
    return t.bytes == 2 ? (t.bfloat ? ieee::kBfloat16 : ieee::kBinary16) : (t.bytes == 4 ? ieee::kBinary32 : ieee::kBinary64);
  }

  Version version_;
  State state_;
  std::optional<uint64_t> last_operand_;
  State before_;  // the state the last operand ran on: the X, Y and Z lanes each Z lane read
  uint64_t steps_ = 0;                  // operands executed
  DifferenceTally tally_;
};

}  // namespace

std::unique_ptr<EngineScoreboard> make_scoreboard(Version v) { return std::make_unique<AmxScoreboard>(v); }

}  // namespace tmu::amx

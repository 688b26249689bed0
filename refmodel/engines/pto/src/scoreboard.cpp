// The PTO scoreboard (tmu/pto/scoreboard.h): tiles by name, words <-> lanes, and the mismatch
// lines. Declarations and operation lines are read by the program parser's helpers and run by
// pto::execute, so a scoreboard and a `tmu --engine pto run` program agree on every word.
#include "tmu/pto/scoreboard.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/exact_number.h"
#include "tmu/lane_difference.h"
#include "tmu/pto/ops.h"
#include "tmu/pto/program.h"
#include "tmu/pto/text.h"
#include "tmu/pto/tile.h"
#include "tmu/text_lines.h"
#include "scoreboard_diagnosis.h"

namespace tmu::pto {

namespace {

[[noreturn]] void refuse(const std::string& why) { throw Error(ErrorKind::BadInput, why); }

// Owning words: the program step and tile readers take std::string words.
std::vector<std::string> words_of(std::string_view text) {
  const std::vector<std::string_view> w = split_words(text);
  return {w.begin(), w.end()};
}

// The 32-bit words `lanes` lanes of `bits` bits fill. Lane widths are 8, 16, 32 or 64, so a lane
// never straddles two words except a 64-bit lane, which fills two.
size_t words_for(size_t lanes, unsigned bits) { return (lanes * bits + 31) / 32; }

uint64_t unpack_lane(std::span<const uint32_t> words, size_t lane, unsigned bits) {
  if (bits == 64) return uint64_t{words[2 * lane]} | uint64_t{words[2 * lane + 1]} << 32;
  const size_t bit = lane * bits;
  return (words[bit / 32] >> (bit % 32)) & ((uint64_t{1} << bits) - 1);
}

void pack_lane(std::vector<uint32_t>& words, size_t lane, unsigned bits, uint64_t v) {
  if (bits == 64) {
    words[2 * lane] = static_cast<uint32_t>(v);
    words[2 * lane + 1] = static_cast<uint32_t>(v >> 32);
    return;
  }
  const size_t bit = lane * bits;
  words[bit / 32] |= static_cast<uint32_t>(v << (bit % 32));
}

// A parsed location: a tile and its first row and number of rows.
struct Location {
  const NamedTile* tile = nullptr;
  size_t index = 0;  // of the tile, in declaration order
  unsigned first_row = 0, rows = 0;
  unsigned first_col = 0, cols = 0;  // every column, or one element (NAME ROW COL)
  std::string text;

  size_t lanes() const { return size_t{rows} * cols; }
  unsigned bits() const { return width_bits(tile->tile.type); }
  size_t words() const { return words_for(lanes(), bits()); }
  // Element of lane k of the location.
  std::pair<unsigned, unsigned> element(size_t k) const {
    return {first_row + static_cast<unsigned>(k / cols), first_col + static_cast<unsigned>(k % cols)};
  }
};

class PtoScoreboard final : public EngineScoreboard {
 public:
  explicit PtoScoreboard(Profile p) : profile_(p) {
    if (profile_name(p).empty()) refuse("unknown PTO profile");
  }

  void declare(std::string_view text) override {
    const auto w = words_of(text);
    NamedTile t = tile_from_declaration(w);
    if (find(t.name) != tiles_.size()) refuse(fmt::format("PTO tile '{}' is already declared", t.name));
    tiles_.push_back(std::move(t));
  }

  void load(std::string_view location, std::span<const uint32_t> words) override {
    const Location l = parse_location(location);
    check_words(l, words);
    for (size_t k = 0; k < l.lanes(); ++k) {
      const auto [r, c] = l.element(k);
      set(tiles_[l.index].tile, r, c, unpack_lane(words, k, l.bits()));
    }
  }

  void execute(std::string_view operation) override {
    const auto w = words_of(operation);
    const ProgramStep step = step_from_words(w);
    std::vector<NamedTile> before = tiles_;
    // Sources are copies, as in a program: dst may also be a source.
    std::vector<Tile> sources;
    for (const std::string& name : step.srcs) sources.push_back(tiles_[named(name)].tile);
    Tile& dst = tiles_[named(step.dst)].tile;
    std::vector<const Tile*> srcs;
    for (const Tile& t : sources) srcs.push_back(&t);
    pto::execute(profile_, step.op, dst, srcs, step.params);
    last_operation_ = step_text(step);
    last_step_ = step;
    before_ = std::move(before);
    last_dst_ = step.dst;
    last_sources_.clear();
    // The sources read lane by lane at the dst lane's place: every one but TCMP's (its dst packs
    // eight lanes' predicates into a byte) and TSEL's mask (a predicate per bit).
    if (step.op != Op::TCMP)
      for (size_t i = step.op == Op::TSEL ? 1 : 0; i < sources.size(); ++i)
        if (sources[i].rows == dst.rows && sources[i].cols == dst.cols)
          last_sources_.emplace_back(step.srcs[i], std::move(sources[i]));
    ++steps_;
  }

  std::vector<std::string> compare(std::string_view location, std::span<const uint32_t> words) override {
    const Location l = parse_location(location);
    check_words(l, words);
    const Tile& t = l.tile->tile;
    std::vector<size_t> found;  // the mismatching lanes of the location
    for (size_t k = 0; k < l.lanes(); ++k) {
      const auto [r, c] = l.element(k);
      if (unpack_lane(words, k, l.bits()) != t.at(r, c)) found.push_back(k);
    }
    std::vector<std::string> lines;
    for (size_t k : found) {
      const auto [r, c] = l.element(k);
      const uint64_t design = unpack_lane(words, k, l.bits()), model = t.at(r, c);
      std::string line = fmt::format("{} ({}, {}) {}: design {} model {}; ", l.tile->name, r, c, elem_name(t.type),
                                     value(t.type, design), value(t.type, model));
      if (last_operation_.empty()) {
        line += "no operation executed yet";
      } else if (k != found.front()) {
        // The operation and the lane's story are on the comparison's first line.
        line += fmt::format("step {}, the operation of the line above", steps_);
      } else {
        line += fmt::format("after {}; step {}", last_operation_, steps_);
        if (l.tile->name == last_dst_) line += lane_story(l, found, k, design);
      }
      // The 8-bit floats have no infinities and their own NaNs: no IEEE distance for them.
      line += tally_.add_lane(is_float(t.type) && width_bits(t.type) > 8 ? std::optional(float_format(t.type)) : std::nullopt,
                              design, model);
      lines.push_back(std::move(line));
    }
    return lines;
  }

  std::string replay_program() const override {
    if (last_operation_.empty()) return "";
    std::string p = fmt::format(
        "# The PTO scoreboard's step {} on the model alone: the tiles as it read them, then its operation.\n"
        ".profile {}\n",
        steps_, profile_name(profile_));
    for (const NamedTile& n : before_) {
      const Tile& t = n.tile;
      p += fmt::format(".tile {} {} {}x{} {} valid={}x{}\n", n.name, elem_name(t.type), t.rows, t.cols,
                       t.layout == Layout::RowMajor ? "row_major" : "col_major", t.valid_rows, t.valid_cols);
      for (unsigned r = 0; r < t.rows; ++r) {
        bool any = false;
        for (unsigned c = 0; c < t.cols; ++c) any = any || t.at(r, c) != 0;
        if (!any) continue;
        p += fmt::format(".bits {} {} 0", n.name, r);
        for (unsigned c = 0; c < t.cols; ++c) p += fmt::format(" {:#0{}x}", t.at(r, c), 2 + width_bits(t.type) / 4);
        p += "\n";
      }
    }
    return p + last_operation_ + "\n";
  }

  std::string replay_command(std::string_view file) const override {
    if (last_operation_.empty()) return "";
    return fmt::format("tmu --engine pto run {} --show {}", file, last_dst_);
  }

  std::string summary() const override { return tally_.summary("the model"); }

  std::vector<uint32_t> read(std::string_view location) const override {
    const Location l = parse_location(location);
    std::vector<uint32_t> out(l.words(), 0);
    for (size_t k = 0; k < l.lanes(); ++k) {
      const auto [r, c] = l.element(k);
      pack_lane(out, k, l.bits(), l.tile->tile.at(r, c));
    }
    return out;
  }

 private:
  // For the step's first mismatching lane of its dst: the source lanes it read at that place, how
  // many other lanes of the location mismatch, what gives the design's value, and the profile's rule.
  std::string lane_story(const Location& l, const std::vector<size_t>& found, size_t k, uint64_t design) const {
    const auto [r, c] = l.element(k);
    std::string text;
    for (const auto& [name, src] : last_sources_) text += fmt::format("; {} {}", name, value(src.type, src.at(r, c)));
    std::vector<std::string> others;
    for (size_t other : found)
      if (other != k) {
        const auto [orow, ocol] = l.element(other);
        others.push_back(fmt::format("({}, {})", orow, ocol));
      }
    text += other_lanes_text(l.text, "operation", others, "");
    const std::string d = detail::diagnose_step_lane(profile_, last_step_, before_, l.index, r, c, design);
    if (!d.empty()) text += "; " + d;
    const std::string rule = detail::profile_rule(profile_, last_step_.op, l.tile->tile.type);
    if (!rule.empty() && d.find("[profile]") == std::string::npos) text += "; " + rule;
    return text;
  }

  // The tile's index in tiles_, or tiles_.size() when none has the name.
  size_t find(std::string_view name) const {
    size_t i = 0;
    while (i < tiles_.size() && tiles_[i].name != name) ++i;
    return i;
  }

  size_t named(std::string_view name) const {
    const size_t i = find(name);
    if (i == tiles_.size())
      refuse(fmt::format("no PTO tile named '{}' (declare it first: NAME TYPE ROWSxCOLS)", name));
    return i;
  }

  Location parse_location(std::string_view text) const {
    const auto w = words_of(text);
    if (w.empty() || w.size() > 3) refuse(fmt::format("PTO location '{}' is not NAME, NAME ROW or NAME ROW COL", text));
    Location l;
    l.text = std::string(text);
    l.index = named(w[0]);
    l.tile = &tiles_[l.index];
    l.rows = l.tile->tile.rows;
    l.cols = l.tile->tile.cols;
    if (w.size() == 2) {
      const auto r = parse_unsigned(w[1]);
      if (!r || *r >= l.tile->tile.rows)
        refuse(fmt::format("PTO location '{}': row '{}' is not a number from 0 to {}", text, w[1],
                           l.tile->tile.rows - 1));
      l.first_row = static_cast<unsigned>(*r);
      l.rows = 1;
    }
    if (w.size() == 3) {
      const auto c = parse_unsigned(w[2]);
      if (!c || *c >= l.tile->tile.cols)
        refuse(fmt::format("PTO location '{}': column '{}' is not a number from 0 to {}", text, w[2],
                           l.tile->tile.cols - 1));
      l.first_col = static_cast<unsigned>(*c);
      l.cols = 1;
    }
    return l;
  }

  static void check_words(const Location& l, std::span<const uint32_t> words) {
    if (words.size() != l.words())
      refuse(fmt::format("PTO location '{}' ({} {} lanes) takes {} 32-bit words, {} given", l.text, l.lanes(),
                         elem_name(l.tile->tile.type), l.words(), words.size()));
    // A short last word (an i8 or 16-bit row whose lanes do not fill it) must have zero padding: a
    // nonzero one is a packing slip, not data.
    const size_t used = l.lanes() * l.bits() % 32;
    if (used != 0 && (words.back() >> used) != 0)
      refuse(fmt::format("PTO location '{}': the last word {:#010x} has bits set past its last lane (bit {} up)",
                         l.text, words.back(), used));
  }

  static std::string value(ElemType t, uint64_t bits) {
    return fmt::format("{:#0{}x} ({})", bits, 2 + width_bits(t) / 4, lane_to_text(t, bits));
  }

  Profile profile_;
  std::vector<NamedTile> tiles_;
  std::string last_operation_;
  std::string last_dst_;  // the last operation's dst tile, and its lane-wise sources as it read them
  std::vector<std::pair<std::string, Tile>> last_sources_;
  uint64_t steps_ = 0;  // operations executed
  ProgramStep last_step_;
  std::vector<NamedTile> before_;  // the tiles as the last operation read them
  DifferenceTally tally_;
};

}  // namespace

std::unique_ptr<EngineScoreboard> make_scoreboard(Profile p) { return std::make_unique<PtoScoreboard>(p); }

}  // namespace tmu::pto

// AMX programs: the line loop, the state directives and matfp lines (docs/program-format.md).
#include "tmu/amx/program.h"

#include <istream>
#include <ostream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/exact_number.h"
#include "tmu/ieee_text.h"
#include "tmu/program_error.h"
#include "tmu/text_lines.h"

namespace tmu::amx {

namespace {

constexpr uint64_t kMaxRepeat = 1u << 20;

using Line = TextLine;

uint64_t unsigned_number(std::string_view text, uint64_t limit, const char* what) {
  const auto v = parse_unsigned(text);
  if (!v) throw Error(ErrorKind::BadInput, fmt::format("{} '{}' is not a number (decimal or 0x hex)", what, text));
  if (*v > limit) throw Error(ErrorKind::BadInput, fmt::format("{} {} is more than {}", what, text, limit));
  return *v;
}

ieee::Format typed_format(const LaneType& t) {
  switch (t.bytes) {
    case 2: return t.bfloat ? ieee::kBfloat16 : ieee::kBinary16;
    case 4: return ieee::kBinary32;
    default: return ieee::kBinary64;
  }
}

// "FIRST-LAST" or one number.
std::pair<unsigned, unsigned> row_range(std::string_view text, unsigned last) {
  const size_t dash = text.find('-');
  if (dash == std::string_view::npos) {
    const auto r = static_cast<unsigned>(unsigned_number(text, last, "Z row"));
    return {r, r};
  }
  const auto a = static_cast<unsigned>(unsigned_number(text.substr(0, dash), last, "Z row"));
  const auto b = static_cast<unsigned>(unsigned_number(text.substr(dash + 1), last, "Z row"));
  if (a > b) throw Error(ErrorKind::BadInput, fmt::format("Z rows {}: the first is after the last", text));
  return {a, b};
}

// The lane values of `.x/.y/.z ... TYPE v0 v1 ...` or `TYPE fill V` (as many lanes as a 64-byte row).
std::vector<uint64_t> lane_values(const std::vector<std::string>& w, size_t first, LaneType& type) {
  if (first >= w.size()) throw Error(ErrorKind::BadInput, "missing the lane type (f16 bf16 f32 f64 raw8 raw16 raw32 raw64)");
  type = parse_lane_type(w[first]);
  const unsigned lanes = kRowBytes / type.bytes;
  std::vector<uint64_t> out;
  if (first + 1 < w.size() && w[first + 1] == "fill") {
    if (w.size() != first + 3) throw Error(ErrorKind::BadInput, "fill takes exactly one value");
    out.assign(lanes, lane_from_text(type, w[first + 2]));
    return out;
  }
  if (w.size() == first + 1) throw Error(ErrorKind::BadInput, "no values");
  if (w.size() - first - 1 > lanes)
    throw Error(ErrorKind::BadInput, fmt::format("{} values, a 64-byte row holds {} lanes of {}", w.size() - first - 1,
                                                 lanes, w[first]));
  for (size_t i = first + 1; i < w.size(); ++i) out.push_back(lane_from_text(type, w[i]));
  return out;
}

class Runner {
 public:
  Runner(const std::string& path, const ProgramOptions& opts) : path_(path), opts_(opts) { run_.version = opts.version; }

  void run(const std::vector<Line>& lines) {
    bool first = true;
    for (const Line& l : lines) {
      if (l.words[0] == ".version") {
        if (!first) fail(l, ".version must be the first line of the program");
        if (l.words.size() != 2) fail(l, ".version takes one of M1 M2 M3 M4");
        try {
          run_.version = parse_version(l.words[1]);
        } catch (const Error& e) {
          fail(l, e);
        }
      }
      first = false;
    }
    block(lines, 0, lines.size());
  }

  ProgramRun result() && { return std::move(run_); }

 private:
  [[noreturn]] void fail(const Line& l, const std::string& why) const {
    throw ProgramError(path_, static_cast<int>(l.number), why);
  }
  // Bad input reads as the reason alone; the model's refusals keep their kind (DecodeError: ...).
  [[noreturn]] void fail(const Line& l, const Error& e) const {
    fail(l, e.kind() == ErrorKind::BadInput ? e.message() : std::string(e.what()));
  }

  // The `.end` closing the `.repeat` at lines[open].
  size_t matching_end(const std::vector<Line>& lines, size_t open, size_t end) const {
    int depth = 0;
    for (size_t i = open; i < end; ++i) {
      if (lines[i].words[0] == ".repeat") ++depth;
      if (lines[i].words[0] == ".end" && --depth == 0) return i;
    }
    fail(lines[open], ".repeat without .end");
  }

  void block(const std::vector<Line>& lines, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const Line& l = lines[i];
      if (l.words[0] == ".repeat") {
        if (l.words.size() != 2) fail(l, ".repeat takes a count");
        uint64_t n = 0;
        try {
          n = unsigned_number(l.words[1], kMaxRepeat, ".repeat count");
        } catch (const Error& e) {
          fail(l, e);
        }
        const size_t close = matching_end(lines, i, end);
        for (uint64_t k = 0; k < n; ++k) block(lines, i + 1, close);
        i = close;
        continue;
      }
      if (l.words[0] == ".end") fail(l, ".end without .repeat");
      try {
        line(l);
      } catch (const Error& e) {
        fail(l, e);
      }
    }
  }

  void line(const Line& l) {
    const std::vector<std::string>& w = l.words;
    const std::string& op = w[0];
    if (op == ".version") return;  // handled before the run
    if (op == ".x" || op == ".y") {
      if (w.size() < 3) throw Error(ErrorKind::BadInput, fmt::format("{} OFFSET TYPE values...", op));
      const auto offset = static_cast<unsigned>(unsigned_number(w[1], kPoolBytes - 1, "byte offset"));
      LaneType type;
      const std::vector<uint64_t> values = lane_values(w, 2, type);
      Pool& pool = op == ".x" ? run_.state.x : run_.state.y;
      Row row = load_span(pool, offset);
      for (size_t i = 0; i < values.size(); ++i) set_lane(row, type.bytes, static_cast<unsigned>(i), values[i]);
      store_span(pool, offset, row);
      return;
    }
    if (op == ".z") {
      if (w.size() < 3) throw Error(ErrorKind::BadInput, ".z ROW TYPE values... (ROW 0..63 or FIRST-LAST)");
      const auto [a, b] = row_range(w[1], kZRows - 1);
      LaneType type;
      const std::vector<uint64_t> values = lane_values(w, 2, type);
      for (unsigned r = a; r <= b; ++r)
        for (size_t i = 0; i < values.size(); ++i) set_lane(run_.state.z[r], type.bytes, static_cast<unsigned>(i), values[i]);
      return;
    }
    if (op == ".gpr") {
      if (w.size() != 3) throw Error(ErrorKind::BadInput, ".gpr N VALUE (N 0..30, a 64-bit value)");
      const auto n = static_cast<unsigned>(unsigned_number(w[1], 30, "GPR"));
      run_.gpr[n] = unsigned_number(w[2], ~uint64_t{0}, "GPR value");
      return;
    }
    if (op == ".word") {
      if (w.size() != 2) throw Error(ErrorKind::BadInput, ".word takes one 32-bit instruction word");
      const auto word = static_cast<uint32_t>(unsigned_number(w[1], 0xFFFFFFFFu, "instruction word"));
      const unsigned gpr = decode_matfp_word(word);
      if (gpr == 31) throw Error(ErrorKind::BadInput, "GPR 31 is the zero register or SP: set the operand in x0..x30");
      execute(decode_matfp(run_.gpr[gpr]));
      return;
    }
    if (op == "matfp") {
      if (w.size() == 2 && w[1].rfind("0x", 0) == 0) {
        execute(decode_matfp(unsigned_number(w[1], ~uint64_t{0}, "matfp operand")));
        return;
      }
      std::string text;
      for (const std::string& s : w) text += (text.empty() ? "" : " ") + s;
      execute(assemble_matfp(text, run_.version));
      return;
    }
    throw Error(ErrorKind::BadInput,
                fmt::format("unknown line '{}' (matfp, .version, .x, .y, .z, .gpr, .word, .repeat, .end)", op));
  }

  void execute(const MatfpOperand& op) {
    const WriteSet ws = execute_matfp(run_.state, op, run_.version);
    ++run_.instructions;
    if (opts_.trace) {
      *opts_.trace << fmt::format("{:>6}  {:#018x}  {}  zrows={:#018x}\n", run_.instructions, encode_matfp(op),
                                  disassemble_matfp(op, run_.version), ws.z_rows);
    }
  }

  std::string path_;
  ProgramOptions opts_;
  ProgramRun run_;
};

}  // namespace

Version parse_version(std::string_view name) {
  std::string upper;
  for (char c : name) upper += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (upper == "M1") return Version::M1;
  if (upper == "M2") return Version::M2;
  if (upper == "M3") return Version::M3;
  if (upper == "M4") return Version::M4;
  throw Error(ErrorKind::BadInput, fmt::format("unknown AMX version '{}' (M1, M2, M3 or M4)", name));
}

LaneType parse_lane_type(std::string_view name) {
  if (name == "f16") return {2, true, false};
  if (name == "bf16") return {2, true, true};
  if (name == "f32") return {4, true, false};
  if (name == "f64") return {8, true, false};
  if (name == "raw8") return {1, false, false};
  if (name == "raw16") return {2, false, false};
  if (name == "raw32") return {4, false, false};
  if (name == "raw64") return {8, false, false};
  throw Error(ErrorKind::BadInput,
              fmt::format("unknown lane type '{}' (f16 bf16 f32 f64 raw8 raw16 raw32 raw64)", name));
}

uint64_t lane_from_text(const LaneType& t, std::string_view text) {
  if (!t.typed) {
    const uint64_t limit = t.bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * t.bytes)) - 1;
    return unsigned_number(text, limit, "raw lane");
  }
  std::string reason;
  const auto bits = ieee::from_text(typed_format(t), text, &reason);
  if (!bits) throw Error(ErrorKind::BadInput, reason);
  return *bits;
}

std::string lane_to_text(const LaneType& t, uint64_t bits) {
  if (!t.typed) return fmt::format("{}", bits);
  return ieee::to_text(typed_format(t), bits);
}

ProgramRun run_program(std::istream& in, const std::string& path, const ProgramOptions& opts) {
  Runner r(path, opts);
  r.run(read_text_lines(in, "#;"));
  return std::move(r).result();
}

}  // namespace tmu::amx

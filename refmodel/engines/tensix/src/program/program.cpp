// `tmu run` program interpreter. Each line is parsed and applied in order; every failure becomes a
// ProgramError naming the file and line. The syntax is documented in docs/program-format.md.
#include "tmu/tensix/program.h"

#include <charconv>
#include <istream>
#include <optional>
#include <ostream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "tmu/tensix/decode.h"
#include "tmu/error.h"
#include "tmu/suggest.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/state_fields.h"

namespace tmu::tensix {

namespace {

// A failure inside one line; the interpreter adds file and line.
struct LineError {
  std::string reason;
};
[[noreturn]] void bad(std::string reason) { throw LineError{std::move(reason)}; }

std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream ss(line);
  for (std::string w; ss >> w;) words.push_back(w);
  return words;
}

std::string strip_comment(const std::string& line) {
  const auto pos = line.find_first_of("#;");
  return pos == std::string::npos ? line : line.substr(0, pos);
}

uint64_t parse_uint(const std::string& text, const char* what) {
  uint64_t v = 0;
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char* first = text.data() + (hex ? 2 : 0);
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, v, hex ? 16 : 10);
  if (ec != std::errc() || ptr != last || first == last) bad(fmt::format("{} '{}' is not an unsigned number", what, text));
  return v;
}

uint32_t parse_uint_max(const std::string& text, uint64_t max, const char* what) {
  const uint64_t v = parse_uint(text, what);
  if (v > max) bad(fmt::format("{} {} is out of range 0..{}", what, text, max));
  return static_cast<uint32_t>(v);
}

// "ROW" or "FIRST-LAST" (inclusive).
std::pair<uint32_t, uint32_t> parse_row_range(const std::string& text, uint32_t max, const char* what) {
  const auto dash = text.find('-');
  if (dash == std::string::npos) {
    const uint32_t row = parse_uint_max(text, max, what);
    return {row, row};
  }
  const uint32_t first = parse_uint_max(text.substr(0, dash), max, what);
  const uint32_t last = parse_uint_max(text.substr(dash + 1), max, what);
  if (last < first) bad(fmt::format("{} range '{}' runs backwards", what, text));
  return {first, last};
}

std::pair<std::string, std::string> split_assignment(const std::string& word) {
  const auto eq = word.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == word.size())
    bad(fmt::format("expected NAME=VALUE, got '{}'", word));
  return {word.substr(0, eq), word.substr(eq + 1)};
}

bool is_raw_hex(const std::string& v) {
  return v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') && v.find(':') == std::string::npos;
}

TypedValue parse_typed(const std::string& text) {
  std::string reason;
  auto v = parse_typed_value(text, &reason);
  if (!v) bad(fmt::format("value '{}': {}", text, reason));
  return *v;
}

uint32_t parse_src_value(const std::string& text) {
  if (is_raw_hex(text)) return parse_uint_max(text, kSrcDatumMask, "Src datum");
  std::string reason;
  auto d = typed_to_src_datum(parse_typed(text), &reason);
  if (!d) bad(fmt::format("value '{}' cannot be a Src datum: {}", text, reason));
  return *d;
}

uint16_t parse_dst16_value(const std::string& text) {
  if (is_raw_hex(text)) return static_cast<uint16_t>(parse_uint_max(text, 0xFFFF, "Dst16 datum"));
  std::string reason;
  auto d = typed_to_dst16(parse_typed(text), &reason);
  if (!d) bad(fmt::format("value '{}' cannot be a Dst16b datum: {}", text, reason));
  return *d;
}

uint32_t parse_dst32_value(const std::string& text) {
  if (is_raw_hex(text)) return parse_uint_max(text, 0xFFFFFFFFu, "Dst32 datum");
  std::string reason;
  auto d = typed_to_dst32(parse_typed(text), &reason);
  if (!d) bad(fmt::format("value '{}' cannot be a Dst32b datum: {}", text, reason));
  return *d;
}

// "ROW v0 .. v15" or "ROW fill V": the sixteen column values of one row.
template <typename Parse>
auto parse_row_values(const std::vector<std::string>& w, size_t first, Parse parse) {
  using V = decltype(parse(std::string{}));
  std::array<V, 16> out{};
  const size_t n = w.size() - first;
  if (n == 2 && w[first] == "fill") {
    out.fill(parse(w[first + 1]));
  } else if (n == 16) {
    for (size_t c = 0; c < 16; ++c) out[c] = parse(w[first + c]);
  } else {
    bad(fmt::format("expected 16 column values or 'fill VALUE', got {} words", n));
  }
  return out;
}

class Interpreter {
 public:
  // Applies lines to `state` in place.
  Interpreter(const std::string& file, const ProgramOptions& opts, TensixState& state, unsigned thread = 0)
      : file_(file), opts_(opts), state_(state), thread_(thread) {}

  void run(const std::vector<std::string>& lines) { execute_range(lines, 0, lines.size()); }

  // One line on its own (run_program_line): no `.arch` (the state's is fixed) and no `.repeat`.
  std::optional<Insn> run_line(std::string_view text) {
    const auto words = split_words(strip_comment(std::string(text)));
    if (words.empty()) throw Error(ErrorKind::BadInput, "an empty line (an instruction or a directive)");
    if (words[0] == ".arch" || words[0] == ".repeat" || words[0] == ".end")
      throw Error(ErrorKind::BadInput, fmt::format("'{}' takes a whole program; one line cannot be '{}'", words[0], words[0]));
    seen_non_arch_ = true;
    try {
      execute_line(words, 1);
    } catch (const LineError& e) {
      throw Error(ErrorKind::BadInput, e.reason);
    }
    return last_insn_;
  }
  unsigned thread() const { return thread_; }
  uint64_t instructions = 0, matrix_unit_cycles = 0, scalar_unit_cycles = 0;

 private:
  const std::string& file_;
  const ProgramOptions& opts_;
  TensixState& state_;
  unsigned thread_ = 0;
  bool seen_non_arch_ = false;
  std::optional<Insn> last_insn_;  // what the line being run executed

  // Runs lines [begin, end), expanding `.repeat N` ... `.end` blocks (which may nest).
  void execute_range(const std::vector<std::string>& lines, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const auto words = split_words(strip_comment(lines[i]));
      if (words.empty()) continue;
      if (words[0] == ".end") throw ProgramError(file_, static_cast<int>(i + 1), "'.end' without '.repeat'");
      if (words[0] == ".repeat") {
        const size_t close = matching_end(lines, i, end);
        uint32_t count = 0;
        try {
          if (words.size() != 2) bad("usage: .repeat COUNT");
          count = parse_uint_max(words[1], 1u << 20, "repeat count");
        } catch (const LineError& e) {
          throw ProgramError(file_, static_cast<int>(i + 1), e.reason);
        }
        for (uint32_t k = 0; k < count; ++k) execute_range(lines, i + 1, close);
        i = close;
        continue;
      }
      try {
        execute_line(words, static_cast<int>(i + 1));
      } catch (const LineError& e) {
        throw ProgramError(file_, static_cast<int>(i + 1), e.reason);
      } catch (const Error& e) {
        throw ProgramRefusal(file_, static_cast<int>(i + 1), e);
      }
    }
  }

  size_t matching_end(const std::vector<std::string>& lines, size_t open, size_t end) {
    int depth = 0;
    for (size_t j = open; j < end; ++j) {
      const auto w = split_words(strip_comment(lines[j]));
      if (w.empty()) continue;
      if (w[0] == ".repeat") ++depth;
      if (w[0] == ".end" && --depth == 0) return j;
    }
    throw ProgramError(file_, static_cast<int>(open + 1), "'.repeat' without a matching '.end'");
  }

  void execute_line(const std::vector<std::string>& w, int line) {
    const std::string& head = w[0];
    if (head == ".arch") return directive_arch(w);
    seen_non_arch_ = true;
    if (head[0] != '.') return execute_insn(assemble(join(w), state_.arch), line);
    if (head == ".thread") {
      if (w.size() != 2) bad("usage: .thread N");
      thread_ = parse_uint_max(w[1], kNumThreads - 1, "thread");
    } else if (head == ".config") {
      directive_config(w);
    } else if (head == ".threadconfig") {
      set_fields(FieldScope::ThreadConfig, w, 1, 0);
    } else if (head == ".addrmod") {
      if (w.size() < 3) bad("usage: .addrmod SLOT NAME=VALUE ...");
      set_fields(FieldScope::AddrMod, w, 2, parse_uint_max(w[1], kNumAddrMods - 1, "ADDR_MOD slot"));
    } else if (head == ".rwc") {
      set_fields(FieldScope::Rwc, w, 1, 0);
    } else if (head == ".global") {
      set_fields(FieldScope::Global, w, 1, 0);
    } else if (head == ".bank") {
      directive_bank(w);
    } else if (head == ".unpacker") {
      if (w.size() != 3) bad("usage: .unpacker 0|1 bank=N");
      const uint32_t which = parse_uint_max(w[1], 1, "unpacker");
      auto [name, value] = split_assignment(w[2]);
      if (name != "bank") bad(fmt::format("unknown unpacker field '{}' (expected bank)", name));
      state_.Unpackers[which].SrcBank = static_cast<uint8_t>(parse_uint_max(value, 1, "bank"));
    } else if (head == ".l1") {
      directive_l1(w);
    } else if (head == ".adc") {
      directive_adc(w);
    } else if (head == ".srca" || head == ".srcb") {
      if (w.size() < 4) bad(fmt::format("usage: {} BANK ROW[-LAST] v0..v15 | fill V", head));
      const uint32_t bank = parse_uint_max(w[1], kSrcBanks - 1, "bank");
      const auto [first, last] = parse_row_range(w[2], kSrcRows - 1, "Src row");
      const auto vals = parse_row_values(w, 3, parse_src_value);
      for (uint32_t row = first; row <= last; ++row)
        (head == ".srca" ? state_.SrcA : state_.SrcB)[bank].Rows[row] = vals;
    } else if (head == ".dst16") {
      if (w.size() < 3) bad("usage: .dst16 ROW[-LAST] v0..v15 | fill V");
      const auto [first, last] = parse_row_range(w[1], kDstRows - 1, "Dst16b row");
      const auto vals = parse_row_values(w, 2, parse_dst16_value);
      for (uint32_t row = first; row <= last; ++row)
        for (unsigned c = 0; c < kDstCols; ++c) state_.Dst.write16(row, c, vals[c]);
    } else if (head == ".dst32") {
      if (w.size() < 3) bad("usage: .dst32 ROW[-LAST] v0..v15 | fill V");
      const auto [first, last] = parse_row_range(w[1], kDst32Rows - 1, "Dst32b row");
      const auto vals = parse_row_values(w, 2, parse_dst32_value);
      for (uint32_t row = first; row <= last; ++row)
        for (unsigned c = 0; c < kDstCols; ++c) state_.Dst.write32(row, c, vals[c]);
    } else if (head == ".gpr") {
      if (w.size() != 3) bad("usage: .gpr INDEX VALUE");
      const uint32_t index = parse_uint_max(w[1], kNumGprs - 1, "GPR index");
      state_.GPRs[thread_][index] = parse_uint_max(w[2], 0xFFFFFFFFu, "GPR value");
    } else if (head == ".word") {
      if (w.size() < 2 || w.size() > 3 || (w.size() == 3 && w[2] != "rotated"))
        bad("usage: .word HEX [rotated]");
      const uint32_t word = parse_uint_max(w[1], 0xFFFFFFFFu, "instruction word");
      const WordForm form = w.size() == 3 ? WordForm::Rotated : WordForm::Raw;
      execute_insn(decode(to_raw(word, form), state_.arch), line);
    } else {
      static constexpr std::string_view kDirectives[] = {".arch", ".thread", ".config", ".threadconfig", ".addrmod",
                                                         ".rwc", ".global", ".bank", ".unpacker", ".srca", ".srcb",
                                                         ".dst16", ".dst32", ".gpr", ".word", ".l1", ".adc"};
      bad(fmt::format("unknown directive '{}'{}", head, did_you_mean(head, kDirectives)));
    }
  }

  static std::string join(const std::vector<std::string>& w) {
    std::string s;
    for (const auto& x : w) s += (s.empty() ? "" : " ") + x;
    return s;
  }

  void directive_arch(const std::vector<std::string>& w) {
    if (w.size() != 2) bad("usage: .arch blackhole|wormhole");
    if (seen_non_arch_) bad("'.arch' must come before every other line");
    auto a = parse_arch(w[1]);
    if (!a) bad(fmt::format("unknown architecture '{}' (blackhole or wormhole)", w[1]));
    if (opts_.initial && *a != opts_.initial->arch)
      bad(fmt::format("'.arch {}' differs from the {} state the program runs on", w[1], arch_name(opts_.initial->arch)));
    state_.arch = *a;
  }

  void directive_config(const std::vector<std::string>& w) {
    size_t first = 1;
    unsigned state_id = state_.ThreadConfig[thread_].CFG_STATE_ID_StateID & 1;
    if (w.size() > 1 && w[1].rfind("state=", 0) == 0) {
      state_id = parse_uint_max(w[1].substr(6), kNumConfigStates - 1, "config state");
      first = 2;
    }
    set_fields(FieldScope::Config, w, first, state_id);
  }

  void set_fields(FieldScope scope, const std::vector<std::string>& w, size_t first, unsigned index) {
    if (first >= w.size()) bad(fmt::format("{} needs at least one NAME=VALUE", w[0]));
    for (size_t i = first; i < w.size(); ++i) {
      auto [name, value] = split_assignment(w[i]);
      const StateField* f = find_state_field(scope, name);
      if (!f) {
        std::vector<std::string_view> names;
        for (const StateField& sf : state_fields(scope)) names.push_back(sf.name);
        bad(fmt::format("{} has no field '{}'{}", w[0], name, did_you_mean(name, names)));
      }
      const uint64_t max = (uint64_t{1} << f->width) - 1;
      f->set(state_, thread_, index, parse_uint_max(value, max, f->name));
    }
  }

  // .l1 ADDR u8|u16|u32 v0 v1 ... | fill COUNT V: values stored little-endian from byte ADDR. A u16
  // takes bf16:/fp16: values as their IEEE-order patterns, a u32 fp32:/tf32:/bf16:/fp16: ones as
  // FP32 and int8:/int32: as INT32 sign-magnitude (the L1 layouts of docs/l1-formats.md).
  void directive_l1(const std::vector<std::string>& w) {
    if (w.size() < 4) bad("usage: .l1 ADDR u8|u16|u32 v0 v1 ... | fill COUNT V");
    const uint64_t size = l1_size(state_.arch);
    const uint64_t addr = parse_uint_max(w[1], size - 1, "L1 address");
    const unsigned bytes = w[2] == "u8" ? 1 : w[2] == "u16" ? 2 : w[2] == "u32" ? 4 : 0;
    if (!bytes) bad(fmt::format("L1 value width '{}' is not u8, u16 or u32", w[2]));
    std::vector<uint32_t> values;
    if (w[3] == "fill") {
      if (w.size() != 6) bad("usage: .l1 ADDR WIDTH fill COUNT V");
      const uint32_t count = parse_uint_max(w[4], size / bytes, "fill count");
      values.assign(count, parse_l1_value(w[5], bytes));
    } else {
      for (size_t i = 3; i < w.size(); ++i) values.push_back(parse_l1_value(w[i], bytes));
    }
    if (addr + uint64_t{bytes} * values.size() > size)
      bad(fmt::format("{} bytes from L1 address 0x{:x} leave L1 (0x{:x} bytes on {})", bytes * values.size(), addr, size,
                      arch_name(state_.arch)));
    if (state_.L1.empty()) state_.L1.assign(size, 0);
    for (size_t i = 0; i < values.size(); ++i)
      for (unsigned k = 0; k < bytes; ++k) state_.L1[addr + i * bytes + k] = static_cast<uint8_t>(values[i] >> (8 * k));
  }

  static uint32_t parse_l1_value(const std::string& text, unsigned bytes) {
    if (text.find(':') == std::string::npos) return parse_uint_max(text, (uint64_t{1} << (8 * bytes)) - 1, "L1 value");
    const TypedValue v = parse_typed(text);
    std::string reason;
    if (bytes == 2 && (v.format == "bf16" || v.format == "fp16")) {
      const auto d = typed_to_dst16(v, &reason);
      if (d) return v.format == "bf16" ? dst16_to_bf16(*d) : dst16_to_fp16(*d);
    } else if (bytes == 4 && v.format != "raw") {
      const auto d = typed_to_dst32(v, &reason);
      if (d) return dst32_to_fp32(*d);  // the Dst32 shuffle undone: IEEE FP32, or INT32 sign-magnitude
    } else {
      reason = fmt::format("a {}-byte L1 value takes raw bits{}", bytes, bytes == 2 ? ", bf16: or fp16:" : "");
    }
    bad(fmt::format("value '{}' cannot be a {}-bit L1 value: {}", text, 8 * bytes, reason));
  }

  // .adc unpacker0|unpacker1|packer CHANNEL NAME=V ...: the current thread's address counters.
  void directive_adc(const std::vector<std::string>& w) {
    if (w.size() < 4) bad("usage: .adc unpacker0|unpacker1|packer 0|1 X=.. Y=.. Z=.. W=.. (also X_Cr .. W_Cr)");
    AdcSet& set = state_.ADCs[thread_];
    Adc* adc = w[1] == "unpacker0" ? &set.Unpacker[0] : w[1] == "unpacker1" ? &set.Unpacker[1] : w[1] == "packer" ? &set.Packers : nullptr;
    if (!adc) bad(fmt::format("ADC '{}' is not unpacker0, unpacker1 or packer", w[1]));
    AdcChannel& ch = adc->Channel[parse_uint_max(w[2], 1, "ADC channel")];
    for (size_t i = 3; i < w.size(); ++i) {
      auto [name, value] = split_assignment(w[i]);
      uint32_t* field = name == "X" ? &ch.X : name == "X_Cr" ? &ch.X_Cr : name == "Y" ? &ch.Y : name == "Y_Cr" ? &ch.Y_Cr
                      : name == "Z" ? &ch.Z : name == "Z_Cr" ? &ch.Z_Cr : name == "W" ? &ch.W : name == "W_Cr" ? &ch.W_Cr : nullptr;
      if (!field) bad(fmt::format("unknown ADC counter '{}' (X Y Z W X_Cr Y_Cr Z_Cr W_Cr)", name));
      *field = parse_uint_max(value, (1u << 18) - 1, "ADC counter");
    }
  }

  void directive_bank(const std::vector<std::string>& w) {
    if (w.size() < 4 || (w[1] != "srca" && w[1] != "srcb")) bad("usage: .bank srca|srcb BANK owner=matrix|unpackers format=NAME");
    const uint32_t bank = parse_uint_max(w[2], kSrcBanks - 1, "bank");
    SrcBank& b = (w[1] == "srca" ? state_.SrcA : state_.SrcB)[bank];
    for (size_t i = 3; i < w.size(); ++i) {
      auto [name, value] = split_assignment(w[i]);
      if (name == "owner") {
        if (value == "matrix" || value == "MatrixUnit") b.AllowedClient = SrcClient::MatrixUnit;
        else if (value == "unpackers" || value == "Unpackers") b.AllowedClient = SrcClient::Unpackers;
        else bad(fmt::format("owner '{}' is neither matrix nor unpackers", value));
      } else if (name == "format") {
        auto f = parse_data_format(value);
        if (!f) bad(fmt::format("unknown data format '{}'", value));
        b.Format = *f;
      } else {
        bad(fmt::format("unknown bank field '{}' (owner, format)", name));
      }
    }
  }

  void execute_insn(const Insn& insn, int line) {
    last_insn_ = insn;
    const ExecResult r = execute(state_, insn, thread_);
    if (r.status == ExecResult::Status::Stalled)
      bad(fmt::format("{} stalls: {}; nothing in a program can hand the bank over, so it would wait forever "
                      "(give it to the {} with `.bank ... owner={}`)",
                      insn.mnemonic(), r.stall_reason, insn.spec->unit == Unit::Unpacker ? "Unpackers" : "Matrix Unit",
                      insn.spec->unit == Unit::Unpacker ? "unpackers" : "matrix"));
    ++instructions;
    if (insn.spec->unit == Unit::MatrixUnit) matrix_unit_cycles += r.cycles;
    else if (insn.spec->unit == Unit::ScalarUnit) scalar_unit_cycles += r.cycles;
    if (opts_.trace) {
      *opts_.trace << fmt::format("{}:{}: t{} {} | cycles={} latency={} dst_rows={} gprs={}{}{}\n", file_, line,
                                  thread_, disassemble(insn), r.cycles, r.latency, r.writes.dst_rows.size(),
                                  r.writes.gprs.size(), r.writes.rwcs ? " rwcs" : "", r.writes.banks ? " banks" : "");
    }
  }
};

}  // namespace

ProgramRun run_program(std::istream& in, const std::string& file, const ProgramOptions& options) {
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (in.bad()) throw ProgramError(file, 0, "read error");
  ProgramRun run;
  if (options.initial) run.state = *options.initial;
  else run.state.arch = options.arch;
  Interpreter interp(file, options, run.state);
  interp.run(lines);
  run.instructions = interp.instructions;
  run.matrix_unit_cycles = interp.matrix_unit_cycles;
  run.scalar_unit_cycles = interp.scalar_unit_cycles;
  return run;
}

std::optional<Insn> run_program_line(TensixState& state, unsigned& thread, std::string_view line) {
  const ProgramOptions options;
  const std::string file = "line";
  Interpreter interp(file, options, state, thread);
  const std::optional<Insn> insn = interp.run_line(line);
  thread = interp.thread();
  return insn;
}

}  // namespace tmu::tensix

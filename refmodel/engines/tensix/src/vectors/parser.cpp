// Parsing vector files (docs/vector-format.md). The first problem stops the file and is reported as
// "file:line: reason": a malformed line, an unknown record or field, an index or value out of
// range, an instruction word that does not decode, records out of order, or a truncated file.
#include <algorithm>
#include <charconv>
#include <istream>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "conversion.h"
#include "text.h"
#include "tmu/tensix/decode.h"
#include "tmu/error.h"
#include "tmu/hex_digits.h"
#include "tmu/vector_file.h"

namespace tmu::tensix::vectors {

namespace {

using namespace detail;

[[noreturn]] void bad(std::string reason) { throw Error(ErrorKind::BadInput, std::move(reason)); }


uint32_t parse_decimal(std::string_view t, uint32_t max, const char* what) {
  uint32_t v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 10);
  if (ec == std::errc::result_out_of_range) bad(fmt::format("{} '{}' is out of range 0..{}", what, t, max));
  if (ec != std::errc() || ptr != t.data() + t.size()) bad(fmt::format("{} '{}' is not a decimal number", what, t));
  if (v > max) bad(fmt::format("{} {} is out of range 0..{}", what, v, max));
  return v;
}

// A hex value at most `max`; `what` names it in the error (a string, or a callable giving one,
// so that a record's description is only formatted when it is needed).
template <typename What>
uint32_t parse_hex(std::string_view t, uint32_t max, const What& what) {
  auto name = [&]() -> std::string {
    if constexpr (std::is_invocable_v<What>) return what();
    else return std::string(what);
  };
  uint64_t v = 0;
  if (!parse_hex_digits(t, 8, v)) bad(fmt::format("{} '{}' is not a hex value (1 to 8 hex digits, no prefix)", name(), t));
  if (v > max) bad(fmt::format("{} 0x{:x} is out of range 0..0x{:x}", name(), v, max));
  return static_cast<uint32_t>(v);
}

void expect_count(std::span<const std::string_view> w, size_t n, const char* usage) {
  if (w.size() != n) bad(fmt::format("expected '{}' ({} words), got {} words", usage, n, w.size()));
}

// One location record: the words after `init` / `expect`.
Record parse_record(std::span<const std::string_view> all, Arch arch, unsigned version) {
  const std::span<const std::string_view> w = all.subspan(1);
  if (w.empty()) bad(fmt::format("'{}' needs a location", all[0]));
  Record r;
  const std::string_view kind = w[0];
  auto field_of = [&](Space space, std::string_view name, std::string_view value) {
    const int f = find_field(space, name);
    if (f < 0) bad(fmt::format("{} has no field '{}'", kind, name));
    r.field = static_cast<uint16_t>(f);
    const unsigned width = field_width(space, r.field);
    r.value = parse_hex(value, static_cast<uint32_t>((uint64_t{1} << width) - 1),
                        [&] { return fmt::format("{} field {} ({} bits)", kind, name, width); });
  };
  auto row_values = [&](size_t first, uint32_t max, const char* what) {
    if (w.size() != first + kSrcCols) bad(fmt::format("{} row: expected 16 values, got {}", kind, w.size() - first));
    for (unsigned c = 0; c < kSrcCols; ++c) r.row[c] = parse_hex(w[first + c], max, what);
  };
  if (kind == "cfg") {
    r.space = Space::Config;
    expect_count(w, 4, "cfg STATE NAME HEX");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], kNumConfigStates - 1, "config state"));
    field_of(r.space, w[2], w[3]);
  } else if (kind == "tcfg" || kind == "rwc") {
    r.space = kind == "tcfg" ? Space::ThreadConfig : Space::Rwc;
    expect_count(w, 4, kind == "tcfg" ? "tcfg THREAD NAME HEX" : "rwc THREAD NAME HEX");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], kNumThreads - 1, "thread"));
    field_of(r.space, w[2], w[3]);
  } else if (kind == "addrmod") {
    r.space = Space::AddrMod;
    expect_count(w, 5, "addrmod THREAD SLOT NAME HEX");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], kNumThreads - 1, "thread"));
    r.b = static_cast<uint16_t>(parse_decimal(w[2], kNumAddrMods - 1, "ADDR_MOD slot"));
    field_of(r.space, w[3], w[4]);
  } else if (kind == "global") {
    r.space = Space::Global;
    expect_count(w, 3, "global NAME HEX");
    field_of(r.space, w[1], w[2]);
  } else if (kind == "bank") {
    r.space = Space::Bank;
    expect_count(w, 5, "bank srca|srcb BANK NAME HEX");
    if (w[1] != "srca" && w[1] != "srcb") bad(fmt::format("bank '{}' is neither srca nor srcb", w[1]));
    r.a = w[1] == "srcb";
    r.b = static_cast<uint16_t>(parse_decimal(w[2], kSrcBanks - 1, "bank"));
    field_of(r.space, w[3], w[4]);
  } else if (kind == "unpacker") {
    r.space = Space::Unpacker;
    expect_count(w, 4, "unpacker INDEX NAME HEX");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], 1, "unpacker"));
    field_of(r.space, w[2], w[3]);
  } else if (kind == "gpr") {
    r.space = Space::Gpr;
    expect_count(w, 4, "gpr THREAD INDEX HEX");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], kNumThreads - 1, "thread"));
    r.b = static_cast<uint16_t>(parse_decimal(w[2], kNumGprs - 1, "GPR index"));
    r.value = parse_hex(w[3], 0xFFFFFFFFu, "GPR value");
  } else if (kind == "srca" || kind == "srcb") {
    r.space = kind == "srca" ? Space::SrcA : Space::SrcB;
    if (w.size() < 3) bad(fmt::format("expected '{} BANK ROW v0 .. v15'", kind));
    r.a = static_cast<uint16_t>(parse_decimal(w[1], kSrcBanks - 1, "bank"));
    r.b = static_cast<uint16_t>(parse_decimal(w[2], kSrcRows - 1, "Src row"));
    row_values(3, kSrcDatumMask, "Src datum (19 bits)");
  } else if (kind == "dst") {
    r.space = Space::Dst;
    if (w.size() < 3) bad("expected 'dst ROW VALID v0 .. v15'");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], kDstRows - 1, "Dst row"));
    r.value = parse_decimal(w[2], 1, "validity");
    row_values(3, 0xFFFF, "Dst datum (16 bits)");
  } else if (kind == "dstvalid") {
    r.space = Space::DstValid;
    expect_count(w, 3, "dstvalid ROW VALID");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], kDstRows - 1, "Dst row"));
    r.value = parse_decimal(w[2], 1, "validity");
  } else if (kind == "l1line") {
    if (w.size() < 2) bad("expected 'l1line ADDR b0 .. b15'");
    const uint32_t addr = parse_decimal(w[1], l1_size(arch) - 16, "L1 address");
    if (addr % 16) bad(fmt::format("L1 address {} is not a multiple of 16", addr));
    r = l1_line_location(addr);
    row_values(2, 0xFF, "L1 byte (8 bits)");
  } else if (kind == "adc") {
    r.space = Space::Adc;
    expect_count(w, 6, "adc THREAD unpacker0|unpacker1|packer CHANNEL NAME HEX");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], kNumThreads - 1, "thread"));
    const int unit = w[2] == "unpacker0" ? 0 : w[2] == "unpacker1" ? 1 : w[2] == "packer" ? 2 : -1;
    if (unit < 0) bad(fmt::format("ADC '{}' is not unpacker0, unpacker1 or packer", w[2]));
    r.b = static_cast<uint16_t>(unit * 2 + parse_decimal(w[3], 1, "ADC channel"));
    field_of(r.space, w[4], w[5]);
  } else if (kind == "packer") {
    r.space = Space::Packer;
    expect_count(w, 3, "packer NAME HEX");
    field_of(r.space, w[1], w[2]);
  } else if (kind == "srcrow") {
    r.space = Space::SrcRow;
    expect_count(w, 4, "srcrow UNPACKER THREAD HEX");
    r.a = static_cast<uint16_t>(parse_decimal(w[1], 1, "unpacker"));
    r.b = static_cast<uint16_t>(parse_decimal(w[2], kNumThreads - 1, "thread"));
    r.value = parse_hex(w[3], kSrcRows - 1, "SrcRow (6 bits)");
  } else {
    bad(fmt::format("unknown location '{}' (cfg tcfg addrmod rwc global bank unpacker gpr srca srcb dst dstvalid "
                    "l1line adc packer srcrow)", kind));
  }
  if (is_l1_space(r.space) && version < kL1FormatVersion)
    bad(fmt::format("'{}' is a record of format version {}; this file says 'tmu-vectors {}'", kind, kL1FormatVersion, version));
  return r;
}

// The location keys of one section, to refuse a location listed twice: open addressing in one
// reused array (a node-based set allocated once per record, a large part of reading a file).
class KeySet {
 public:
  void clear() {
    std::fill(slots_.begin(), slots_.end(), kEmpty);
    size_ = 0;
    has_empty_key_ = false;
  }
  // False when `key` was already there.
  bool insert(uint64_t key) {
    if (key == kEmpty) return !std::exchange(has_empty_key_, true);
    if (2 * (size_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (slots_[i] == kEmpty) {
        slots_[i] = key;
        ++size_;
        return true;
      }
    }
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  static size_t mix(uint64_t k) { return static_cast<size_t>((k * 0x9E3779B97F4A7C15u) >> 32); }
  void grow() {
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(std::max<size_t>(64, 2 * old.size()), kEmpty);
    size_ = 0;
    for (uint64_t k : old)
      if (k != kEmpty) insert(k);
  }
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
  bool has_empty_key_ = false;
};

// The Tensix records of the shared framing (tmu/vector_file.h): the "arch" header record, and inside
// a vector thread, view, init, insn, expect.
class Parser {
 public:
  Parser(const std::string& file) : file_(file) {}

  VectorFile parse(std::istream& in) {
    VectorRecordHandler h;
    // Comments carry no meaning, but the header lines and a vector's note are kept so that a parsed
    // file prints back to the same text.
    h.version = [this](unsigned v) { version_ = v; };
    h.header_comment = [this](const std::string& text) {
      if (!seen_arch_) out_.header.push_back(text);
    };
    h.header = [this](const TextLine& l) { header(views(l)); };
    h.begin = [this](const VectorBlock& b) { begin(b); };
    h.record_view = [this](const TextLineView& l) { in_vector(l.words, static_cast<int>(l.number)); };
    h.end = [this](const VectorBlock& b) { end(b); };
    read_vector_frame(in, file_, "tensix", h, /*engine_line_optional=*/true);
    return std::move(out_);
  }

 private:
  enum class Stage { Init, Insn, Expect };
  const std::string& file_;
  VectorFile out_;
  bool seen_arch_ = false;
  unsigned version_ = kVectorFormatVersion;
  std::optional<Vector> current_;
  Stage stage_ = Stage::Init;
  KeySet init_keys_, expect_keys_;
  size_t init_size_ = 0, expect_size_ = 0;  // the last vector's sections
  std::vector<std::string_view> words_;  // the header record's words

  const std::vector<std::string_view>& views(const TextLine& l) {
    words_.assign(l.words.begin(), l.words.end());
    return words_;
  }

  void header(const std::vector<std::string_view>& w) {
    const std::string_view head = w[0];
    if (head != "arch") bad(fmt::format("unknown record '{}' outside a vector (arch, vector, eof)", head));
    expect_count(w, 2, "arch blackhole|wormhole");
    if (seen_arch_) bad("'arch' given twice");
    const auto a = parse_arch(w[1]);
    if (!a) bad(fmt::format("unknown architecture '{}' (blackhole or wormhole)", w[1]));
    out_.arch = *a;
    seen_arch_ = true;
  }

  void begin(const VectorBlock& b) {
    if (!seen_arch_) bad("'arch' must come before the first vector");
    current_.emplace();
    // The vectors of a file are alike: sized as the last one, a section is not grown record by record.
    current_->init.reserve(init_size_);
    current_->expect.reserve(expect_size_);
    current_->name = b.name;
    current_->note = b.note;
    current_->line = static_cast<int>(b.line);
    stage_ = Stage::Init;
    init_keys_.clear();
    expect_keys_.clear();
  }

  void end(const VectorBlock& b) {
    Vector& v = *current_;
    if (v.conversion) check_conversion_complete(*v.conversion);
    else if (v.words.empty()) bad(fmt::format("vector '{}' has no 'insn'", v.name));
    v.end_line = static_cast<int>(b.end_line);
    init_size_ = v.init.size();
    expect_size_ = v.expect.size();
    out_.vectors.push_back(std::move(v));
    current_.reset();
  }

  void in_vector(std::span<const std::string_view> w, int number) {
    Vector& v = *current_;
    const std::string_view head = w[0];
    if (v.conversion) {
      parse_conversion_record(*v.conversion, w, number);
      return;
    }
    if (is_conversion_head(head)) {
      if (version_ < kConversionFormatVersion)
        bad(fmt::format("'{}' is a record of format version {}; this file says 'tmu-vectors {}'", head,
                        kConversionFormatVersion, version_));
      if (stage_ != Stage::Init || !v.init.empty() || v.thread != 0 || v.srca_view != View::Raw ||
          v.srcb_view != View::Raw || v.dst_view != View::Raw)
        bad(fmt::format("'{}' must be a vector's first record (a conversion vector has no thread, view, init or insn)", head));
      v.conversion = parse_conversion_head(w, out_.arch);
      return;
    }
    if (head == "thread") {
      expect_count(w, 2, "thread N");
      if (stage_ != Stage::Init || !v.init.empty()) bad("'thread' must come right after 'vector'");
      v.thread = parse_decimal(w[1], kNumThreads - 1, "thread");
    } else if (head == "view") {
      expect_count(w, 3, "view srca|srcb|dst STYLE");
      if (stage_ != Stage::Init) bad("'view' must come before 'insn'");
      View view;
      if (!parse_view(w[2], &view)) bad(fmt::format("unknown view '{}' (raw bf16 fp16 tf32 int8 fp32 int32)", w[2]));
      if (w[1] == "srca") v.srca_view = view;
      else if (w[1] == "srcb") v.srcb_view = view;
      else if (w[1] == "dst") v.dst_view = view;
      else bad(fmt::format("view of '{}': expected srca, srcb or dst", w[1]));
    } else if (head == "init") {
      if (stage_ != Stage::Init) bad("'init' after 'insn': the initial state comes first");
      add(v.init, init_keys_, parse_record(w, out_.arch, version_), number);
    } else if (head == "insn") {
      expect_count(w, 2, "insn HEX");
      if (stage_ == Stage::Expect) bad("'insn' after 'expect': instructions come before the expected state");
      const uint32_t word = parse_hex(w[1], 0xFFFFFFFFu, "instruction word");
      try {
        (void)decode(word, out_.arch);
      } catch (const Error& e) {
        bad(fmt::format("unknown instruction {:08x}: {}", word, e.what()));
      }
      v.words.push_back(word);
      v.word_lines.push_back(number);
      stage_ = Stage::Insn;
    } else if (head == "expect") {
      if (stage_ == Stage::Init) bad("'expect' before any 'insn'");
      stage_ = Stage::Expect;
      add(v.expect, expect_keys_, parse_record(w, out_.arch, version_), number);
    } else {
      bad(fmt::format("unknown record '{}' in a vector (thread view init insn expect end; pack unpack first)", head));
    }
  }

  static void add(std::vector<Record>& section, KeySet& keys, Record r, int number) {
    if (!keys.insert(r.location_key()))
      bad(fmt::format("{} is listed twice in this section", location_text(r)));
    r.line = number;
    section.push_back(r);
  }
};

}  // namespace

VectorFile parse_vector_file(std::istream& in, const std::string& file) { return Parser(file).parse(in); }

}  // namespace tmu::tensix::vectors

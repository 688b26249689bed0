#include "tmu/vector_file.h"

#include <charconv>
#include <istream>
#include <memory>
#include <optional>
#include <span>
#include <unordered_set>
#include <sstream>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/program_error.h"

namespace tmu {

namespace {

constexpr std::string_view kComment = "#";

// The version a version line names when this reader takes it, else 0.
unsigned version_of(std::span<const std::string_view> w) {
  if (w.size() != 2 || w[0] != kVectorMagic) return 0;
  for (unsigned v = 1; v <= kVectorFormatNewest; ++v)
    if (w[1] == std::to_string(v)) return v;
  return 0;
}

std::string version_text() { return fmt::format("{} {}", kVectorMagic, kVectorFormatVersion); }

// Why `l`, a file's first record, is not the version line this reader takes; "" when it is.
std::string version_problem(std::span<const std::string_view> w) {
  if (version_of(w) != 0) return "";
  if (w[0] == kVectorMagic && w.size() == 2)
    return fmt::format("format version {} is not supported (this tmu reads versions 1 to {})", w[1], kVectorFormatNewest);
  return fmt::format("expected the version line '{}' first", version_text());
}

}  // namespace

FramedVectorFile read_vector_frame(std::istream& in, const std::string& path, std::string_view engine,
                                   const VectorRecordHandler& handler, bool engine_line_optional) {
  FramedVectorFile f;
  f.path = path;
  const auto fail = [&](unsigned line, const std::string& why) { vector_file_error(f, line, why); };
  const auto handle = [&](unsigned line, const auto& call, const auto& what) {
    if (!call) return;
    try {
      call(what);
    } catch (const Error& e) {
      fail(line, e.kind() == ErrorKind::BadInput ? e.message() : std::string(e.what()));
    }
  };
  const auto check_engine = [&](unsigned line) {
    if (f.engine != engine && !(f.engine.empty() && engine_line_optional))
      fail(line, fmt::format("expected 'engine {}' (tmu check replays a file with the engine it names)", engine));
  };
  const auto check_header = [&](unsigned line) {
    if (f.vectors.empty() && f.header.empty() && !handler.required_header.empty())
      fail(line, fmt::format("expected the header record '{}' before the first vector", handler.required_header));
  };
  enum class Stage { Version, Engine, Body } stage = Stage::Version;
  std::optional<VectorBlock> open;
  std::unordered_set<std::string> names;
  size_t vectors = 0;
  bool seen_eof = false;
  unsigned line_count = 0;
  TextLine copy;  // the record as the handlers that take a TextLine see it
  for_each_text_line_view(in, kComment, {.keep_comments = true, .line_count = &line_count}, [&](const TextLineView& l) {
    if (l.words.empty()) {
      if (stage != Stage::Version && !open && vectors == 0 && l.comment_starts_line)
        handle(l.number, handler.header_comment, std::string(l.comment));
      return;
    }
    const std::string_view head = l.words[0];
    if (stage == Stage::Version) {
      if (const std::string why = version_problem(l.words); !why.empty()) fail(l.number, why);
      f.version = version_of(l.words);
      handle(l.number, handler.version, f.version);
      stage = Stage::Engine;
      return;
    }
    if (stage == Stage::Engine) {
      stage = Stage::Body;
      if (head == "engine") {
        if (l.words.size() != 2) fail(l.number, "engine takes one name");
        f.engine = std::string(l.words[1]);
        check_engine(l.number);
        return;
      }
      check_engine(l.number);
    }
    if (seen_eof) fail(l.number, fmt::format("'{}' after the 'eof' line", head));
    if (open) {
      if (head == "end") {
        if (l.words.size() != 1) fail(l.number, "expected 'end' alone");
        open->end_line = l.number;
        handle(l.number, handler.end, *open);
        f.vectors.push_back(std::move(*open));
        open.reset();
        ++vectors;
      } else if (head == "vector" || head == "eof") {
        fail(l.number, fmt::format("'{}' inside vector '{}' (line {}): its 'end' is missing", head, open->name, open->line));
      } else if (handler.record_view) {
        handle(l.number, handler.record_view, l);
      } else if (handler.record) {
        copy_text_line(l, copy);
        handle(l.number, handler.record, copy);
      }
      return;
    }
    if (head == "vector" || head == "eof") check_header(l.number);
    if (head == "vector") {
      if (l.words.size() != 2) fail(l.number, "expected 'vector NAME'");
      if (!names.emplace(l.words[1]).second) fail(l.number, fmt::format("vector name '{}' is used twice", l.words[1]));
      const size_t start = l.comment.find_first_not_of(' ');
      open = VectorBlock{std::string(l.words[1]), std::string(start == std::string_view::npos ? "" : l.comment.substr(start)),
                         l.number, 0};
      handle(l.number, handler.begin, *open);
    } else if (head == "eof") {
      size_t n = 0;
      const std::string_view t = l.words.size() == 2 ? l.words[1] : head;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
      if (l.words.size() != 2 || ec != std::errc() || end != t.data() + t.size())
        fail(l.number, "expected 'eof VECTORS' (the number of vectors)");
      if (n != vectors)
        fail(l.number, fmt::format("truncated or edited file: 'eof' says {} vectors, the file holds {}", n, vectors));
      seen_eof = true;
    } else if (vectors == 0) {
      copy_text_line(l, f.header.emplace_back());
      handle(l.number, handler.header, f.header.back());
    } else {
      fail(l.number, fmt::format("unknown record '{}' between vectors (vector, eof)", head));
    }
  });
  if (stage == Stage::Version) fail(line_count + 1, fmt::format("empty file: expected '{}'", version_text()));
  if (stage == Stage::Engine) check_engine(line_count + 1);
  if (open) fail(line_count + 1, fmt::format("truncated file: vector '{}' (line {}) has no 'end'", open->name, open->line));
  check_header(line_count + 1);
  if (!seen_eof) fail(line_count + 1, fmt::format("truncated file: no 'eof' line after {} vectors", vectors));
  return f;
}

NamedEngine vector_file_engine(std::istream& in, const std::string& path) {
  std::string text;
  bool versioned = false;
  for (unsigned number = 1; std::getline(in, text); ++number) {
    if (const size_t c = text.find_first_of(kComment); c != std::string::npos) text.resize(c);
    std::istringstream words(text);
    TextLine l{number, {}, {}, false};
    for (std::string w; words >> w;) l.words.push_back(w);
    if (l.words.empty()) continue;
    if (!versioned) {
      const std::vector<std::string_view> w(l.words.begin(), l.words.end());
      if (const std::string why = version_problem(w); !why.empty()) throw ProgramError(path, static_cast<int>(number), why);
      versioned = true;
      continue;
    }
    return NamedEngine{l.words[0] == "engine" && l.words.size() == 2 ? l.words[1] : std::string(), number};
  }
  if (!versioned)
    throw ProgramError(path, 1, fmt::format("empty file: expected the version line '{}'", version_text()));
  return NamedEngine{"", 2};
}

std::string vector_file_head(std::string_view engine, const std::vector<std::string>& comments) {
  std::string out = version_text() + "\n";
  for (const std::string& c : comments) out += "# " + c + "\n";
  if (!engine.empty()) out += fmt::format("engine {}\n", engine);
  return out;
}

std::string vector_record(std::string_view name, std::string_view comment) {
  return comment.empty() ? fmt::format("vector {}\n", name) : fmt::format("vector {}  # {}\n", name, comment);
}

std::string vector_file_tail(size_t vectors) { return fmt::format("\neof {}\n", vectors); }

std::function<void(const TextLine&)> arch_header(std::string_view names, std::function<void(const std::string&)> take) {
  auto seen = std::make_shared<bool>(false);
  return [names = std::string(names), take = std::move(take), seen](const TextLine& l) {
    if (*seen || l.words[0] != "arch" || l.words.size() != 2)
      throw Error(ErrorKind::BadInput, fmt::format("expected one header record 'arch {}'", names));
    *seen = true;
    take(l.words[1]);
  };
}

void vector_file_error(const FramedVectorFile& f, unsigned line, const std::string& reason) {
  throw ProgramError(f.path, static_cast<int>(line), reason);
}

}  // namespace tmu

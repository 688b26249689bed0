#include "tmu/vector_file.h"

#include <charconv>
#include <istream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/program_error.h"

namespace tmu {

namespace {

constexpr std::string_view kComment = "#";

bool is_version_line(const TextLine& l) {
  return l.words.size() == 2 && l.words[0] == kVectorMagic && l.words[1] == std::to_string(kVectorFormatVersion);
}

std::string version_text() { return fmt::format("{} {}", kVectorMagic, kVectorFormatVersion); }

}  // namespace

FramedVectorFile read_vector_frame(std::istream& in, const std::string& path, std::string_view engine,
                                   const VectorRecordHandler& handler) {
  FramedVectorFile f;
  f.path = path;
  unsigned line_count = 0;
  const std::vector<TextLine> lines = read_text_lines(in, kComment, &line_count);
  const auto fail = [&](unsigned line, const std::string& why) { vector_file_error(f, line, why); };
  const auto handle = [&](unsigned line, const auto& call, const auto& what) {
    if (!call) return;
    try {
      call(what);
    } catch (const Error& e) {
      fail(line, e.kind() == ErrorKind::BadInput ? e.message() : std::string(e.what()));
    }
  };
  if (lines.empty()) fail(line_count + 1, fmt::format("empty file: expected the version line '{}'", version_text()));
  if (!is_version_line(lines[0])) fail(lines[0].number, fmt::format("expected the version line '{}'", version_text()));
  size_t i = 1;
  if (i < lines.size() && lines[i].words[0] == "engine") {
    if (lines[i].words.size() != 2) fail(lines[i].number, "engine takes one name");
    f.engine = lines[i].words[1];
    ++i;
  }
  if (f.engine != engine)
    fail(i < lines.size() ? lines[i - (f.engine.empty() ? 0 : 1)].number : line_count + 1,
         fmt::format("expected 'engine {}' (tmu check replays a file with the engine it names)", engine));
  VectorBlock* open = nullptr;
  bool seen_eof = false;
  for (; i < lines.size(); ++i) {
    const TextLine& l = lines[i];
    const std::string& head = l.words[0];
    if (seen_eof) fail(l.number, fmt::format("'{}' after the 'eof' record", head));
    if (open) {
      if (head == "end") {
        if (l.words.size() != 1) fail(l.number, "end takes nothing");
        handle(l.number, handler.end, *open);
        open = nullptr;
      } else if (head == "vector" || head == "eof") {
        fail(l.number, fmt::format("vector {} has no end before '{}'", open->name, head));
      } else {
        open->records.push_back(l);
        handle(l.number, handler.record, l);
      }
      continue;
    }
    if (head == "vector") {
      if (l.words.size() != 2) fail(l.number, "expected 'vector NAME'");
      for (const VectorBlock& v : f.vectors)
        if (v.name == l.words[1]) fail(l.number, fmt::format("vector name '{}' used twice", v.name));
      f.vectors.push_back(VectorBlock{l.words[1], l.number, {}});
      open = &f.vectors.back();
      handle(l.number, handler.begin, *open);
    } else if (head == "eof") {
      size_t n = 0;
      const std::string& t = l.words.size() == 2 ? l.words[1] : head;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
      if (l.words.size() != 2 || ec != std::errc() || end != t.data() + t.size())
        fail(l.number, "eof takes the number of vectors");
      if (n != f.vectors.size())
        fail(l.number, fmt::format("eof {} but the file has {} vectors (truncated or edited)", n, f.vectors.size()));
      seen_eof = true;
    } else if (f.vectors.empty()) {
      f.header.push_back(l);
      handle(l.number, handler.header, l);
    } else {
      fail(l.number, fmt::format("unknown record '{}' between vectors (expected 'vector NAME' or 'eof N')", head));
    }
  }
  if (open) fail(line_count + 1, fmt::format("vector {} has no end (truncated file)", open->name));
  if (!seen_eof) fail(line_count + 1, "no 'eof N' record (truncated file)");
  return f;
}

NamedEngine vector_file_engine(std::istream& in, const std::string& path) {
  std::string text;
  bool versioned = false;
  for (unsigned number = 1; std::getline(in, text); ++number) {
    if (const size_t c = text.find_first_of(kComment); c != std::string::npos) text.resize(c);
    std::istringstream words(text);
    TextLine l{number, {}};
    for (std::string w; words >> w;) l.words.push_back(w);
    if (l.words.empty()) continue;
    if (!versioned) {
      if (!is_version_line(l))
        throw ProgramError(path, static_cast<int>(number), fmt::format("expected the version line '{}'", version_text()));
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

#include "tmu/text_lines.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <istream>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tmu {

namespace {

// Word characters are nearly all above ' ', so one comparison settles most of them.
bool blank(char c) { return static_cast<unsigned char>(c) <= ' ' && (c == ' ' || c == '\t' || c == '\r'); }

// The first of `set` in `text`. string_view::find_first_of calls memchr once per character of the
// line; a one-character set (every engine's "#") is one memchr call, a longer one a single scan.
size_t first_of(std::string_view text, std::string_view set) {
  if (set.size() == 1) {
    const void* hit = std::memchr(text.data(), set[0], text.size());
    return hit ? static_cast<size_t>(static_cast<const char*>(hit) - text.data()) : std::string_view::npos;
  }
  for (size_t i = 0; i < text.size(); ++i)
    for (char c : set)
      if (text[i] == c) return i;
  return std::string_view::npos;
}

// Calls `line` with each line of `in` (without its newline; a last line without one counts, as
// with std::getline), reading in large blocks: std::getline's per-line stream overhead was a large
// part of replaying a vector file.
template <typename Line>
void for_each_line(std::istream& in, Line line) {
  constexpr size_t kBlock = size_t{1} << 20;
  std::string buf(kBlock, '\0');
  size_t kept = 0;  // bytes of an unfinished line at the front of buf
  for (;;) {
    if (buf.size() - kept < kBlock / 2) buf.resize(buf.size() + kBlock);  // a line longer than the block
    in.read(buf.data() + kept, static_cast<std::streamsize>(buf.size() - kept));
    const size_t have = kept + static_cast<size_t>(in.gcount());
    const char* p = buf.data();
    const char* const stop = buf.data() + have;
    while (const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(stop - p)))) {
      line(std::string_view(p, static_cast<size_t>(nl - p)));
      p = nl + 1;
    }
    kept = static_cast<size_t>(stop - p);
    if (!in) {
      if (kept) line(std::string_view(p, kept));
      return;
    }
    std::memmove(buf.data(), p, kept);
  }
}

}  // namespace

// A vector file's lines are mostly short words, so
// a character at a time spent a branch per character; with SSE2 (every x86-64) sixteen characters
// are classified at once and only the blank/word edges are visited, a word starting at each even
// edge and ending at each odd one. The tail, and other hosts, take the same rule a character at a time.
void split_words(std::string_view text, std::vector<std::string_view>& words) {
  words.clear();
  const char* const base = text.data();
  const size_t n = text.size();
  size_t i = 0, start = 0;
  bool in_word = false;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), cr = _mm_set1_epi8('\r');
  for (; i + 16 <= n; i += 16) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + i));
    const __m128i blanks =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, space), _mm_cmpeq_epi8(c, tab)), _mm_cmpeq_epi8(c, cr));
    const uint32_t word = ~static_cast<uint32_t>(_mm_movemask_epi8(blanks)) & 0xFFFFu;
    for (uint32_t edges = (word ^ ((word << 1) | (in_word ? 1u : 0u))) & 0xFFFFu; edges; edges &= edges - 1) {
      const size_t at = i + static_cast<size_t>(std::countr_zero(edges));
      if (!in_word) start = at;
      else words.emplace_back(base + start, at - start);
      in_word = !in_word;
    }
  }
#endif
  for (; i < n; ++i) {
    if (blank(base[i]) == in_word) {
      if (!in_word) start = i;
      else words.emplace_back(base + start, i - start);
      in_word = !in_word;
    }
  }
  if (in_word) words.emplace_back(base + start, n - start);
}

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  split_words(text, words);
  return words;
}

void for_each_text_line_view(std::istream& in, std::string_view comment_chars, const TextLines& how,
                             const std::function<void(const TextLineView&)>& each) {
  std::vector<std::string_view> words;
  unsigned number = 1;
  for_each_line(in, [&](std::string_view code) {
    TextLineView l{number++, {}, {}, false};
    bool has_comment = false;
    if (const size_t c = first_of(code, comment_chars); c != std::string_view::npos) {
      if (how.keep_comments) {
        std::string_view note = code.substr(c + 1);
        if (!note.empty() && note.front() == ' ') note.remove_prefix(1);
        while (!note.empty() && blank(note.back())) note.remove_suffix(1);
        l.comment = note;
        l.comment_starts_line = c == 0;
      }
      code = code.substr(0, c);
      has_comment = true;
    }
    split_words(code, words);
    l.words = words;
    if (!words.empty() || (how.keep_comments && has_comment)) each(l);
  });
  if (how.line_count) *how.line_count = number - 1;
}

void for_each_text_line(std::istream& in, std::string_view comment_chars, const TextLines& how,
                        const std::function<void(const TextLine&)>& each) {
  TextLine l{0, {}, {}, false};
  for_each_text_line_view(in, comment_chars, how, [&](const TextLineView& v) {
    copy_text_line(v, l);
    each(l);
  });
}

void copy_text_line(const TextLineView& from, TextLine& to) {
  to.number = from.number;
  to.words.resize(from.words.size());
  for (size_t i = 0; i < from.words.size(); ++i) to.words[i].assign(from.words[i]);
  to.comment.assign(from.comment);
  to.comment_starts_line = from.comment_starts_line;
}

std::vector<TextLine> read_text_lines(std::istream& in, std::string_view comment_chars, const TextLines& how) {
  std::vector<TextLine> lines;
  for_each_text_line(in, comment_chars, how, [&](const TextLine& l) { lines.push_back(l); });
  return lines;
}

}  // namespace tmu

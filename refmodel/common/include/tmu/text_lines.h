// The line form every engine's programs and vector files share: numbered lines of words separated by
// blanks, a comment running from its first character to the end of the line, blank lines dropped.
#pragma once

#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tmu {

struct TextLine {
  unsigned number;  // 1-based, in the file
  std::vector<std::string> words;
  // With TextLines::keep_comments: the comment's text (after the comment character and one space,
  // trailing blanks dropped) and whether it starts the line. A comment-only line has no words.
  std::string comment;
  bool comment_starts_line = false;
};

struct TextLines {
  bool keep_comments = false;  // also return comment-only lines, and every line's comment text
  unsigned* line_count = nullptr;  // receives the number of lines read, blank ones included
};

// The words of one line, split on blanks (' ', '\t', '\r') as every text format splits them: into
// `words`, reusing its storage, or as a new vector. Views into `text`.
void split_words(std::string_view text, std::vector<std::string_view>& words);
std::vector<std::string_view> split_words(std::string_view text);

// The non-blank lines of `in`, each cut at the first of `comment_chars`.
std::vector<TextLine> read_text_lines(std::istream& in, std::string_view comment_chars, const TextLines& how = {});

// The same lines, one at a time: `each` sees one TextLine object refilled for every line (its
// words keep their storage), so a large file is read without holding it or allocating per word.
void for_each_text_line(std::istream& in, std::string_view comment_chars, const TextLines& how,
                        const std::function<void(const TextLine&)>& each);

// A line as views into the reader's buffer, valid only during the call that receives it: the
// words and comment of a TextLine without copying them (vector replay reads hundreds of MB).
struct TextLineView {
  unsigned number;
  std::span<const std::string_view> words;
  std::string_view comment;  // as TextLine::comment, with TextLines::keep_comments only
  bool comment_starts_line = false;
};
void for_each_text_line_view(std::istream& in, std::string_view comment_chars, const TextLines& how,
                             const std::function<void(const TextLineView&)>& each);
// Makes `to` an owning copy of `from`, reusing its storage.
void copy_text_line(const TextLineView& from, TextLine& to);

}  // namespace tmu

// The line form every engine's programs and vector files share: numbered lines of words separated by
// blanks, a comment running from its first character to the end of the line, blank lines dropped.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace tmu {

struct TextLine {
  unsigned number;  // 1-based, in the file
  std::vector<std::string> words;
};

// The non-blank lines of `in`, each cut at the first of `comment_chars`. `line_count`, when given,
// receives the number of lines read, blank ones included (where a "truncated file" error points).
std::vector<TextLine> read_text_lines(std::istream& in, std::string_view comment_chars, unsigned* line_count = nullptr);

}  // namespace tmu

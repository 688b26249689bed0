#include "tmu/text_lines.h"

#include <istream>
#include <sstream>

namespace tmu {

std::vector<TextLine> read_text_lines(std::istream& in, std::string_view comment_chars, unsigned* line_count) {
  std::vector<TextLine> lines;
  std::string text;
  unsigned number = 1;
  for (; std::getline(in, text); ++number) {
    if (const size_t c = text.find_first_of(comment_chars); c != std::string::npos) text.resize(c);
    std::istringstream words(text);
    TextLine l{number, {}};
    for (std::string w; words >> w;) l.words.push_back(w);
    if (!l.words.empty()) lines.push_back(std::move(l));
  }
  if (line_count) *line_count = number - 1;
  return lines;
}

}  // namespace tmu

#include "tmu/text_lines.h"

#include <istream>
#include <sstream>

namespace tmu {

std::vector<TextLine> read_text_lines(std::istream& in, std::string_view comment_chars) {
  std::vector<TextLine> lines;
  std::string text;
  for (unsigned number = 1; std::getline(in, text); ++number) {
    if (const size_t c = text.find_first_of(comment_chars); c != std::string::npos) text.resize(c);
    std::istringstream words(text);
    TextLine l{number, {}};
    for (std::string w; words >> w;) l.words.push_back(w);
    if (!l.words.empty()) lines.push_back(std::move(l));
  }
  return lines;
}

}  // namespace tmu

// tmu/text_lines.h: lines, words and comments as std::getline and a word split would give them,
// including the cases block-wise reading must get right (a line across block boundaries, a line
// longer than a block, no newline at the end, CRLF, blank and comment-only lines).
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tmu/rng.h"
#include "tmu/text_lines.h"

namespace tmu {
namespace {

std::string joined(const std::vector<TextLine>& lines) {
  std::string out;
  for (const TextLine& l : lines) {
    out += std::to_string(l.number) + ":";
    for (const std::string& w : l.words) out += "[" + w + "]";
    if (!l.comment.empty() || l.comment_starts_line) out += (l.comment_starts_line ? "#^" : "#") + l.comment;
    out += "\n";
  }
  return out;
}

std::string read(const std::string& text, bool keep_comments, unsigned* count = nullptr) {
  std::istringstream in(text);
  return joined(read_text_lines(in, "#;", {.keep_comments = keep_comments, .line_count = count}));
}

TEST(TextLines, WordsCommentsAndLineNumbers) {
  unsigned count = 0;
  EXPECT_EQ(read("a b\n\n  c\td ; note \n# whole\nlast", true, &count),
            "1:[a][b]\n3:[c][d]#note\n4:#^whole\n5:[last]\n");
  EXPECT_EQ(count, 5u);
  EXPECT_EQ(read("a b\n\n  c\td ; note \n# whole\nlast\n", false, &count), "1:[a][b]\n3:[c][d]\n5:[last]\n");
  EXPECT_EQ(count, 5u);
  EXPECT_EQ(read("x\r\ny z\r\n", false), "1:[x]\n2:[y][z]\n");
  EXPECT_EQ(read("", false, &count), "");
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(read("\n\n", false, &count), "");
  EXPECT_EQ(count, 2u);
}

TEST(TextLines, LinesAcrossAndBeyondTheReadBlock) {
  // Lines of 1000 words of 7 characters (8,000 bytes each) cross the 1 MiB block boundary at every
  // offset class; one line of 3 MiB is longer than any block.
  std::string text;
  std::string expect;
  unsigned number = 0;
  for (int i = 0; i < 300; ++i) {
    ++number;
    std::string words;
    for (int w = 0; w < 1000; ++w) {
      const std::string word = std::to_string(1000000 + i * 1000 + w);
      text += word + (w == 999 ? "\n" : " ");
      words += "[" + word + "]";
    }
    expect += std::to_string(number) + ":" + words + "\n";
  }
  const std::string longword(3 << 20, 'q');
  text += "  " + longword + " end ; c\nlast";
  expect += std::to_string(number + 1) + ":[" + longword + "][end]\n" + std::to_string(number + 2) + ":[last]\n";
  unsigned count = 0;
  EXPECT_EQ(read(text, false, &count), expect);
  EXPECT_EQ(count, number + 2);
}

// The view form gives the same words, comments and numbers; a one-character comment set takes the
// memchr path, and a comment character inside what would be a word cuts it there.
TEST(TextLines, ViewsMatchTheOwningForm) {
  const std::string text = "  a bb\tccc # note  \n\n#whole\nx#y z\n\t \nlast";
  std::string seen;
  unsigned count = 0;
  std::istringstream in(text);
  for_each_text_line_view(in, "#", {.keep_comments = true, .line_count = &count}, [&](const TextLineView& l) {
    TextLine copy;
    copy_text_line(l, copy);
    seen += joined({copy});
  });
  EXPECT_EQ(seen, "1:[a][bb][ccc]#note\n3:#^whole\n4:[x]#y z\n6:[last]\n");
  EXPECT_EQ(count, 6u);
  std::istringstream again(text);
  EXPECT_EQ(joined(read_text_lines(again, "#", {.keep_comments = true})), seen);
}

// Words split on exactly ' ', '\t' and '\r' (other control characters belong to words), checked
// against std::string's find_first_of / find_first_not_of on lines of every length up to 80, so
// that words start and end at every position of the sixteen-character blocks the splitter reads.
TEST(TextLines, WordsSplitOnBlanksAtEveryPosition) {
  static constexpr char kChars[] = {' ', '\t', '\r', 'a', 'B', '0', '\x01', '\x0b', '\xff', '-'};
  const std::string blanks = " \t\r";
  Rng rng(20261129);
  std::printf("seed 20261129\n");
  for (int trial = 0; trial < 4000; ++trial) {
    std::string line;
    const size_t length = rng.below(81);
    for (size_t i = 0; i < length; ++i) line += kChars[rng.below(sizeof kChars)];
    std::vector<std::string> want;
    for (size_t at = line.find_first_not_of(blanks); at != std::string::npos;) {
      const size_t end = line.find_first_of(blanks, at);
      want.push_back(line.substr(at, end == std::string::npos ? std::string::npos : end - at));
      at = end == std::string::npos ? end : line.find_first_not_of(blanks, end);
    }
    std::istringstream in(line + "\n");
    const std::vector<TextLine> got = read_text_lines(in, "#");
    ASSERT_EQ(got.empty() ? std::vector<std::string>{} : got[0].words, want) << "line of " << length << " characters";
  }
}

}  // namespace
}  // namespace tmu

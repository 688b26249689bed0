// The vector-file framing every engine shares (tmu/vector_file.h): what it hands an engine, in what
// order, and the file:line errors of a broken file, written out by hand.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tmu/error.h"
#include "tmu/program_error.h"
#include "tmu/vector_file.h"

namespace tmu {
namespace {

// Runs the framing over `text` for engine "e", logging every call as "kind:line:text".
std::vector<std::string> calls(const std::string& text, bool optional_engine = false) {
  std::vector<std::string> log;
  VectorRecordHandler h;
  h.header_comment = [&](const std::string& c) { log.push_back("comment:" + c); };
  h.header = [&](const TextLine& l) { log.push_back(std::to_string(l.number) + ":header:" + l.words[0]); };
  h.begin = [&](const VectorBlock& b) { log.push_back(std::to_string(b.line) + ":begin:" + b.name + "|" + b.note); };
  h.record = [&](const TextLine& l) {
    if (l.words[0] == "bad") throw Error(ErrorKind::BadInput, "a bad record");
    log.push_back(std::to_string(l.number) + ":record:" + l.words[0]);
  };
  h.end = [&](const VectorBlock& b) { log.push_back(std::to_string(b.end_line) + ":end:" + b.name); };
  std::istringstream in(text);
  read_vector_frame(in, "f.tmv", "e", h, optional_engine);
  return log;
}

std::string error_of(const std::string& text, bool optional_engine = false) {
  try {
    calls(text, optional_engine);
  } catch (const ProgramError& e) {
    return e.what();
  }
  return "no error";
}

TEST(VectorFile, HandsTheEngineItsRecordsInOrder) {
  const std::string text =
      "tmu-vectors 1\n# a header comment\nengine e\narch x1\n\nvector v1  #  a note\nop 1\nend\nvector v2\nop 2\nend\neof 2\n";
  EXPECT_EQ(calls(text), (std::vector<std::string>{"comment:a header comment", "4:header:arch", "6:begin:v1|a note",
                                                   "7:record:op", "8:end:v1", "9:begin:v2|", "10:record:op", "11:end:v2"}));
}

TEST(VectorFile, TheDefaultEnginesFilesMayOmitTheEngineLine) {
  EXPECT_EQ(calls("tmu-vectors 1\narch x\neof 0\n", true).size(), 1u);
  EXPECT_EQ(error_of("tmu-vectors 1\narch x\neof 0\n"),
            "f.tmv:2: expected 'engine e' (tmu check replays a file with the engine it names)");
  EXPECT_EQ(error_of("tmu-vectors 1\nengine other\narch x\neof 0\n", true),
            "f.tmv:2: expected 'engine e' (tmu check replays a file with the engine it names)");
}

TEST(VectorFile, StructuralFaultsNameTheLineAndTheReason) {
  const std::string h = "tmu-vectors 1\nengine e\n";
  EXPECT_EQ(error_of(""), "f.tmv:1: empty file: expected 'tmu-vectors 1'");
  EXPECT_EQ(error_of("tmu-vectors 4\n"), "f.tmv:1: format version 4 is not supported (this tmu reads versions 1 to 3)");
  EXPECT_EQ(error_of("arch x\n"), "f.tmv:1: expected the version line 'tmu-vectors 1' first");
  EXPECT_EQ(error_of(h + "vector a\nend\nvector a\nend\neof 2\n"), "f.tmv:5: vector name 'a' is used twice");
  EXPECT_EQ(error_of(h + "vector a\nop\nvector b\n"), "f.tmv:5: 'vector' inside vector 'a' (line 3): its 'end' is missing");
  EXPECT_EQ(error_of(h + "vector a\nop\n"), "f.tmv:5: truncated file: vector 'a' (line 3) has no 'end'");
  EXPECT_EQ(error_of(h + "vector a\nend\n\n"), "f.tmv:6: truncated file: no 'eof' line after 1 vectors");
  EXPECT_EQ(error_of(h + "vector a\nend\neof 3\n"), "f.tmv:5: truncated or edited file: 'eof' says 3 vectors, the file holds 1");
  EXPECT_EQ(error_of(h + "eof 0\nvector a\n"), "f.tmv:4: 'vector' after the 'eof' line");
  EXPECT_EQ(error_of(h + "vector a\nend\narch y\neof 1\n"), "f.tmv:5: unknown record 'arch' between vectors (vector, eof)");
  EXPECT_EQ(error_of(h + "eof x\n"), "f.tmv:3: expected 'eof VECTORS' (the number of vectors)");
}

TEST(VectorFile, AnEnginesErrorIsReportedAtItsRecordBeforeLaterFaults) {
  // The record on line 4 is wrong and the file is truncated too: line 4 is reported.
  EXPECT_EQ(error_of("tmu-vectors 1\nengine e\nvector a\nbad\n"), "f.tmv:4: a bad record");
}

TEST(VectorFile, ARequiredHeaderIsAskedForAtTheFirstVector) {
  VectorRecordHandler h;
  h.required_header = "arch x1|x2";
  std::istringstream in("tmu-vectors 1\nengine e\nvector a\nend\neof 1\n");
  try {
    read_vector_frame(in, "f.tmv", "e", h);
    FAIL() << "no error";
  } catch (const ProgramError& e) {
    EXPECT_STREQ(e.what(), "f.tmv:3: expected the header record 'arch x1|x2' before the first vector");
  }
}

TEST(VectorFile, TheEngineIsReadFromTheHead) {
  std::istringstream named("# comment\ntmu-vectors 1\n\nengine amx # why\narch M1\n");
  const NamedEngine e = vector_file_engine(named, "f.tmv");
  EXPECT_EQ(e.name, "amx");
  EXPECT_EQ(e.line, 4u);
  std::istringstream unnamed("tmu-vectors 1\narch blackhole\n");
  EXPECT_EQ(vector_file_engine(unnamed, "f.tmv").name, "");
  std::istringstream wrong("tmu-vectors 9\n");
  EXPECT_THROW(vector_file_engine(wrong, "f.tmv"), ProgramError);
}

TEST(VectorFile, WritersShareTheHeadAndTail) {
  EXPECT_EQ(vector_file_head("amx", {"made by hand"}), "tmu-vectors 1\n# made by hand\nengine amx\n");
  EXPECT_EQ(vector_file_head("", {}), "tmu-vectors 1\n");
  EXPECT_EQ(vector_record("v", ""), "vector v\n");
  EXPECT_EQ(vector_record("v", "why"), "vector v  # why\n");
  EXPECT_EQ(vector_file_tail(3), "\neof 3\n");
}

}  // namespace
}  // namespace tmu

// The MANIFEST's digests (tmu/vector_file.h): HashingFile gives the SHA-256 of what it delivered,
// whatever the reader's read sizes, and only for the whole file in order; check_manifest takes a
// digest the caller already has and reads the file itself otherwise. The expected digests are the
// examples of FIPS 180-2 (Appendix B: "abc", and one million 'a').
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tmu/vector_file.h"

namespace tmu {
namespace {

namespace fs = std::filesystem;

constexpr const char* kAbc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
constexpr const char* kMillionA = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

class ManifestFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tmu_manifest_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  fs::path dir_;
};

// A MANIFEST line (the counts are not checked against the files).
std::string manifest_line(const std::string& path, const std::string& sha256) { return path + " 1 1 " + sha256 + "\n"; }

// Reads the whole stream `chunk` bytes at a time (0: one character at a time through get()).
void read_all(std::istream& in, size_t chunk) {
  if (chunk == 0) {
    while (in.get() != std::char_traits<char>::eof()) {
    }
    return;
  }
  std::vector<char> buf(chunk);
  while (in.read(buf.data(), static_cast<std::streamsize>(chunk))) {
  }
}

TEST_F(ManifestFiles, TheDigestIsTheFilesWhateverTheReadSizes) {
  const fs::path abc = write("abc", "abc");
  const fs::path million = write("a", std::string(1000000, 'a'));
  // 1 MiB: larger than the file; 100,000 and 65,536: reads that bypass the stream's own block; 1,000
  // and single characters: reads through it; 70,001: both, alternately.
  for (size_t chunk : {size_t{1} << 20, size_t{100000}, size_t{65536}, size_t{70001}, size_t{1000}, size_t{0}}) {
    HashingFile a(abc), m(million);
    read_all(a, chunk);
    read_all(m, chunk);
    EXPECT_EQ(a.sha256_hex().value_or("none"), kAbc) << chunk;
    EXPECT_EQ(m.sha256_hex().value_or("none"), kMillionA) << chunk;
  }
}

TEST_F(ManifestFiles, TheDigestIsUnknownUntilTheEndAndAfterASeek) {
  const fs::path million = write("a", std::string(1000000, 'a'));
  HashingFile part(million);
  std::vector<char> buf(999999);
  ASSERT_TRUE(part.read(buf.data(), static_cast<std::streamsize>(buf.size())));
  EXPECT_FALSE(part.sha256_hex()) << "one byte is still unread";
  EXPECT_EQ(part.tellg(), std::streampos(999999));  // asking the position is not a seek
  read_all(part, 4096);
  EXPECT_EQ(part.sha256_hex().value_or("none"), kMillionA);

  HashingFile seeked(million);
  ASSERT_TRUE(seeked.read(buf.data(), 10));
  seeked.seekg(0);
  read_all(seeked, 4096);
  EXPECT_FALSE(seeked.sha256_hex()) << "a seek gives the digest up";

  HashingFile plain(million, false);
  read_all(plain, 4096);
  EXPECT_TRUE(plain.eof());
  EXPECT_FALSE(plain.sha256_hex()) << "asked not to hash";

  HashingFile missing(dir_ / "none");
  EXPECT_FALSE(missing.is_open());
  EXPECT_FALSE(missing.good());
  EXPECT_FALSE(missing.sha256_hex());
}

TEST_F(ManifestFiles, TheCheckTakesAKnownDigestAndReadsTheOtherFiles) {
  write("x.tmv", "abc");
  write("y.tmv", std::string(1000000, 'a'));
  write("MANIFEST", manifest_line("x.tmv", kAbc) + manifest_line("y.tmv", kMillionA));
  EXPECT_TRUE(check_manifest(dir_).differences.empty());
  // A digest the caller says it has is believed: a wrong one for x.tmv is a difference, and y.tmv,
  // for which the caller has none, is read and matches.
  std::vector<fs::path> asked;
  const ManifestCheck c = check_manifest(dir_, [&](const fs::path& p) -> std::optional<std::string> {
    asked.push_back(p);
    if (p.filename() == "x.tmv") return std::string(64, '0');
    return std::nullopt;
  });
  ASSERT_EQ(c.differences.size(), 1u);
  EXPECT_NE(c.differences[0].find("x.tmv: SHA-256 " + std::string(64, '0') + " does not match the manifest's " + kAbc),
            std::string::npos)
      << c.differences[0];
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[0], (dir_ / "x.tmv").lexically_normal());
}

}  // namespace
}  // namespace tmu

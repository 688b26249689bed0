// The MANIFEST of a directory of vector files (docs/vector-format.md): each file's path, vector and
// element-case counts and SHA-256 (through Nettle), written by tmu vectors and verified by tmu check.
#include <nettle/sha2.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "tmu/vector_file.h"

namespace tmu {

namespace {

std::string hex_digest(sha256_ctx& ctx) {
  std::array<uint8_t, SHA256_DIGEST_SIZE> digest{};
  sha256_digest(&ctx, digest.size(), digest.data());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * digest.size());
  for (uint8_t byte : digest) {
    out += kHex[byte >> 4];
    out += kHex[byte & 0xF];
  }
  return out;
}

// Reads a stream to its end: a HashingFile's digest is known only then.
void drain(std::istream& in) {
  std::array<char, 1 << 16> block;
  while (in.read(block.data(), block.size())) {
  }
}

}  // namespace

// The file is read with stdio, unbuffered: a large read goes straight into the reader's buffer (the
// vector readers ask for a megabyte at a time) and is hashed there while it is in the cache; small
// reads go through a block of our own.
class HashingFile::Buf : public std::streambuf {
 public:
  Buf(const std::filesystem::path& path, bool hash) : file_(std::fopen(path.c_str(), "rb")), in_order_(hash) {
    if (file_) std::setvbuf(file_, nullptr, _IONBF, 0);
    sha256_init(&ctx_);
  }
  ~Buf() override {
    if (file_) std::fclose(file_);
  }
  bool is_open() const { return file_ != nullptr; }
  const std::optional<std::string>& digest() const { return digest_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const size_t n = fill(block_.data(), block_.size());
    if (n == 0) return traits_type::eof();
    setg(block_.data(), block_.data(), block_.data() + n);
    return traits_type::to_int_type(*gptr());
  }

  std::streamsize xsgetn(char* out, std::streamsize n) override {
    std::streamsize got = 0;
    while (got < n) {
      if (gptr() < egptr()) {
        const std::streamsize k = std::min<std::streamsize>(egptr() - gptr(), n - got);
        std::memcpy(out + got, gptr(), static_cast<size_t>(k));
        gbump(static_cast<int>(k));
        got += k;
      } else if (n - got >= static_cast<std::streamsize>(block_.size())) {
        const size_t k = fill(out + got, static_cast<size_t>(n - got));
        if (k == 0) break;
        got += static_cast<std::streamsize>(k);
      } else if (traits_type::eq_int_type(underflow(), traits_type::eof())) {
        break;
      }
    }
    return got;
  }

  // A seek breaks the bytes' order, so the digest is given up; the stream itself still seeks.
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    if (!file_) return pos_type(off_type(-1));
    if (dir == std::ios_base::cur && off == 0)  // tellg: no move
      return pos_type(static_cast<off_type>(std::ftell(file_)) - (egptr() - gptr()));
    in_order_ = false;
    digest_.reset();
    if (dir == std::ios_base::cur) off -= egptr() - gptr();
    const int whence = dir == std::ios_base::beg ? SEEK_SET : dir == std::ios_base::cur ? SEEK_CUR : SEEK_END;
    setg(nullptr, nullptr, nullptr);
    if (std::fseek(file_, static_cast<long>(off), whence) != 0) return pos_type(off_type(-1));
    return pos_type(static_cast<off_type>(std::ftell(file_)));
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }

 private:
  // Reads up to n bytes into `to` and hashes them; at the end of the file, the digest is complete.
  size_t fill(char* to, size_t n) {
    if (!file_ || ended_) return 0;
    const size_t k = std::fread(to, 1, n, file_);
    if (in_order_) sha256_update(&ctx_, k, reinterpret_cast<const uint8_t*>(to));
    if (k < n) {
      ended_ = true;
      if (in_order_ && !std::ferror(file_)) digest_ = hex_digest(ctx_);
    }
    return k;
  }

  std::FILE* file_;
  bool in_order_;  // every byte so far hashed in order: the digest is still to be had
  bool ended_ = false;
  sha256_ctx ctx_;
  std::array<char, 1 << 16> block_{};
  std::optional<std::string> digest_;
};

HashingFile::HashingFile(const std::filesystem::path& path, bool hash)
    : std::istream(nullptr), buf_(std::make_unique<Buf>(path, hash)) {
  rdbuf(buf_.get());
  if (!buf_->is_open()) setstate(std::ios_base::failbit);
}

HashingFile::~HashingFile() = default;

bool HashingFile::is_open() const { return buf_->is_open(); }

std::optional<std::string> HashingFile::sha256_hex() const { return buf_->digest(); }

std::string sha256_hex(std::string_view data) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
  return hex_digest(ctx);
}

std::string format_manifest(const std::vector<ManifestEntry>& entries, const std::vector<std::string>& header) {
  fmt::memory_buffer out;
  fmt::format_to(std::back_inserter(out), "# tmu vectors manifest (docs/vector-format.md): PATH VECTORS ELEMENT-CASES SHA-256\n");
  for (const std::string& h : header) fmt::format_to(std::back_inserter(out), "# {}\n", h);
  uint64_t vectors = 0, cases = 0;
  for (const ManifestEntry& e : entries) {
    fmt::format_to(std::back_inserter(out), "{} {} {} {}\n", e.path, e.vectors, e.element_cases, e.sha256);
    vectors += e.vectors;
    cases += e.element_cases;
  }
  fmt::format_to(std::back_inserter(out), "# total: {} files, {} vectors, {} element-cases\n", entries.size(), vectors, cases);
  return fmt::to_string(out);
}

std::vector<std::string> vector_files_below(const std::filesystem::path& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == kVectorFileExtension) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

ManifestCheck check_manifest(const std::filesystem::path& dir, const KnownDigest& known) {
  namespace fs = std::filesystem;
  ManifestCheck out;
  const fs::path manifest = dir / kVectorManifestName;
  std::ifstream in(manifest);
  std::vector<std::string> listed;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string rel, sha;
    uint64_t vectors = 0, cases = 0;
    if (!(ss >> rel >> vectors >> cases >> sha)) {
      out.malformed.push_back(
          fmt::format("{}:{}: malformed manifest line (PATH VECTORS ELEMENT-CASES SHA-256)", manifest.string(), number));
      continue;
    }
    listed.push_back(rel);
    const fs::path path = (dir / rel).lexically_normal();
    std::optional<std::string> digest = known ? known(path) : std::nullopt;
    if (!digest) {
      HashingFile f(path);
      if (!f.is_open()) {
        out.differences.push_back(fmt::format("{}:{}: {} is listed but missing", manifest.string(), number, rel));
        continue;
      }
      drain(f);
      digest = f.sha256_hex();
      if (!digest) {
        out.differences.push_back(fmt::format("{}:{}: {} cannot be read to its end", manifest.string(), number, rel));
        continue;
      }
    }
    const std::string& actual = *digest;
    if (actual != sha)
      out.differences.push_back(fmt::format("{}:{}: {}: SHA-256 {} does not match the manifest's {}", manifest.string(),
                                            number, rel, actual, sha));
  }
  std::vector<std::string> present;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().extension() == kVectorFileExtension) present.push_back(fs::relative(entry.path(), dir).generic_string());
  std::sort(present.begin(), present.end());
  for (const std::string& rel : present)
    if (std::find(listed.begin(), listed.end(), rel) == listed.end())
      out.differences.push_back(fmt::format("{}: {} is not listed in the manifest", manifest.string(), rel));
  return out;
}

}  // namespace tmu

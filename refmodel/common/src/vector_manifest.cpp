// The MANIFEST of a directory of vector files (docs/vector-format.md): each file's path, vector and
// element-case counts and SHA-256 (through Nettle), written by tmu vectors and verified by tmu check.
#include <nettle/sha2.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <istream>
#include <iterator>
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

// A file's digest read in blocks: no copy of the whole file, and no per-character iterator.
std::string sha256_hex_of_stream(std::istream& in) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  std::array<char, 1 << 16> block;
  while (in.read(block.data(), block.size()) || in.gcount() > 0)
    sha256_update(&ctx, static_cast<size_t>(in.gcount()), reinterpret_cast<const uint8_t*>(block.data()));
  return hex_digest(ctx);
}

}  // namespace

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

ManifestCheck check_manifest(const std::filesystem::path& dir) {
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
    std::ifstream f(dir / rel, std::ios::binary);
    if (!f) {
      out.differences.push_back(fmt::format("{}:{}: {} is listed but missing", manifest.string(), number, rel));
      continue;
    }
    const std::string actual = sha256_hex_of_stream(f);
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

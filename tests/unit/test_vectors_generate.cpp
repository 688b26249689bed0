// Generation: level-1 coverage of the special-value classes per family and format, counted from the
// raw bits of the generated vectors by a classifier written here from SrcASrcB.md / Dst.md (not by
// the generator's own class tables); rounding ties and argmax ties checked by exact arithmetic on
// the operands; determinism by seed; SHA-256 against the FIPS 180 examples.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tmu/error.h"
#include "tmu/vector_file.h"
#include "tmu/tensix/vectors.h"

namespace tmu::tensix::vectors {
namespace {

using tmu::format_manifest;
using tmu::sha256_hex;

// ---- an independent reading of the Src and Dst layouts ----

struct SrcBits {
  uint32_t sign, exponent, mantissa;  // mantissa: the 10-bit field 17:8 (BF16 keeps 17:11)
};
SrcBits split_src(uint32_t d, const std::string& fmt) {
  SrcBits b{(d >> 18) & 1, fmt == "fp16" ? (d & 0x1F) : (d & 0xFF), (d >> 8) & 0x3FF};
  if (fmt == "bf16") b.mantissa &= 0x3F8;
  return b;
}
int bias_of(const std::string& fmt) { return fmt == "fp16" ? 15 : 127; }
uint32_t max_exponent_of(const std::string& fmt) { return fmt == "fp16" ? 31 : 255; }

// The classes a Src datum belongs to, for SrcA (role 'A') or SrcB ('B').
std::set<std::string> classes_of(uint32_t d, const std::string& fmt, char role) {
  std::set<std::string> c;
  const SrcBits b = split_src(d, fmt);
  if (fmt == "int8") {
    const uint32_t mag = b.mantissa, marker = d & 0xFF;
    if (mag == 0) c.insert(b.sign ? "-0" : "+0");
    if (mag && marker == 0) c.insert("denormal");
    if (mag == 1023) c.insert("max");
    auto only = [&](uint32_t mask) { return mag && (mag & ~mask) == 0; };
    if (role == 'A') {
      if (only(0x01F)) c.insert("A-slice-4:0");
      if (only(0x0E0)) c.insert("A-slice-7:5");
      if (only(0x300)) c.insert("A-unused-9:8");
    } else {
      if (only(0x00F)) c.insert("B-slice-3:0");
      if (only(0x3F0)) c.insert("B-slice-9:4");
    }
    return c;
  }
  const uint32_t ones = fmt == "bf16" ? 0x3F8 : 0x3FF;
  if (b.exponent == 0 && b.mantissa == 0) c.insert(b.sign ? "-0" : "+0");
  if (b.exponent == 0 && b.mantissa) c.insert("denormal");
  if (b.exponent == 1 && b.mantissa == 0) c.insert("min-normal");
  if (b.exponent == max_exponent_of(fmt) && b.mantissa == ones) c.insert("max-normal");
  if (b.exponent == 0) return c;
  auto only = [&](uint32_t mask) { return b.mantissa && (b.mantissa & ~mask) == 0; };
  if (role == 'A') {
    if (only(0x3C0)) c.insert("A-slice-even");  // bits 9:6, what phases 0 and 2 consume
    if (only(0x03E)) c.insert("A-slice-odd");   // bits 5:1, phases 1 and 3
    if (fmt != "bf16" && b.mantissa == 0x001) c.insert("A-unused-bit0");
  } else {
    if (only(0x3F0)) c.insert("B-slice-hi");  // bits 9:4, phases 0 and 1
    if (only(0x00F)) c.insert("B-slice-lo");  // bits 3:0, phases 2 and 3
  }
  return c;
}

// Value of a Src float datum (exponent 0 reads as zero).
long double src_value(uint32_t d, const std::string& fmt) {
  const SrcBits b = split_src(d, fmt);
  if (fmt == "int8") return b.sign ? -static_cast<long double>(b.mantissa) : b.mantissa;
  if (b.exponent == 0) return 0;
  const long double v = std::ldexp(static_cast<long double>(1024 + b.mantissa), static_cast<int>(b.exponent) - bias_of(fmt) - 10);
  return b.sign ? -v : v;
}

// The part of an operand one fidelity phase multiplies (SrcASrcB.md "Fidelity phases"): SrcA
// phase bit 0 clear: the implicit one and mantissa bits 9:6, set: bits 5:1; SrcB phase bit 1 clear:
// the implicit one and bits 9:4, set: bits 3:0.
long double slice_value(uint32_t d, const std::string& fmt, char role, unsigned phase) {
  const SrcBits b = split_src(d, fmt);
  if (b.exponent == 0) return 0;
  const uint32_t significand = 1024 + b.mantissa;
  uint32_t kept = 0;
  if (role == 'A') kept = (phase & 1) ? (significand & 0x03E) : (significand & 0x7C0);
  else kept = (phase & 2) ? (significand & 0x00F) : (significand & 0x7F0);
  const long double v = std::ldexp(static_cast<long double>(kept), static_cast<int>(b.exponent) - bias_of(fmt) - 10);
  return b.sign ? -v : v;
}

// Dst value in the math layouts: Dst16 BF16 (sign 15, mantissa 14:8, exponent 7:0), Dst16 FP16
// (mantissa 14:5, exponent 4:0), Dst32 FP32 (high half as BF16, low half the low mantissa bits).
long double dst_value(uint32_t hi, uint32_t lo, const std::string& fmt, bool dst32) {
  const uint32_t sign = hi >> 15;
  uint32_t exponent = 0;
  uint64_t mantissa = 0;
  int man_bits = 0, bias = 127;
  if (dst32) {
    exponent = hi & 0xFF;
    mantissa = (uint64_t{(hi >> 8) & 0x7F} << 16) | lo;
    man_bits = 23;
  } else if (fmt == "fp16") {
    exponent = hi & 0x1F;
    mantissa = (hi >> 5) & 0x3FF;
    man_bits = 10;
    bias = 15;
  } else {
    exponent = hi & 0xFF;
    mantissa = (hi >> 8) & 0x7F;
    man_bits = 7;
  }
  if (exponent == 0) return 0;
  const long double v = std::ldexp(static_cast<long double>((uint64_t{1} << man_bits) | mantissa),
                                   static_cast<int>(exponent) - bias - man_bits);
  return sign ? -v : v;
}

bool is_dst_denormal(uint32_t hi, uint32_t lo, const std::string& fmt, bool dst32) {
  if (dst32) return (hi & 0xFF) == 0 && (((hi >> 8) & 0x7F) || lo);
  if (fmt == "fp16") return (hi & 0x1F) == 0 && ((hi >> 5) & 0x3FF);
  return (hi & 0xFF) == 0 && ((hi >> 8) & 0x7F);
}

// Exactly halfway between two neighbours with `precision` significant bits.
bool is_midpoint(long double x, int precision) {
  if (x == 0) return false;
  int e = 0;
  (void)std::frexp(std::fabs(x), &e);
  const long double ulp = std::ldexp(1.0L, e - precision);
  return std::fmod(std::fabs(x), ulp) == ulp / 2;
}

// ---- the level-1 vectors, generated once ----

const std::vector<std::pair<FileSpec, VectorFile>>& level1_files() {
  static const auto files = [] {
    std::vector<std::pair<FileSpec, VectorFile>> out;
    FileFilter filter;
    filter.families = {"mvmul", "elwmul", "elwadd", "elwsub", "gmpool", "mov"};
    for (const FileSpec& s : plan_files(filter)) out.emplace_back(s, generate_file(s, GenerateOptions{}));
    return out;
  }();
  return files;
}

const Record* find_record(const std::vector<Record>& records, Space space, uint16_t a, uint16_t b) {
  for (const Record& r : records)
    if (r.space == space && r.a == a && r.b == b) return &r;
  return nullptr;
}

class Level1Coverage : public ::testing::TestWithParam<std::string> {};

TEST_P(Level1Coverage, EverySpecialClassOfEveryOperandAppears) {
  const std::string family = GetParam();
  for (const std::string fmt : {"bf16", "fp16", "tf32", "int8"}) {
    std::map<std::string, unsigned> srca, srcb;
    unsigned vectors = 0;
    for (const auto& [spec, file] : level1_files()) {
      if (spec.family != family || spec.format != fmt) continue;
      for (const Vector& v : file.vectors) {
        ++vectors;
        std::set<std::string> a, b;
        for (const Record& r : v.init) {
          if (r.space != Space::SrcA && r.space != Space::SrcB) continue;
          for (uint32_t d : r.row)
            for (const std::string& c : classes_of(d, fmt, r.space == Space::SrcA ? 'A' : 'B'))
              (r.space == Space::SrcA ? a : b).insert(c);
        }
        for (const auto& c : a) ++srca[c];
        for (const auto& c : b) ++srcb[c];
      }
    }
    ASSERT_GT(vectors, 0u) << family << " " << fmt;
    if (family == "mov") {  // data movement: the classes must move, whichever bank they sit in
      for (const auto& [c, n] : srcb) srca[c] += n;
      for (const std::string c : {"+0", "-0", "denormal", fmt == "int8" ? "max" : "max-normal"})
        EXPECT_GT(srca[c], 0u) << family << " " << fmt << ": no moved datum is " << c;
      continue;
    }
    std::vector<std::string> want_a = {"+0", "-0", "denormal"}, want_b = want_a;
    if (fmt == "int8") {
      want_a.insert(want_a.end(), {"max", "A-slice-4:0", "A-slice-7:5", "A-unused-9:8"});
      want_b.insert(want_b.end(), {"max", "B-slice-3:0", "B-slice-9:4"});
    } else {
      want_a.insert(want_a.end(), {"min-normal", "max-normal", "A-slice-even", "A-slice-odd"});
      if (fmt != "bf16") want_a.push_back("A-unused-bit0");
      want_b.insert(want_b.end(), {"min-normal", "max-normal", "B-slice-hi", "B-slice-lo"});
    }
    for (const auto& c : want_a) EXPECT_GT(srca[c], 0u) << family << " " << fmt << ": no SrcA operand is " << c;
    if (family == "gmpool") continue;  // GMPOOL's SrcB is a row of scale factors, covered below
    for (const auto& c : want_b) EXPECT_GT(srcb[c], 0u) << family << " " << fmt << ": no SrcB operand is " << c;
  }
}

INSTANTIATE_TEST_SUITE_P(Families, Level1Coverage, ::testing::Values("mvmul", "elwmul", "elwadd", "elwsub", "gmpool", "mov"));

// ELW without broadcast pairs SrcA[i][j] with SrcB[i][j] (both blocks at row 0 in level 1): every
// pair of special classes meets in one element, and the Dst rows include invalid and denormal ones.
TEST(Level1Coverage, ElementwiseCrossesTheSpecialClassesWithEachOther) {
  const std::vector<std::string> specials = {"+0", "-0", "denormal", "min-normal", "max-normal"};
  for (const auto& [spec, file] : level1_files()) {
    if (spec.family != "elwmul" || !spec.option.empty() || spec.format == "int8") continue;
    std::set<std::pair<std::string, std::string>> pairs;
    bool invalid_dst = false, denormal_dst = false;
    for (const Vector& v : file.vectors) {
      for (uint16_t i = 0; i < 8; ++i) {
        const Record* a = find_record(v.init, Space::SrcA, 0, i);
        const Record* b = find_record(v.init, Space::SrcB, 0, i);
        ASSERT_TRUE(a && b) << spec.relative_path() << " " << v.name;
        for (unsigned j = 0; j < 16; ++j)
          for (const auto& ca : classes_of(a->row[j], spec.format, 'A'))
            for (const auto& cb : classes_of(b->row[j], spec.format, 'B')) pairs.emplace(ca, cb);
      }
      for (const Record& r : v.init) {
        if (r.space != Space::Dst) continue;
        invalid_dst = invalid_dst || !r.value;
        const Record* lo = find_record(v.init, Space::Dst, static_cast<uint16_t>(r.a + 8), 0);
        if (r.value && is_dst_denormal(r.row[0], lo ? lo->row[0] : 0, spec.format, spec.dst_bits == 32)) denormal_dst = true;
      }
    }
    for (const auto& x : specials)
      for (const auto& y : specials)
        EXPECT_TRUE(pairs.count({x, y})) << spec.relative_path() << ": SrcA " << x << " never meets SrcB " << y;
    EXPECT_TRUE(invalid_dst) << spec.relative_path();
    EXPECT_TRUE(denormal_dst) << spec.relative_path();
  }
}

// ELWMUL (one product per element): some element's exact Dst + slice product lies exactly halfway
// between two values of the Dst format, in every format, fidelity phase and Dst mode.
TEST(Level1Coverage, ElwmulHasExactRoundingTiesInEveryPhase) {
  for (const auto& [spec, file] : level1_files()) {
    if (spec.family != "elwmul" || !spec.option.empty() || spec.format == "int8") continue;
    const bool dst32 = spec.dst_bits == 32;
    const int precision = dst32 ? 24 : (spec.format == "fp16" ? 11 : 8);
    unsigned ties = 0;
    for (const Vector& v : file.vectors) {
      for (uint16_t i = 0; i < 8; ++i) {
        const Record* a = find_record(v.init, Space::SrcA, 0, i);
        const Record* b = find_record(v.init, Space::SrcB, 0, i);
        const uint16_t hi_row = dst32 ? static_cast<uint16_t>(((i & 0x1F8) << 1) | (i & 7)) : i;
        const Record* hi = find_record(v.init, Space::Dst, hi_row, 0);
        const Record* lo = dst32 ? find_record(v.init, Space::Dst, static_cast<uint16_t>(hi_row + 8), 0) : nullptr;
        if (!a || !b || !hi) continue;
        for (unsigned j = 0; j < 16; ++j) {
          const long double p = slice_value(a->row[j], spec.format, 'A', spec.phase) *
                                slice_value(b->row[j], spec.format, 'B', spec.phase);
          const long double d = hi->value ? dst_value(hi->row[j], lo ? lo->row[j] : 0, spec.format, dst32) : 0;
          const long double sum = d + p;
          if (p != 0 && sum - d == p && sum - p == d && is_midpoint(sum, precision)) ++ties;
        }
      }
    }
    EXPECT_GT(ties, 0u) << spec.relative_path() << ": no exact rounding tie";
  }
}

// GMPOOL with ArgMax: some column's scaled maximum occurs in two or more rows.
TEST(Level1Coverage, GmpoolArgmaxHasTies) {
  for (const auto& [spec, file] : level1_files()) {
    if (spec.family != "gmpool" || spec.option != "argmax") continue;
    unsigned tied_columns = 0;
    for (const Vector& v : file.vectors) {
      const Record* scale = find_record(v.init, Space::SrcB, 0, 0);
      ASSERT_TRUE(scale) << v.name;
      for (unsigned j = 0; j < 16; ++j) {
        std::vector<long double> column;
        for (uint16_t i = 0; i < 16; ++i) {
          const Record* a = find_record(v.init, Space::SrcA, 0, i);
          ASSERT_TRUE(a) << v.name;
          const uint32_t b = scale->row[i];
          if ((b & 0xFF) == 0) continue;  // a zero-exponent scale makes the candidate minus infinity
          const long double x = src_value(a->row[j], spec.format);
          column.push_back(spec.format == "int8" ? x : x * std::ldexp(1.0L, static_cast<int>(split_src(b, spec.format).exponent) - bias_of(spec.format)));
        }
        if (column.size() < 2) continue;
        const long double best = *std::max_element(column.begin(), column.end());
        if (std::count(column.begin(), column.end(), best) >= 2) ++tied_columns;
      }
    }
    EXPECT_GT(tied_columns, 0u) << spec.relative_path();
  }
}

// ---- determinism ----

std::vector<FileSpec> one_file_per_family() {
  std::vector<FileSpec> out;
  for (const std::string& f : family_names()) {
    FileFilter filter;
    filter.families = {f};
    out.push_back(plan_files(filter).front());
  }
  return out;
}

TEST(VectorGeneration, SameSeedGivesIdenticalFilesAndAnotherSeedDoesNot) {
  GenerateOptions o;
  o.level = 2;
  o.random_vectors = 4;
  o.level1_limit = 2;
  for (const FileSpec& spec : one_file_per_family()) {
    o.seed = 77;
    const std::string first = format_vector_file(generate_file(spec, o));
    EXPECT_EQ(format_vector_file(generate_file(spec, o)), first) << spec.relative_path();
    o.seed = 78;
    EXPECT_NE(format_vector_file(generate_file(spec, o)), first) << spec.relative_path();
  }
}

TEST(VectorGeneration, Level1DoesNotDependOnTheSeed) {
  GenerateOptions a, b;
  a.seed = 1;
  b.seed = 2;
  a.level1_limit = b.level1_limit = 4;
  for (const FileSpec& spec : one_file_per_family())
    EXPECT_EQ(format_vector_file(generate_file(spec, a)), format_vector_file(generate_file(spec, b))) << spec.relative_path();
}

// A file's random vectors depend only on the seed and the file: not on the level-1 selection.
TEST(VectorGeneration, RandomVectorsDoNotDependOnTheLevel1Selection) {
  GenerateOptions a, b;
  a.level = b.level = 2;
  a.random_vectors = b.random_vectors = 3;
  a.seed = b.seed = 9;
  a.level1_limit = 1;
  b.level1_limit = 5;
  for (const FileSpec& spec : one_file_per_family()) {
    const VectorFile fa = generate_file(spec, a), fb = generate_file(spec, b);
    ASSERT_GE(fa.vectors.size(), 3u);
    ASSERT_GE(fb.vectors.size(), 3u);
    for (size_t k = 1; k <= 3; ++k) {
      const Vector &va = fa.vectors[fa.vectors.size() - k], &vb = fb.vectors[fb.vectors.size() - k];
      EXPECT_EQ(va.name, vb.name);
      EXPECT_EQ(va.words, vb.words) << spec.relative_path();
      ASSERT_EQ(va.expect.size(), vb.expect.size());
      for (size_t i = 0; i < va.expect.size(); ++i) EXPECT_EQ(va.expect[i].row, vb.expect[i].row);
    }
  }
}

TEST(VectorGeneration, FileSeedsDifferPerFileAndPerRunSeed) {
  const auto files = plan_files({});
  std::set<uint64_t> seeds;
  for (const FileSpec& s : files) seeds.insert(file_seed(1, s));
  EXPECT_EQ(seeds.size(), files.size());
  EXPECT_NE(file_seed(1, files[0]), file_seed(2, files[0]));
}

TEST(VectorGeneration, Level1LimitSpreadsEvenly) {
  FileFilter filter;
  filter.families = {"gpr"};
  const FileSpec spec = plan_files(filter).at(1);  // ADDDMAREG
  GenerateOptions all, some;
  some.level1_limit = 4;
  const VectorFile full = generate_file(spec, all), part = generate_file(spec, some);
  ASSERT_EQ(part.vectors.size(), 4u);
  const size_t n = full.vectors.size();
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(part.vectors[k].name, full.vectors[(2 * k + 1) * n / 8].name);
}

TEST(VectorGeneration, PlanCoversEveryFamilyAndRefusesUnknownNames) {
  std::set<std::string> families;
  for (const FileSpec& s : plan_files({})) families.insert(s.family);
  EXPECT_EQ(families.size(), family_names().size());
  FileFilter bad;
  bad.families = {"sfpu"};
  EXPECT_THROW(plan_files(bad), Error);
  bad = {};
  bad.phases = {4};
  EXPECT_THROW(plan_files(bad), Error);
  // The corpus keeps every family on both architectures.
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    std::set<std::string> corpus;
    for (const FileSpec& s : plan_corpus_files(arch)) corpus.insert(s.family);
    EXPECT_EQ(corpus.size(), family_names().size()) << arch_name(arch);
  }
}

// ---- SHA-256 (FIPS 180-2 examples; the 'a' runs straddle the one- and two-block padding) ----

TEST(Sha256, KnownAnswers) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_EQ(sha256_hex(std::string(55, 'a')), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(sha256_hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(sha256_hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  EXPECT_EQ(sha256_hex(std::string(120, 'a')), "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c");
}

TEST(Manifest, ListsFilesCountsAndTotals) {
  const std::string m = format_manifest({{"a/x.tmv", 3, 40, std::string(64, 'f')}, {"b/y.tmv", 1, 2, std::string(64, '0')}},
                                        {"regenerate: something"});
  EXPECT_EQ(m,
            "# tmu vectors manifest (docs/vector-format.md): PATH VECTORS ELEMENT-CASES SHA-256\n"
            "# regenerate: something\n"
            "a/x.tmv 3 40 " + std::string(64, 'f') + "\n"
            "b/y.tmv 1 2 " + std::string(64, '0') + "\n"
            "# total: 2 files, 4 vectors, 42 element-cases\n");
}

}  // namespace
}  // namespace tmu::tensix::vectors

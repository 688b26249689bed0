// Packer and unpacker conversion vectors (family l1: l1/pack.tmv, l1/unpack.tmv). The configurations
// are every one the model accepts on the architecture (plan_pack / check_unpack over all formats), so
// the files follow docs/l1-formats.md's table without a second copy of it. Level 1 crosses each with
// the special values of its input format (signed zeros, denormals, the smallest and largest normals,
// infinities, NaNs, the rounding ties of BF16, E8M6, TF32 and E5M6 with their neighbours, values that
// round into the next exponent or to saturation, the FP16 and FP8 range edges, the INT8 clamps), BFP
// blocks at their exponent edges, L1 accumulation with every special L1 datum and exponent
// thresholding; the unpacker reads every 8-bit pattern, the special 16- and 32-bit patterns, and
// every BFP datum under low, middle and high shared exponents. Level 2 draws configurations and data.
#include <algorithm>

#include <fmt/format.h>

#include "conversion.h"
#include "gen.h"
#include "tmu/error.h"

namespace tmu::tensix::vectors::detail {

namespace {

constexpr uint32_t kFp32Values[] = {
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x007FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF,  // zeros, denormals, normals
    0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFF800001, 0x3F800000, 0xBF800000, 0x40490FDB,  // infs, NaNs, ±1, pi
    0x3F808000, 0x3F807FFF, 0x3F808001, 0xBF808000, 0x3FFF8000, 0x7F7F8000, 0x3F818000, 0x00FF8000,  // BF16 ties, carries
    0x3F810000, 0x3F80FFFF, 0x3F810001, 0xBF810000, 0x3FFF0000, 0x3F801000, 0x3F800FFF, 0x3F801001,  // E8M6, TF32 ties
    0x3FFFF000, 0x38000000, 0x38800000, 0x387FF000, 0x477FE000, 0x477FF000, 0x47800000, 0xC77FFFFF,  // TF32 carry, FP16 range
    0x33800000, 0x43000000, 0x42FE0000, 0xC3800000, 0x3B800000, 0x3C000000, 0x3C800000, 0xC2F6E979,  // FP8 range, small
};
constexpr uint32_t kInt32Values[] = {0,   0x80000000, 1,   0x80000001, 126,        127,        128,        0x8000007F,
                                     0x80000080, 255, 256, 0x800000FF, 0x7FFFFFFF, 0xFFFFFFFF, 0x12345678, 0x80001234};
constexpr uint32_t kBf16Values[] = {
    0x0000, 0x8000, 0x0001, 0x807F, 0x0080, 0x8080, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0xFF81, 0x3F80, 0xBF80, 0x4049, 0x0081,
    0x3F81, 0xBF81, 0x3F83, 0x3FFF, 0xBFFF, 0x3F82, 0x3F7F, 0xC2F7, 0x0001, 0x00FF, 0x7F00, 0x3C00, 0x3B80, 0x4000, 0x4380, 0xC37F,
};
constexpr uint32_t kFp16Values[] = {
    0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7FFF, 0xFE00, 0x3C00, 0xBC00, 0x4248, 0x3C7F,
    0x3C08, 0x3C07, 0x3C09, 0xBC08, 0x3FF8, 0x7FF8, 0x3C18, 0x7FF7, 0x2000, 0x2400, 0x23FF, 0x5C00, 0x5FFF, 0x6000, 0xE000, 0x3C80,
};
constexpr uint32_t kInt16Values[] = {0,      0x8000, 1,      0x7FFF, 0xFFFF, 0x00FF, 0x0100, 0x1234,
                                     0x8001, 0x007F, 0x0080, 0x7F00, 0x5555, 0xAAAA, 0x00FE, 0xFF00};

// BFP blocks at their exponent edges, as BF16 patterns (widened for an FP32 Dst) and as FP16 patterns.
constexpr uint16_t kBf16Blocks[][kBfpBlock] = {
    {0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000},
    // the largest rounds up (0x3FFF: significand 0xFF), the others tie or not at shifts 0..3
    {0x3FFF, 0x3F81, 0x3F80, 0xBF81, 0x3F03, 0x3F01, 0x3E83, 0x3E81, 0x3E07, 0x3E05, 0xBFFF, 0x3FFE, 0x3F7F, 0x3E80, 0x3E00, 0x3D80},
    // elements shifted out entirely (a shift of 8 or more) and just kept (7)
    {0x4000, 0x3C00, 0x3B80, 0x3C80, 0x3B00, 0xBC80, 0xBC00, 0x3CFF, 0x3C7F, 0x3C40, 0x0000, 0x8000, 0x3D00, 0x3BFF, 0x3980, 0x0001},
    // mixed signs, ties on negative values
    {0x3F80, 0xBF80, 0x3F40, 0xBF40, 0x3FC0, 0xBFC0, 0x3F81, 0xBF81, 0x3EC1, 0xBEC1, 0x3E41, 0xBE41, 0x3DC1, 0xBDC1, 0x4000, 0xC000},
    // exponent 255 (ordinary to the block) with finite values shifted out
    {0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x7F00, 0x3F80, 0xFF7F, 0x0000, 0x7FFF, 0x7E80, 0x7E00, 0x7D80, 0xFE00, 0x7F40, 0x7F7F, 0x8000},
    // denormals only: the shared exponent is 0 or 1
    {0x0001, 0x007F, 0x0080, 0x8080, 0x00C0, 0x80FF, 0x0040, 0x0000, 0x8001, 0x00FF, 0x0081, 0x8081, 0x00A0, 0x0060, 0x807F, 0x0010},
};
constexpr uint16_t kFp16Blocks[][kBfpBlock] = {
    {0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000, 0x0000, 0x8000},
    {0x3FFF, 0x3C08, 0x3C00, 0xBC08, 0x3818, 0x3808, 0x3418, 0x3408, 0x3038, 0x3028, 0xBFFF, 0x3FF0, 0x3BFF, 0x3400, 0x3000, 0x2C00},
    {0x4000, 0x2000, 0x1C00, 0x2400, 0x1800, 0xA400, 0xA000, 0x27FF, 0x23FF, 0x2200, 0x0000, 0x8000, 0x2800, 0x1FFF, 0x0C00, 0x0001},
    {0x3C00, 0xBC00, 0x3A00, 0xBA00, 0x3E00, 0xBE00, 0x3C08, 0xBC08, 0x3608, 0xB608, 0x3208, 0xB208, 0x2E08, 0xAE08, 0x4000, 0xC000},
    {0x7FFF, 0xFC00, 0x7C00, 0x7BFF, 0x7800, 0x3C00, 0xFFF8, 0x0000, 0x7FF8, 0x7400, 0x7000, 0x6C00, 0xF000, 0x7E00, 0x7FF0, 0x8000},
};

// Shared exponents the unpacker reads BFP blocks under: the ends, around the bias, and high values.
constexpr uint8_t kBfpExponents[] = {0, 1, 2, 6, 7, 8, 9, 100, 126, 127, 128, 200, 253, 254, 255, 16};

std::span<const uint32_t> pack_values(PackSource s) {
  switch (s) {
    case PackSource::FP32: return kFp32Values;
    case PackSource::INT32: return kInt32Values;
    case PackSource::BF16: return kBf16Values;
    case PackSource::FP16: return kFp16Values;
    case PackSource::INT16: return kInt16Values;
  }
  return kInt32Values;
}

// The special datums of an L1 format, right-aligned (the patterns an accumulation or an unpack reads).
std::vector<uint32_t> l1_values(L1Format f) {
  switch (f) {
    case L1Format::FP32: return {std::begin(kFp32Values), std::end(kFp32Values)};
    case L1Format::INT32: return {std::begin(kInt32Values), std::end(kInt32Values)};
    case L1Format::BF16: return {std::begin(kBf16Values), std::end(kBf16Values)};
    case L1Format::FP16: return {std::begin(kFp16Values), std::end(kFp16Values)};
    case L1Format::INT16: return {std::begin(kInt16Values), std::end(kInt16Values)};
    default: {
      std::vector<uint32_t> all(1u << l1_datum_bits(f));
      for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
      return all;
    }
  }
}

// Non-BFP datums in L1's layout: low bits first, little-endian bytes.
std::vector<uint8_t> l1_bytes(L1Format f, std::span<const uint32_t> datums) {
  const unsigned bits = l1_datum_bits(f);
  std::vector<uint8_t> out(l1_byte_count(f, datums.size()));
  for (size_t i = 0; i < datums.size(); ++i)
    for (unsigned b = 0; b < bits; b += 8) out[i * bits / 8 + b / 8] = static_cast<uint8_t>(datums[i] >> b);
  return out;
}

// A BFP region of L1: one exponent per block, then the datums packed low bits first.
std::vector<uint8_t> bfp_bytes(L1Format f, std::span<const uint8_t> exponents, std::span<const uint32_t> datums) {
  const unsigned bits = l1_datum_bits(f);
  std::vector<uint8_t> out(exponents.begin(), exponents.end());
  out.resize(l1_byte_count(f, datums.size()));
  for (size_t i = 0; i < datums.size(); ++i) {
    const size_t bit = i * bits;
    out[exponents.size() + bit / 8] |= static_cast<uint8_t>((datums[i] & ((1u << bits) - 1)) << (bit % 8));
  }
  return out;
}

std::string pack_text(const PackConfig& c) {
  std::string s = fmt::format("{} -> {}", pack_source_name(c.from), l1_format_name(c.to));
  if (c.intermediate) s += fmt::format(" via {}", data_format_name(*c.intermediate));
  if (c.exp_threshold) s += fmt::format(", threshold {:#x}", *c.exp_threshold);
  if (c.l1_acc) s += ", L1 accumulation";
  return s;
}
std::string unpack_text(const UnpackConfig& c) {
  std::string s = fmt::format("{} -> {}", l1_format_name(c.from), c.target == UnpackTarget::Dst ? "Dst" : "Src");
  if (c.to) s += fmt::format(" as {}", l1_format_name(*c.to));
  if (c.fp8_e4m3) s += " (E4M3)";
  return s;
}

template <typename Check>
bool accepted(const Check& check) {
  try {
    check();
    return true;
  } catch (const Error&) {
    return false;
  }
}

// Every pack configuration the model accepts: each (Dst, intermediate, L1) triple, then with L1
// accumulation and with exponent thresholding (at 1.0's exponent) where the model takes them.
std::vector<PackConfig> pack_configs(Arch arch) {
  constexpr PackSource kSources[] = {PackSource::FP32, PackSource::INT32, PackSource::BF16, PackSource::FP16, PackSource::INT16};
  std::vector<PackConfig> out;
  for (PackSource from : kSources)
    for (L1Format to : kL1Formats)
      for (uint32_t code = 0; code < 16; ++code) {
        if (!is_valid_data_format_code(code)) continue;
        const PackConfig c{arch, from, to, static_cast<DataFormat>(code), std::nullopt, false, false};
        if (!accepted([&] { plan_pack(c); })) continue;
        out.push_back(c);
        PackConfig acc = c;
        acc.l1_acc = true;
        if (accepted([&] { plan_pack(acc); })) out.push_back(acc);
        PackConfig thr = c;
        const bool five_bit = code == static_cast<uint32_t>(DataFormat::FP16) || code == static_cast<uint32_t>(DataFormat::BFP8a);
        thr.exp_threshold = five_bit ? 15 : 127;
        if (accepted([&] { plan_pack(thr); })) out.push_back(thr);
      }
  return out;
}

std::vector<UnpackConfig> unpack_configs(Arch arch) {
  std::vector<UnpackConfig> out;
  for (L1Format from : kL1Formats)
    for (UnpackTarget target : {UnpackTarget::Src, UnpackTarget::Dst}) {
      std::vector<std::optional<L1Format>> tos{std::nullopt};
      if (from == L1Format::FP32) tos.assign(kL1Formats.begin(), kL1Formats.end());
      for (const auto& to : tos)
        for (bool e4m3 : {false, true}) {
          if (e4m3 && from != L1Format::FP8) continue;
          const UnpackConfig c{arch, from, to, target, e4m3};
          if (accepted([&] { check_unpack(c); })) out.push_back(c);
        }
    }
  return out;
}

// One level-1 vector: a configuration, which slice of its inputs, and for accumulation the rotation
// of the L1 datums against them.
struct Case {
  size_t config = 0;
  size_t chunk = 0;      // 16 datums of the value list, or a BFP block / exponent rotation
  size_t rotation = 0;   // L1 accumulation: L1 datum k + rotation meets input k
  bool block = false;    // a BFP edge block rather than a chunk of the value list
};

std::vector<uint32_t> chunk_of(std::span<const uint32_t> values, size_t chunk) {
  std::vector<uint32_t> out(kBfpBlock);
  for (size_t k = 0; k < kBfpBlock; ++k) out[k] = values[(chunk * kBfpBlock + k) % values.size()];
  return out;
}
size_t chunks(size_t n) { return (n + kBfpBlock - 1) / kBfpBlock; }

class PackGenerator : public FileGenerator {
 public:
  explicit PackGenerator(Arch arch) : arch_(arch), configs_(pack_configs(arch)) {
    for (size_t i = 0; i < configs_.size(); ++i) {
      const PackConfig& c = configs_[i];
      const size_t n = chunks(pack_values(c.from).size());
      const size_t rotations = c.l1_acc ? l1_values(c.to).size() : 1;
      for (size_t k = 0; k < n; ++k)
        for (size_t r = 0; r < rotations; ++r) cases_.push_back({i, k, r, false});
      if (l1_is_bfp(c.to) && !c.exp_threshold) {
        const size_t blocks = c.from == PackSource::FP16 ? std::size(kFp16Blocks) : std::size(kBf16Blocks);
        for (size_t b = 0; b < blocks; ++b) cases_.push_back({i, b, 0, true});
      }
    }
  }
  std::vector<std::string> describe() const override {
    std::vector<std::string> out{fmt::format("packer conversions (Dst -> L1), {} configurations:", configs_.size())};
    for (const PackConfig& c : configs_) out.push_back("  " + pack_text(c));
    return out;
  }
  size_t level1_count() const override { return cases_.size(); }
  Vector level1(size_t index) const override {
    const Case& k = cases_[index];
    const PackConfig& cfg = configs_[k.config];
    std::vector<uint32_t> in;
    if (k.block) {
      for (uint16_t v : cfg.from == PackSource::FP16 ? kFp16Blocks[k.chunk] : kBf16Blocks[k.chunk])
        in.push_back(cfg.from == PackSource::FP32 ? uint32_t{v} << 16 : v);
    } else {
      in = chunk_of(pack_values(cfg.from), k.chunk);
    }
    std::vector<uint32_t> old;
    if (cfg.l1_acc) {
      const std::vector<uint32_t> l1 = l1_values(cfg.to);
      for (size_t i = 0; i < in.size(); ++i) old.push_back(l1[(i + k.rotation) % l1.size()]);
    }
    std::string note = fmt::format("{}: {} {}", pack_text(cfg), k.block ? "BFP edge block" : "values", k.block ? k.chunk : k.chunk * kBfpBlock);
    if (!k.block) note += fmt::format("..{}", k.chunk * kBfpBlock + kBfpBlock - 1);
    if (cfg.l1_acc) note += fmt::format(", L1 datums from {}", k.rotation);
    return make(cfg, std::move(in), old, std::move(note));
  }
  Vector random(Rng& rng) const override {
    const PackConfig& cfg = configs_[rng.below(static_cast<uint32_t>(configs_.size()))];
    const size_t n = kBfpBlock * (1 + rng.below(4));
    const unsigned bits = pack_source_is_32bit(cfg.from) ? 32 : 16;
    const std::span<const uint32_t> specials = pack_values(cfg.from);
    std::vector<uint32_t> in(n), old;
    for (uint32_t& v : in) v = rng.chance(1, 8) ? specials[rng.below(static_cast<uint32_t>(specials.size()))] : rng.bits(bits);
    if (cfg.l1_acc) {
      const std::vector<uint32_t> l1 = l1_values(cfg.to);
      for (size_t i = 0; i < n; ++i)
        old.push_back(rng.chance(1, 8) ? l1[rng.below(static_cast<uint32_t>(l1.size()))] : rng.bits(l1_datum_bits(cfg.to)));
    }
    return make(cfg, std::move(in), old, pack_text(cfg) + ": random");
  }

 private:
  Vector make(const PackConfig& cfg, std::vector<uint32_t> in, const std::vector<uint32_t>& old, std::string note) const {
    Vector v;
    v.note = std::move(note);
    Conversion& c = v.conversion.emplace();
    c.pack = true;
    c.pack_cfg = cfg;
    c.in = std::move(in);
    if (cfg.l1_acc) c.l1 = l1_bytes(cfg.to, old);
    compute_conversion(c, arch_);
    return v;
  }
  Arch arch_;
  std::vector<PackConfig> configs_;
  std::vector<Case> cases_;
};

class UnpackGenerator : public FileGenerator {
 public:
  explicit UnpackGenerator(Arch arch) : arch_(arch), configs_(unpack_configs(arch)) {
    for (size_t i = 0; i < configs_.size(); ++i) {
      const L1Format f = configs_[i].from;
      // BFP: four vectors of sixteen blocks whose exponents rotate over kBfpExponents.
      const size_t n = l1_is_bfp(f) ? 4 : chunks(l1_values(f).size());
      for (size_t k = 0; k < n; ++k) cases_.push_back({i, k, 0, l1_is_bfp(f)});
    }
  }
  std::vector<std::string> describe() const override {
    std::vector<std::string> out{fmt::format("unpacker conversions (L1 -> Src or Dst), {} configurations:", configs_.size())};
    for (const UnpackConfig& c : configs_) out.push_back("  " + unpack_text(c));
    return out;
  }
  size_t level1_count() const override { return cases_.size(); }
  Vector level1(size_t index) const override {
    const Case& k = cases_[index];
    const UnpackConfig& cfg = configs_[k.config];
    if (!k.block) {
      const std::vector<uint32_t> datums = chunk_of(l1_values(cfg.from), k.chunk);
      return make(cfg, l1_bytes(cfg.from, datums), datums.size(),
                  fmt::format("{}: values {}..{}", unpack_text(cfg), k.chunk * kBfpBlock, k.chunk * kBfpBlock + kBfpBlock - 1));
    }
    // Sixteen blocks; datum j of block b is pattern (16 b + j) of the datum width, so BFP8 meets
    // all 256 patterns and the narrower widths each of theirs under every exponent.
    std::vector<uint8_t> exponents(kBfpBlock);
    std::vector<uint32_t> datums(kBfpBlock * kBfpBlock);
    for (size_t b = 0; b < kBfpBlock; ++b) exponents[b] = kBfpExponents[(b + 4 * k.chunk) % kBfpBlock];
    for (size_t i = 0; i < datums.size(); ++i) datums[i] = static_cast<uint32_t>(i + k.chunk) % (1u << l1_datum_bits(cfg.from));
    return make(cfg, bfp_bytes(cfg.from, exponents, datums), datums.size(),
                fmt::format("{}: every datum under exponents from {}", unpack_text(cfg), 4 * k.chunk));
  }
  Vector random(Rng& rng) const override {
    const UnpackConfig& cfg = configs_[rng.below(static_cast<uint32_t>(configs_.size()))];
    const size_t n = kBfpBlock * (1 + rng.below(4));
    std::vector<uint8_t> bytes(l1_byte_count(cfg.from, n));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng.bits(8));
    return make(cfg, std::move(bytes), n, unpack_text(cfg) + ": random");
  }

 private:
  Vector make(const UnpackConfig& cfg, std::vector<uint8_t> l1, size_t n, std::string note) const {
    Vector v;
    v.note = std::move(note);
    Conversion& c = v.conversion.emplace();
    c.pack = false;
    c.unpack_cfg = cfg;
    c.l1 = std::move(l1);
    c.expect_datums.resize(n);
    compute_conversion(c, arch_);
    return v;
  }
  Arch arch_;
  std::vector<UnpackConfig> configs_;
  std::vector<Case> cases_;
};

}  // namespace

void plan_l1_files(std::vector<FileSpec>& out) {
  for (const char* stem : {"pack", "unpack"}) {
    FileSpec s;
    s.family = "l1";
    s.stem = stem;
    s.option = stem;
    out.push_back(s);
  }
}

std::unique_ptr<FileGenerator> make_l1_generator(const FileSpec& spec, Arch arch) {
  if (spec.option == "pack") return std::make_unique<PackGenerator>(arch);
  return std::make_unique<UnpackGenerator>(arch);
}

}  // namespace tmu::tensix::vectors::detail

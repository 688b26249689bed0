// AMX vector generation: level 1 (special-value classes, ties, cancellations, every enable mode,
// shuffle and indexed load) and level 2 (random operands and states), per docs/vector-format.md.
#include <fmt/format.h>

#include "tmu/amx/vectors.h"
#include "tmu/error.h"
#include "tmu/ieee.h"
#include "tmu/ieee_text.h"
#include "tmu/rng.h"

namespace tmu::amx {

namespace {

struct WidthSpec {
  const char* name;
  unsigned code;
  Version version;
  ieee::Format xy, z;
};

constexpr WidthSpec kWidths[] = {
    {"f16", 2, Version::M1, ieee::kBinary16, ieee::kBinary16},
    {"f32", 4, Version::M1, ieee::kBinary32, ieee::kBinary32},
    {"f64", 7, Version::M1, ieee::kBinary64, ieee::kBinary64},
    {"f16f32", 3, Version::M1, ieee::kBinary16, ieee::kBinary32},
    {"bf16", 0, Version::M2, ieee::kBfloat16, ieee::kBfloat16},
    {"bf16f32", 1, Version::M2, ieee::kBfloat16, ieee::kBinary32},
};

constexpr unsigned kAlus[] = {kAluAdd, kAluSub, kAluSelect};
const char* alu_name(unsigned alu) { return alu == kAluAdd ? "add" : alu == kAluSub ? "sub" : "select"; }

// Sixteen values of every class an FMA treats differently: signed zeros, the subnormal ends, the
// normal ends, ordinary numbers with and without a last-place bit, infinities, a quiet NaN with a
// payload and a signalling NaN.
std::array<uint64_t, 16> classes(ieee::Format f) {
  const uint64_t s = f.sign_bit(), one = uint64_t(f.bias()) << f.frac_bits, min_normal = uint64_t{1} << f.frac_bits;
  return {0, s, 1, s | f.frac_mask(), min_normal, s | min_normal, one, s | one | 1,
          one + min_normal + f.quiet_bit(),  // 3
          s | (one - min_normal) | f.quiet_bit(),  // -0.75
          f.max_finite(false), f.max_finite(true), f.infinity(false), f.infinity(true), f.default_nan() | 1,
          s | f.infinity(false) | 1};
}

// The generator's own constants: a value that does not fit is a bug here, not bad input.
uint64_t value(ieee::Format f, const std::string& text) {
  std::string why;
  const auto bits = ieee::from_text(f, text, &why);
  if (!bits) throw Error(ErrorKind::BadInput, "AMX vector generator: " + why);
  return *bits;
}

uint64_t operand(const WidthSpec& w, unsigned alu) { return (uint64_t{w.code} << 42) | (uint64_t{alu} << 47); }

struct Builder {
  VectorFile file;
  std::string stem;
  void add(const std::string& comment, const State& s, uint64_t op) {
    file.vectors.push_back(make_vector(fmt::format("{}/{:04}", stem, file.vectors.size()), comment, s, op, file.version));
  }
};

// Every X class against every Y class, Z filled with one class, per ALU mode.
void special_classes(Builder& b, const WidthSpec& w) {
  const unsigned eb = w.xy.width() / 8, zb = w.z.width() / 8, lanes = kRowBytes / eb;
  const auto cx = classes(w.xy), cz = classes(w.z);
  const unsigned blocks = (16 + lanes - 1) / lanes;
  for (unsigned alu : kAlus)
    for (unsigned zc = 0; zc < 16; ++zc)
      for (unsigned bx = 0; bx < blocks; ++bx)
        for (unsigned by = 0; by < blocks; ++by) {
          State s;
          Row x{}, y{};
          for (unsigned i = 0; i < lanes; ++i) {
            set_lane(x, eb, i, cx[(bx * lanes + i) % 16]);
            set_lane(y, eb, i, cx[(by * lanes + i) % 16]);
          }
          store_span(s.x, 0, x);
          store_span(s.y, 0, y);
          for (Row& z : s.z)
            for (unsigned k = 0; k < kRowBytes / zb; ++k) set_lane(z, zb, k, cz[zc]);
          b.add(fmt::format("{} classes: X lanes {}.., Y lanes {}.., Z class {}", alu_name(alu), bx * lanes % 16,
                            by * lanes % 16, zc),
                s, operand(w, alu));
        }
}

// Rounding at the last place of Z: z = 1 or 1 + ulp (alternating lanes) plus y = a multiple of
// half an ulp, so ties go to even both ways, and exact cancellation z = -(x*y) -> +0.
void ties_and_cancellation(Builder& b, const WidthSpec& w) {
  const unsigned eb = w.xy.width() / 8, zb = w.z.width() / 8, lanes = kRowBytes / eb;
  const int p = static_cast<int>(w.z.precision());
  // x = 2^-shift and y = (multiple of 2^-p) * 2^shift: the product is the same, and both factors are
  // normal numbers of the narrow X/Y formats (2^-24 alone is below binary16's normals).
  const int shift = p / 2;
  const int e = shift - p;
  const std::vector<std::string> halves{fmt::format("0x1p{}", e), fmt::format("-0x1p{}", e), fmt::format("0x3p{}", e),
                                        fmt::format("-0x3p{}", e), fmt::format("0x1p{}", e - 1),
                                        fmt::format("0x5p{}", e - 1), "0", "-0"};
  for (unsigned alu : {kAluAdd, kAluSub}) {
    State s;
    Row x{}, y{};
    for (unsigned i = 0; i < lanes; ++i) {
      set_lane(x, eb, i, value(w.xy, fmt::format("0x1p{}", -shift)));
      set_lane(y, eb, i, value(w.xy, halves[i % halves.size()]));
    }
    store_span(s.x, 0, x);
    store_span(s.y, 0, y);
    for (Row& z : s.z)
      for (unsigned k = 0; k < kRowBytes / zb; ++k)
        set_lane(z, zb, k, value(w.z, "1") | (k % 2));  // 1, or 1 + ulp
    b.add(fmt::format("{} ties: z = 1 or 1 + ulp, y = multiples of half an ulp", alu_name(alu)), s, operand(w, alu));

    // x_i = +-(i % 8 + 1), y_j = (j % 8 + 1) / 8: products of at most 6 bits, exact everywhere;
    // z = -x*y (or +x*y for z - x*y) cancels exactly.
    State c;
    std::vector<int> a(lanes), d(lanes);
    for (unsigned i = 0; i < lanes; ++i) {
      a[i] = static_cast<int>(i % 8 + 1) * (i % 3 == 0 ? -1 : 1);
      d[i] = static_cast<int>(i % 8 + 1);
      set_lane(x, eb, i, value(w.xy, fmt::format("{}", a[i])));
      set_lane(y, eb, i, value(w.xy, fmt::format("0x{:x}p-3", d[i])));
    }
    store_span(c.x, 0, x);
    store_span(c.y, 0, y);
    const bool widening = zb != eb;
    for (unsigned j = 0; j < lanes; ++j)
      for (unsigned i = 0; i < lanes; ++i) {
        const unsigned row = widening ? 2 * j + (i & 1) : j * eb;
        const int product = a[i] * d[j] * (alu == kAluAdd ? -1 : 1);
        set_lane(c.z[row], zb, widening ? i / 2 : i, value(w.z, fmt::format("{}0x{:x}p-3", product < 0 ? "-" : "",
                                                                             product < 0 ? -product : product)));
      }
    b.add(fmt::format("{} exact cancellation: z = {}x*y", alu_name(alu), alu == kAluAdd ? "-" : "+"), c, operand(w, alu));
  }
}

// Every X and Y enable mode and value, every shuffle pair, every indexed load, on f32 lanes.
void fields(Builder& b) {
  const WidthSpec& w = kWidths[1];
  State s;
  Rng rng(0xF1E1D5);
  for (unsigned r = 0; r < kPoolRegs; ++r) {
    Row x{}, y{};
    for (unsigned i = 0; i < 16; ++i) {
      set_lane(x, 4, i, value(w.xy, fmt::format("{}", static_cast<int>(rng.next() % 64) - 32)));
      set_lane(y, 4, i, value(w.xy, fmt::format("{}", static_cast<int>(rng.next() % 64) - 32)));
    }
    store_span(s.x, r * kRowBytes, x);
    store_span(s.y, r * kRowBytes, y);
  }
  for (Row& z : s.z)
    for (unsigned k = 0; k < 16; ++k) set_lane(z, 4, k, value(w.z, fmt::format("{}", static_cast<int>(rng.next() % 64))));
  for (unsigned mode = 0; mode < 8; ++mode)
    for (unsigned v = 0; v < 32; ++v) {
      b.add(fmt::format("X enable mode {} value {}", mode, v), s,
            operand(w, kAluAdd) | (uint64_t{mode} << 38) | (uint64_t{v} << 32) | (1ull << 20));
      b.add(fmt::format("Y enable mode {} value {}", mode, v), s,
            operand(w, kAluSub) | (uint64_t{mode} << 23) | (uint64_t{v} << 58) | (2ull << 20));
    }
  for (unsigned xs = 0; xs < 4; ++xs)
    for (unsigned ys = 0; ys < 4; ++ys)
      b.add(fmt::format("shuffles X S{} Y S{}, offsets across a register boundary", xs, ys), s,
            operand(w, kAluAdd) | (uint64_t{xs} << 29) | (uint64_t{ys} << 27) | (0x1C8ull << 10) | 0x1F4ull |
                (3ull << 20));
  for (unsigned of_y = 0; of_y < 2; ++of_y)
    for (unsigned four = 0; four < 2; ++four)
      for (unsigned reg = 0; reg < kPoolRegs; ++reg)
        b.add(fmt::format("indexed load into {} register {}, {}-bit indices", of_y ? 'Y' : 'X', reg, four ? 4 : 2), s,
              operand(w, kAluAdd) | (1ull << 53) | (uint64_t{of_y} << 47) | (uint64_t{four} << 48) |
                  (uint64_t{reg} << 49) | (0x40ull << 10) | 0x80ull);
}

// Level 2: a 64-bit word of a random lane: half the time random bits, otherwise special classes of
// a random width packed into it.
uint64_t random_word(Rng& rng) {
  if (rng.next() & 1) return rng.next();
  static const ieee::Format kFormats[] = {ieee::kBinary16, ieee::kBfloat16, ieee::kBinary32, ieee::kBinary64};
  const ieee::Format f = kFormats[rng.next() % 4];
  uint64_t w = 0;
  for (unsigned k = 0; k < 64 / f.width(); ++k) w |= classes(f)[rng.next() % 16] << (k * f.width());
  return w;
}

void random_vectors(Builder& b, unsigned n, uint64_t seed) {
  Rng rng(derive_seed(seed, b.stem));
  for (unsigned k = 0; k < n; ++k) {
    State s;
    for (unsigned i = 0; i < kPoolBytes / 8; ++i) {
      const uint64_t xw = random_word(rng), yw = random_word(rng);
      for (unsigned byte = 0; byte < 8; ++byte) {
        s.x[i * 8 + byte] = static_cast<uint8_t>(xw >> (8 * byte));
        s.y[i * 8 + byte] = static_cast<uint8_t>(yw >> (8 * byte));
      }
    }
    for (Row& z : s.z)
      for (unsigned i = 0; i < kRowBytes / 8; ++i) set_lane(z, 8, i, random_word(rng));
    b.add("random operand and state", s, rng.next());
  }
}

}  // namespace

std::vector<GenFile> generate_vectors(const GenOptions& opts) {
  std::vector<GenFile> out;
  for (const WidthSpec& w : kWidths) {
    Builder b;
    b.file.version = w.version;
    b.stem = fmt::format("{}-{}/l1", version_name(w.version), w.name);
    special_classes(b, w);
    ties_and_cancellation(b, w);
    out.push_back({fmt::format("amx/{}-{}.tmv", version_name(w.version), w.name), std::move(b.file)});
  }
  Builder f;
  f.stem = "M1-fields/l1";
  fields(f);
  out.push_back({"amx/M1-fields.tmv", std::move(f.file)});
  if (opts.level >= 2) {
    for (Version v : {Version::M1, Version::M2}) {
      Builder r;
      r.file.version = v;
      r.stem = fmt::format("{}-random/l2", version_name(v));
      random_vectors(r, opts.random, opts.seed);
      out.push_back({fmt::format("amx/{}-random.tmv", version_name(v)), std::move(r.file)});
    }
  }
  return out;
}

}  // namespace tmu::amx

// The AMX rows: inputs, the matfp sequence, and its references.
#include "tmu/amx/audit/amx.h"

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tmu/amx/matfp.h"
#include "tmu/audit/reference.h"
#include "tmu/ieee.h"
#include "tmu/ieee_text.h"

namespace tmu::audit {
namespace {

struct ModeInfo {
  AmxMode mode;
  const char* name;
  const char* method;
  SrcFormat stream;
  const OutFormat* source;
  ieee::Format lanes;      // the X/Y element format matfp reads
  unsigned lane_width;     // matfp's lane-width code (bits 42..45)
  amx::Version version;    // bf16 lane widths exist from M2 on
};

const ModeInfo kModes[] = {
    {AmxMode::Bf16F32, "bf16f32", "AMX bf16->f32", SrcFormat::BF16, &kBf16, ieee::kBfloat16, 1, amx::Version::M2},
    {AmxMode::F16F32, "f16f32", "AMX f16->f32", SrcFormat::FP16, &kFp16, ieee::kBinary16, 3, amx::Version::M1},
    {AmxMode::F32, "f32", "AMX f32", SrcFormat::TF32, &kFp32, ieee::kBinary32, 4, amx::Version::M1},
};

const ModeInfo& mode_info(AmxMode m) { return kModes[static_cast<unsigned>(m)]; }

// The pattern of v in f; v must be one of f's numbers (subnormals included), as the inputs and Z
// values are by construction.
uint64_t ieee_bits(double v, ieee::Format f) {
  ieee::Unpacked u;
  u.sign = std::signbit(v);
  if (v == 0) return ieee::pack(f, u);
  if (!std::isfinite(v)) throw std::runtime_error("precision audit: AMX input is not finite");
  const int e = std::max(std::ilogb(v), f.emin());
  const double significand = std::ldexp(std::fabs(v), static_cast<int>(f.frac_bits) - e);
  if (e > f.emax() || significand != std::floor(significand))
    throw std::runtime_error("precision audit: AMX input is not a number of its format");
  u.exponent = e;
  u.significand = static_cast<uint64_t>(significand);
  u.cls = (u.significand >> f.frac_bits) != 0 ? ieee::Class::Normal : ieee::Class::Subnormal;
  return ieee::pack(f, u);
}

double ieee_value(uint64_t bits, ieee::Format f) {
  const double v = ieee::to_double(f, bits);
  if (!std::isfinite(v)) throw std::runtime_error("precision audit: AMX result is not finite");
  return v;
}

std::vector<Real> reals(const std::vector<double>& v) { return std::vector<Real>(v.begin(), v.end()); }

constexpr unsigned kHalfTile = kTile / 2;

// The audit plays the loads (ldx/ldy are not modelled): it writes the next group of k's operands
// straight into the X and Y pools, then issues their matfp.
class AmxMachine {
 public:
  explicit AmxMachine(const AmxCase& c) : c_(c), m_(mode_info(c.mode)) {
    amx::MatfpOperand op;
    op.alu_mode = amx::kAluAdd;
    op.lane_width = m_.lane_width;
    if (widening()) {
      // One 64-byte register per k and operand: eight k per pool fill, the offset picking the k.
      for (unsigned r = 0; r < amx::kPoolRegs; ++r) {
        op.x_offset = op.y_offset = r * amx::kRowBytes;
        per_k_.push_back({amx::encode_matfp(op)});
      }
    } else {
      // Two registers per k and operand (32 f32 lanes): four k per pool fill. Quadrant (ib, jb) of
      // C takes Y's half ib and X's half jb; its Z rows are 4a + zrow, so zrow = 2 ib + jb keeps
      // the four quadrants in separate rows.
      for (unsigned slot = 0; slot < amx::kPoolRegs / 2; ++slot) {
        std::vector<uint64_t> quads;
        for (unsigned ib = 0; ib < 2; ++ib)
          for (unsigned jb = 0; jb < 2; ++jb) {
            op.y_offset = slot * 2 * amx::kRowBytes + ib * amx::kRowBytes;
            op.x_offset = slot * 2 * amx::kRowBytes + jb * amx::kRowBytes;
            op.z_row = 2 * ib + jb;
            quads.push_back(amx::encode_matfp(op));
          }
        per_k_.push_back(quads);
      }
    }
  }

  void run_tile(unsigned t) {
    for (unsigned k = t * kTile; k < (t + 1) * kTile; ++k) {
      const unsigned slot = k % per_k_.size();
      if (slot == 0) fill_pools(k);
      for (uint64_t operand : per_k_[slot]) amx::execute_matfp(s_, operand, m_.version);
    }
  }

  // C (row-major) as Z holds it now.
  std::vector<double> result() const {
    std::vector<double> out(kTile * kTile);
    for (unsigned i = 0; i < kTile; ++i)
      for (unsigned j = 0; j < kTile; ++j) {
        // widening: z[j = i][i = j] at row 2i + (j & 1), f32 lane j / 2; f32: quadrant (i/16, j/16)
        // at row 4 (i % 16) + zrow, lane j % 16.
        const unsigned row = widening() ? 2 * i + (j & 1) : 4 * (i % kHalfTile) + 2 * (i / kHalfTile) + j / kHalfTile;
        const unsigned lane = widening() ? j / 2 : j % kHalfTile;
        out[i * kTile + j] = ieee_value(amx::f32(s_.z[row], lane), ieee::kBinary32);
      }
    return out;
  }

 private:
  bool widening() const { return m_.lanes.width() == 16; }

  // Operands of k0 .. k0 + per_k_.size() - 1: Y gets column k of in0 (Y lane a = in0[a][k]), X
  // row k of in1 (X lane b = in1[k][b]), 32 elements each at the k's byte offset.
  void fill_pools(unsigned k0) {
    const unsigned bytes = m_.lanes.width() / 8;
    for (unsigned slot = 0; slot < per_k_.size() && k0 + slot < c_.depth(); ++slot) {
      const unsigned k = k0 + slot;
      const unsigned base = slot * kTile * bytes;
      for (unsigned e = 0; e < kTile; ++e) {
        put(s_.y, base + e * bytes, bytes, ieee_bits(c_.left(e, k), m_.lanes));
        put(s_.x, base + e * bytes, bytes, ieee_bits(c_.right(k, e), m_.lanes));
      }
    }
  }
  static void put(amx::Pool& pool, unsigned at, unsigned bytes, uint64_t v) {
    for (unsigned b = 0; b < bytes; ++b) pool[at + b] = static_cast<uint8_t>(v >> (8 * b));  // little-endian
  }

  const AmxCase& c_;
  const ModeInfo& m_;
  amx::State s_;
  std::vector<std::vector<uint64_t>> per_k_;  // [slot]: the matfp operands of a k in that pool slot
};

}  // namespace

const char* amx_mode_name(AmxMode m) { return mode_info(m).name; }
const char* amx_method_name(AmxMode m) { return mode_info(m).method; }
SrcFormat amx_stream(AmxMode m) { return mode_info(m).stream; }
const OutFormat& amx_source_format(AmxMode m) { return *mode_info(m).source; }

AmxMode amx_mode_of_stream(SrcFormat stream) {
  for (const ModeInfo& i : kModes)
    if (i.stream == stream) return i.mode;
  throw std::invalid_argument("precision audit: no AMX mode shares this stream");
}

std::optional<AmxMode> parse_amx_mode(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const ModeInfo& i : kModes)
    if (lower == i.name) return i.mode;
  return std::nullopt;
}

AmxCase make_amx_case(AmxMode m, Distribution d, unsigned tiles, uint64_t seed) {
  IeeeMatmulInputs in = make_ieee_matmul_inputs(amx_stream(m), amx_source_format(m), d, tiles, seed);
  AmxCase c;
  c.mode = m;
  c.tiles = tiles;
  c.in0 = std::move(in.in0);
  c.in1 = std::move(in.in1);
  return c;
}

std::vector<std::vector<double>> run_amx_matmul(const AmxCase& c) {
  AmxMachine machine(c);
  std::vector<std::vector<double>> out;
  for (unsigned t = 0; t < c.tiles; ++t) {
    machine.run_tile(t);
    out.push_back(machine.result());
  }
  return out;
}

std::vector<std::vector<Real>> exact_amx_prefixes(const AmxCase& c) {
  return exact_prefix_products(reals(c.in0), reals(c.in1), c.tiles);
}

std::vector<std::vector<double>> ieee_sequential_amx(const AmxCase& c, const OutFormat& f) {
  return ieee_sequential_matmul(reals(c.in0), reals(c.in1), c.tiles, f);
}

}  // namespace tmu::audit

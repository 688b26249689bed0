// Seeded audit inputs. Replays are bit-identical on every host: tmu::Rng's output is fixed integer
// arithmetic, and every real-valued transformation (uniform, Box-Muller normal, 2^u) is done in MPFR,
// which rounds correctly, never with <random>'s distributions or the host's libm. Every value
// is then rounded to the source format (round_to_src), and the exact reference uses those rounded
// numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tmu/audit/src_number.h"
#include "tmu/rng.h"

namespace tmu::audit {

enum class Distribution : uint8_t { Uniform, Normal, LogUniform, Cancellation };
const char* distribution_name(Distribution d);  // uniform normal loguniform cancel
std::optional<Distribution> parse_distribution(std::string_view name);

// Real-valued draws from the generator's 64-bit words.
Real uniform_pm1(Rng& rng);  // [-1, 1) on a 2^-52 grid, exact
Real normal(Rng& rng);       // standard normal, Box-Muller in MPFR
Real log_uniform(Rng& rng, int lo_exponent, int hi_exponent);  // +-2^u, u uniform in [lo, hi)

// Exponent range of the log-uniform distribution: wide, but every product and every sum of up to
// 512 products stays a normal number of the source's 16-bit accumulation format (FP16 sources:
// [2^-6, 2^6)).
int log_uniform_half_range(SrcFormat f);

inline constexpr unsigned kTile = 32;  // tiles are 32x32

// in0 (M=32 x K=32*tiles) is the matmul's left operand, in1 (K x N=32) its right one; which operand
// register each reaches is the engine's business (its rows say).
struct MatmulCase {
  SrcFormat format = SrcFormat::BF16;
  unsigned tiles = 1;
  std::vector<SrcNumber> in0, in1;  // row-major
  // Optional: in0 and in1 already converted to an engine's register datums (row-major like them),
  // in place of in0 and in1, for an engine that runs many sequences over the same operands and
  // converts each operand once. Empty: the engine converts in0 and in1 itself.
  std::vector<uint32_t> in0_datums, in1_datums;
  unsigned depth() const { return kTile * tiles; }
  const SrcNumber& left(unsigned i, unsigned k) const { return in0[i * depth() + k]; }
  const SrcNumber& right(unsigned k, unsigned j) const { return in1[k * kTile + j]; }
};
// Cancellation: within every tile, column 16+k of in0 repeats column k and row 16+k of in1 is
// minus row k perturbed by a few units in its last place, so every 32-long partial dot product
// nearly cancels (and so does every prefix of tiles).
MatmulCase make_matmul_case(SrcFormat f, Distribution d, unsigned tiles, uint64_t seed);

// The inputs of make_matmul_case(stream, d, tiles, seed) - the same generator stream, so the same
// real draws, with the stream format's log-uniform range and cancellation perturbation - rounded
// instead to nearest-even into the IEEE format f with gradual underflow, for an engine that keeps
// subnormals. A cancelling partner is formed from its partner's value in f, as the
// stream's is from its value in the source format. Values are f's numbers, exact in double;
// row-major like MatmulCase.
struct IeeeMatmulInputs {
  std::vector<double> in0, in1;
};
IeeeMatmulInputs make_ieee_matmul_inputs(SrcFormat stream, const OutFormat& f, Distribution d, unsigned tiles,
                                         uint64_t seed);

// An element-wise multiply-add on a 32x32 tile: result = dst_init + a * b. dst_init is zero except
// for the cancellation distribution, where it is -(a*b) perturbed and rounded to the source's 16-bit
// accumulation format (so it is exact in a 16-bit or a 32-bit accumulator).
struct EltwiseCase {
  SrcFormat format = SrcFormat::BF16;
  std::vector<SrcNumber> a, b;  // 32x32 row-major
  std::vector<double> dst_init;
};
EltwiseCase make_eltwise_case(SrcFormat f, Distribution d, uint64_t seed);

}  // namespace tmu::audit

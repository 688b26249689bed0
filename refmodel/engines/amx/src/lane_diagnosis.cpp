// The AMX lane diagnosis (tmu/amx/lane_diagnosis.h): the lane recomputed under each departure from
// kMatfpFpcr in turn, by tmu::ieee, and compared with the design's bits.
#include "tmu/amx/lane_diagnosis.h"

#include <string>
#include <vector>

#include "tmu/amx/matfp.h"

namespace tmu::amx {

namespace {

struct Departure {
  const char* name;
  const char* what;
  ieee::Options options;  // kMatfpFpcr with one field changed
  bool unfused = false;   // the product rounded into Z's format before the sum
};

ieee::Options with_rounding(ieee::Rounding r) {
  ieee::Options o = kMatfpFpcr;
  o.rounding = r;
  return o;
}
ieee::Options with_flush() {
  ieee::Options o = kMatfpFpcr;
  o.flush_to_zero = true;
  return o;
}
ieee::Options with_propagated_nans() {
  ieee::Options o = kMatfpFpcr;
  o.default_nan = false;
  return o;
}

const std::vector<Departure>& departures() {
  static const std::vector<Departure> d = {
      {"truncation", "the FMA rounds toward zero (truncates) where matfp rounds to nearest even",
       with_rounding(ieee::Rounding::TowardZero)},
      {"rounding", "the FMA rounds toward +inf where matfp rounds to nearest even",
       with_rounding(ieee::Rounding::TowardPositive)},
      {"rounding", "the FMA rounds toward -inf where matfp rounds to nearest even",
       with_rounding(ieee::Rounding::TowardNegative)},
      {"subnormal-flush", "the design flushes subnormal operands or results to zero where matfp keeps them (FZ off)",
       with_flush()},
      {"nan-propagation",
       "the design propagates a NaN operand's payload where matfp returns the default NaN (FPCR.DN = 1)",
       with_propagated_nans()},
      {"unfused", "the design rounds the product before adding it (two roundings) where matfp's FMA rounds once",
       kMatfpFpcr, true},
  };
  return d;
}

uint64_t departed(const Departure& d, ieee::Format xy, ieee::Format z, bool subtract, uint64_t x, uint64_t y,
                  uint64_t z_before) {
  const uint64_t xs = subtract ? x ^ xy.sign_bit() : x;
  if (!d.unfused) return ieee::fma_mixed(xy, z, xs, y, z_before, d.options).bits;
  // Widening into Z's format is exact; the product is then rounded once, the sum once more.
  const uint64_t xz = ieee::convert(xy, z, xs, d.options).bits, yz = ieee::convert(xy, z, y, d.options).bits;
  return ieee::add(z, ieee::mul(z, xz, yz, d.options).bits, z_before, d.options).bits;
}

}  // namespace

std::string diagnose_fma_lane(ieee::Format xy, ieee::Format z, bool subtract, uint64_t x, uint64_t y,
                              uint64_t z_before, uint64_t design) {
  std::string out;
  for (const Departure& d : departures()) {
    if (departed(d, xy, z, subtract, x, y, z_before) != design) continue;
    out += out.empty() ? "diagnosis " : " or ";
    out += std::string("[") + d.name + "] " + d.what;
  }
  return out;
}

}  // namespace tmu::amx

// The references the model is measured against:
//  - exact: the product of the (source-rounded) inputs, computed with Eigen on MPFR numbers
//    (unsupported/Eigen/MPRealSupport) and verified exact (ExactScope);
//  - IEEE, two ways (docs/audit.md): "once" rounds the exact result once into the output format
//    (the best any implementation storing that format can do); "seq" is the plain IEEE matmul in
//    the output format: every product rounded to nearest-even into it, then added in k order with a
//    round-to-nearest-even after every addition (for FP32 the products are exact, so this is FP32
//    recursive summation).
#pragma once

#include <vector>

#include "tmu/audit/inputs.h"

namespace tmu::audit {

struct MatmulExact {
  // prefix[t]: exact in0[:, 0:32(t+1)] * in1[0:32(t+1), :], the result after t+1 tiles.
  std::vector<std::vector<Real>> prefix;
};
MatmulExact exact_matmul(const MatmulCase& c);

struct EltwiseExact {
  std::vector<Real> result;  // dst_init + a * b
};
EltwiseExact exact_eltwise(const EltwiseCase& c);

// IEEE "seq" matmul in format f; [t] is the 32x32 result after t+1 tiles.
std::vector<std::vector<double>> ieee_sequential_matmul(const MatmulCase& c, const OutFormat& f);
// The same on operand values given directly (row-major: in0 32 x 32*tiles, in1 32*tiles x 32).
std::vector<std::vector<double>> ieee_sequential_matmul(const std::vector<Real>& in0, const std::vector<Real>& in1,
                                                        unsigned tiles, const OutFormat& f);
// Exact in0[:, 0:32(t+1)] * in1[0:32(t+1), :] for every t, same layout (MatmulExact::prefix).
std::vector<std::vector<Real>> exact_prefix_products(const std::vector<Real>& in0, const std::vector<Real>& in1,
                                                     unsigned tiles);
// Exact in0[:, 32t:32(t+1)] * in1[32t:32(t+1), :] for every t: each tile pair's own product.
std::vector<std::vector<Real>> exact_tile_products(const std::vector<Real>& in0, const std::vector<Real>& in1,
                                                   unsigned tiles);
// The numbers' values in f.
std::vector<Real> values_of(const std::vector<SrcNumber>& numbers, SrcFormat f);
// IEEE "seq" element-wise: round(dst_init + round(a * b)).
std::vector<double> ieee_sequential_eltwise(const EltwiseCase& c, const OutFormat& f);
// IEEE "once": every exact value rounded once into f.
std::vector<double> ieee_rounded_once(const std::vector<Real>& exact, const OutFormat& f);

}  // namespace tmu::audit

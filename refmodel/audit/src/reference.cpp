// Exact products (Eigen + MPFR) and the IEEE reference matmuls.
#include "tmu/audit/reference.h"

#include <stdexcept>

#include <Eigen/Core>
#include <unsupported/Eigen/MPRealSupport>


namespace tmu::audit {
namespace {

using RealMatrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;

template <typename Fn>
RealMatrix matrix_of(unsigned rows, unsigned cols, Fn value) {
  RealMatrix m(rows, cols);
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c) m(r, c) = value(r, c);
  return m;
}

std::vector<Real> row_major(const RealMatrix& m) {
  std::vector<Real> v;
  v.reserve(static_cast<size_t>(m.size()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) v.push_back(m(r, c));
  return v;
}

// Scratch MPFR numbers for the sequential IEEE loop (mpreal temporaries would allocate per step).
struct Scratch {
  mpfr_t product, sum, rounded;
  Scratch() { mpfr_inits2(kExactBits, product, sum, rounded, static_cast<mpfr_ptr>(nullptr)); }
  ~Scratch() { mpfr_clears(product, sum, rounded, static_cast<mpfr_ptr>(nullptr)); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

}  // namespace

std::vector<Real> values_of(const std::vector<SrcNumber>& numbers, SrcFormat f) {
  std::vector<Real> v(numbers.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = value_of(numbers[i], f);
  return v;
}

MatmulExact exact_matmul(const MatmulCase& c) {
  return MatmulExact{exact_prefix_products(values_of(c.in0, c.format), values_of(c.in1, c.format), c.tiles)};
}

EltwiseExact exact_eltwise(const EltwiseCase& c) {
  const SrcFormat f = c.format;
  ExactScope exact("exact element-wise product");
  EltwiseExact out;
  for (size_t e = 0; e < c.a.size(); ++e)
    out.result.push_back(Real(c.dst_init[e]) + value_of(c.a[e], f) * value_of(c.b[e], f));
  exact.verify();
  return out;
}

namespace {

// The 32x32 products of every tile pair: with `prefix`, each summed with those before it.
std::vector<std::vector<Real>> tile_products(const std::vector<Real>& in0, const std::vector<Real>& in1, unsigned tiles,
                                             bool prefix) {
  const unsigned depth = kTile * tiles;
  ExactScope exact(prefix ? "exact matmul prefixes" : "exact tile products");
  const RealMatrix left = matrix_of(kTile, depth, [&](unsigned i, unsigned k) { return in0[i * depth + k]; });
  const RealMatrix right = matrix_of(depth, kTile, [&](unsigned k, unsigned j) { return in1[k * kTile + j]; });
  std::vector<std::vector<Real>> out;
  RealMatrix running = RealMatrix::Zero(kTile, kTile);
  for (unsigned t = 0; t < tiles; ++t) {
    const auto cols = static_cast<Eigen::Index>(t * kTile);
    const RealMatrix product = left.middleCols(cols, kTile) * right.middleRows(cols, kTile);
    if (prefix) running += product;
    out.push_back(row_major(prefix ? running : product));
  }
  exact.verify();
  return out;
}

}  // namespace

std::vector<std::vector<Real>> exact_prefix_products(const std::vector<Real>& in0, const std::vector<Real>& in1,
                                                     unsigned tiles) {
  return tile_products(in0, in1, tiles, true);
}

std::vector<std::vector<Real>> exact_tile_products(const std::vector<Real>& in0, const std::vector<Real>& in1,
                                                   unsigned tiles) {
  return tile_products(in0, in1, tiles, false);
}

std::vector<std::vector<double>> ieee_sequential_matmul(const MatmulCase& c, const OutFormat& fmt) {
  return ieee_sequential_matmul(values_of(c.in0, c.format), values_of(c.in1, c.format), c.tiles, fmt);
}

std::vector<std::vector<double>> ieee_sequential_matmul(const std::vector<Real>& left, const std::vector<Real>& right,
                                                        unsigned tiles, const OutFormat& fmt) {
  const unsigned depth = kTile * tiles;
  Scratch s;
  std::vector<Real> acc(kTile * kTile, Real(0, fmt.precision));
  std::vector<std::vector<double>> out;
  for (unsigned t = 0; t < tiles; ++t) {
    for (unsigned i = 0; i < kTile; ++i)
      for (unsigned j = 0; j < kTile; ++j) {
        mpfr_ptr a = acc[i * kTile + j].mpfr_ptr();
        for (unsigned k = t * kTile; k < (t + 1) * kTile; ++k) {
          mpfr_mul(s.product, left[i * depth + k].mpfr_srcptr(), right[k * kTile + j].mpfr_srcptr(), MPFR_RNDN);
          round_to_format(s.rounded, s.product, fmt);
          // Exact at kExactBits for the audit's inputs, but FP32 terms may lie far apart (f32
          // operands give 48-bit products down to tiny magnitudes): checked, not assumed.
          if (mpfr_add(s.sum, a, s.rounded, MPFR_RNDN) != 0)
            throw std::runtime_error("precision audit: an IEEE reference sum rounded; raise kExactBits");
          round_to_format(a, s.sum, fmt);
        }
      }
    std::vector<double> snapshot;
    for (const Real& a : acc) snapshot.push_back(exact_double(a));
    out.push_back(std::move(snapshot));
  }
  return out;
}

std::vector<double> ieee_sequential_eltwise(const EltwiseCase& c, const OutFormat& fmt) {
  std::vector<double> out;
  for (size_t e = 0; e < c.a.size(); ++e) {
    const Real product = round_to_format(value_of(c.a[e], c.format) * value_of(c.b[e], c.format), fmt);
    out.push_back(exact_double(round_to_format(Real(c.dst_init[e]) + product, fmt)));
  }
  return out;
}

std::vector<double> ieee_rounded_once(const std::vector<Real>& exact, const OutFormat& fmt) {
  std::vector<double> out;
  out.reserve(exact.size());
  for (const Real& x : exact) out.push_back(exact_double(round_to_format(x, fmt)));
  return out;
}

}  // namespace tmu::audit

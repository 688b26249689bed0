// Exact products (Eigen + MPFR) and the IEEE reference matmuls.
#include "tmu/audit/reference.h"

#include <stdexcept>

#include <Eigen/Core>
#include <unsupported/Eigen/MPRealSupport>

#include "tmu/audit/slices.h"

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

MatmulExact exact_matmul(const MatmulCase& c) {
  const SrcFormat f = c.format;
  const unsigned depth = c.depth();
  ExactScope exact("exact matmul");
  const RealMatrix left = matrix_of(kTile, depth, [&](unsigned i, unsigned k) { return value_of(c.left(i, k), f); });
  const RealMatrix right = matrix_of(depth, kTile, [&](unsigned k, unsigned j) { return value_of(c.right(k, j), f); });
  std::array<RealMatrix, 4> left_slices, right_slices;
  for (unsigned p = 0; p < 4; ++p) {
    left_slices[p] = matrix_of(kTile, depth, [&](unsigned i, unsigned k) {
      return value_of(slice_of(c.left(i, k), f, Operand::SrcB, p), f);
    });
    right_slices[p] = matrix_of(depth, kTile, [&](unsigned k, unsigned j) {
      return value_of(slice_of(c.right(k, j), f, Operand::SrcA, p), f);
    });
  }
  MatmulExact out;
  RealMatrix running = RealMatrix::Zero(kTile, kTile);
  for (unsigned t = 0; t < c.tiles; ++t) {
    const auto cols = static_cast<Eigen::Index>(t * kTile);
    running += left.middleCols(cols, kTile) * right.middleRows(cols, kTile);
    out.prefix.push_back(row_major(running));
    std::array<std::vector<Real>, 4> phases;
    for (unsigned p = 0; p < 4; ++p) {
      const RealMatrix product = left_slices[p].middleCols(cols, kTile) * right_slices[p].middleRows(cols, kTile);
      phases[p] = row_major(product);
    }
    out.phase.push_back(std::move(phases));
  }
  exact.verify();
  return out;
}

EltwiseExact exact_eltwise(const EltwiseCase& c) {
  const SrcFormat f = c.format;
  ExactScope exact("exact element-wise product");
  EltwiseExact out;
  for (size_t e = 0; e < c.a.size(); ++e) {
    out.result.push_back(Real(c.dst_init[e]) + value_of(c.a[e], f) * value_of(c.b[e], f));
    for (unsigned p = 0; p < 4; ++p) {
      out.phase[p].push_back(value_of(slice_of(c.a[e], f, Operand::SrcA, p), f) *
                             value_of(slice_of(c.b[e], f, Operand::SrcB, p), f));
    }
  }
  exact.verify();
  return out;
}

std::vector<std::vector<Real>> exact_prefix_products(const std::vector<Real>& in0, const std::vector<Real>& in1,
                                                     unsigned tiles) {
  const unsigned depth = kTile * tiles;
  ExactScope exact("exact matmul prefixes");
  const RealMatrix left = matrix_of(kTile, depth, [&](unsigned i, unsigned k) { return in0[i * depth + k]; });
  const RealMatrix right = matrix_of(depth, kTile, [&](unsigned k, unsigned j) { return in1[k * kTile + j]; });
  std::vector<std::vector<Real>> out;
  RealMatrix running = RealMatrix::Zero(kTile, kTile);
  for (unsigned t = 0; t < tiles; ++t) {
    const auto cols = static_cast<Eigen::Index>(t * kTile);
    running += left.middleCols(cols, kTile) * right.middleRows(cols, kTile);
    out.push_back(row_major(running));
  }
  exact.verify();
  return out;
}

std::vector<std::vector<double>> ieee_sequential_matmul(const MatmulCase& c, const OutFormat& fmt) {
  const SrcFormat f = c.format;
  std::vector<Real> left(c.in0.size()), right(c.in1.size());
  for (size_t i = 0; i < left.size(); ++i) left[i] = value_of(c.in0[i], f);
  for (size_t i = 0; i < right.size(); ++i) right[i] = value_of(c.in1[i], f);
  return ieee_sequential_matmul(left, right, c.tiles, fmt);
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

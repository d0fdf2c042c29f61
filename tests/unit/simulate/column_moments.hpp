#pragma once
// Moments of simulated columns shared by the DGP tests.
#include <Eigen/Core>
#include <cmath>

#include "core/types.hpp"

namespace bfs::test {

/// Pearson correlation of columns a and b of X, in double.
inline double column_correlation(const Matrix& X, Index a, Index b) {
  Eigen::VectorXd u = X.col(a).cast<double>(), v = X.col(b).cast<double>();
  u.array() -= u.mean();
  v.array() -= v.mean();
  return u.dot(v) / std::sqrt(u.squaredNorm() * v.squaredNorm());
}

}  // namespace bfs::test

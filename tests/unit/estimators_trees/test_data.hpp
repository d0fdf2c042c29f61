#pragma once
// Synthetic regression problems shared by the tree-estimator tests.
#include <cmath>
#include <numbers>

#include "core/rng.hpp"
#include "core/types.hpp"

namespace bfs::test {

struct Problem {
  Matrix X;
  Vector y;
};

/// Friedman #1: y = 10 sin(π x1 x2) + 20 (x3 − ½)² + 10 x4 + 5 x5 + noise·N(0,1), x ~ U(0,1)^p (p ≥ 5).
inline Problem friedman1(Index n, Index p, double noise, std::uint64_t seed) {
  Rng rng(seed);
  Problem out{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) out.X(i, j) = static_cast<float>(rng.uniform());
    const auto x = [&](int j) { return static_cast<double>(out.X(i, j)); };
    out.y[i] = 10 * std::sin(std::numbers::pi * x(0) * x(1)) + 20 * (x(2) - 0.5) * (x(2) - 0.5) + 10 * x(3) + 5 * x(4) +
               noise * rng.normal();
  }
  return out;
}

/// Pure noise: y ~ N(0,1) independent of X ~ U(0,1)^p.
inline Problem noise(Index n, Index p, std::uint64_t seed) {
  Rng rng(seed);
  Problem out{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) out.X(i, j) = static_cast<float>(rng.uniform());
    out.y[i] = rng.normal();
  }
  return out;
}

inline double r2(const Vector& y, const Vector& pred) {
  const double mean = y.mean();
  return 1.0 - (y - pred).squaredNorm() / (y.array() - mean).square().sum();
}

}  // namespace bfs::test

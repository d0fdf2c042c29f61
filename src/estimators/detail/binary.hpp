#pragma once
// What the binary (Task::Binary) lasso and MLP share: the logistic inverse link σ(m) = 1/(1 + e^−m) — one
// definition, used by the models' predict() and by the importance fast paths, so a fast path that reaches the same
// margin reaches the same bits — and the log-loss on a margin.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/error.hpp"
#include "core/types.hpp"

namespace bfs::detail {

/// σ(m), evaluated without overflow and with full relative precision in both tails: e^m/(1 + e^m) for m < 0.
inline double logistic(double m) {
  if (m >= 0.0) return 1.0 / (1.0 + std::exp(-m));
  const double e = std::exp(m);
  return e / (1.0 + e);
}

/// −log P(y | m) = log(1 + e^m) − y·m for y ∈ {0, 1}, without overflow (the per-row log-loss on the margin).
inline double logistic_loss(double m, double y) {
  return std::max(m, 0.0) + std::log1p(std::exp(-std::abs(m))) - y * m;
}

}  // namespace bfs::detail

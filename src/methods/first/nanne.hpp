#pragma once
// FIRST's estimators ([FIRST §3–4]):
//  * T̂(u) (eq. 10 with Appendix C's tie rule, detail/knn.hpp): the expected conditional variance of Y given X_u,
//    by nearest neighbours; T̂(∅) = Var̂Y (eq. 14, divisor N − 1).
//  * NANNE (Algorithm 1): T̂_ε = T̂(A), Var̂f = max(Var̂Y − T̂_ε, 0); if Var̂f = 0 every index is 0, else
//    Ŝ_i = max(T̂(A∖i) − T̂_ε, 0) / Var̂f — the noise-adjusted total Sobol' index of each i ∈ A.
//  * NANNE-BE (Algorithm 2): NANNE again on the features with a positive index, until none is 0 or none is left.
// The |A| + 1 estimates of a NANNE pass are independent: they go through the Executor (one task each).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "data/feature_layout.hpp"
#include "methods/executor.hpp"
#include "methods/first/detail/forward_search.hpp"
#include "methods/first/detail/knn.hpp"

namespace bfs::first {

/// The data FIRST estimates on: standardised columns, y, N_I, and which columns make each feature. A factor of
/// FIRST is a feature: a categorical one is all its indicator columns, and a distance on a set of features sums
/// the squares over all their columns (data/feature_layout.hpp; an empty layout is one column per feature).
class TotalIndex {
 public:
  TotalIndex(detail::Columns x, std::vector<double> y, std::size_t inner, FeatureLayout layout = {});
  std::size_t rows() const { return x_.rows; }
  /// p, the number of features (the columns when each feature is one column).
  std::size_t features() const { return static_cast<std::size_t>(layout_.features(static_cast<Index>(x_.cols))); }
  /// The columns of the features `u`, ascending (the order every distance sums them in).
  std::vector<std::size_t> columns_of(std::span<const std::size_t> u) const;
  /// The columns of X (= features() unless a feature is categorical).
  std::size_t cols() const { return x_.cols; }
  /// The number of columns of feature f.
  std::size_t width(std::size_t f) const;
  std::size_t inner() const { return inner_; }
  double var_y() const { return var_y_; }
  /// T̂(u) for the features u over the outer rows `outer` (ascending); the distance sums run over u's columns in
  /// ascending order, whatever u's order. T̂(∅) = Var̂Y.
  double estimate(std::vector<std::size_t> u, std::span<const std::size_t> outer) const;
  /// The standardised columns and y, for a search over many sets (detail::ForwardSearch).
  const detail::Columns& columns() const { return x_; }
  std::span<const double> y() const { return y_; }

 private:
  detail::Columns x_;
  std::vector<double> y_;
  std::size_t inner_;
  double var_y_;
  FeatureLayout layout_;
};

/// The outer rows of one step: all N rows when N_O is 0 or N, else N_O rows drawn without replacement from the
/// stream (seed, phase, step) and sorted — one subsample per step, shared by every estimate of that step.
std::vector<std::size_t> outer_rows(std::size_t n, std::size_t n_outer, std::uint64_t seed, std::uint64_t phase,
                                    std::uint64_t step);
/// Stream phases of outer_rows.
inline constexpr std::uint64_t kForwardPhase = 0;
inline constexpr std::uint64_t kBackwardPhase = 1;

struct NanneResult {
  std::vector<double> indices;  ///< Ŝ_i for each feature of A, in A's order
  double noise_var = 0.0;       ///< T̂_ε = T̂(A)
  double explained_var = 0.0;   ///< Var̂f
};
/// Algorithm 1 on the set `a` with the outer rows `outer`.
NanneResult nanne(const TotalIndex& t, const std::vector<std::size_t>& a, std::span<const std::size_t> outer,
                  Executor& executor);

struct BackwardResult {
  std::vector<std::size_t> kept;         ///< the features left, in A's order
  std::vector<double> indices;           ///< their Ŝ of the last pass
  std::vector<std::int32_t> dropped_in;  ///< per feature of A (A's order): the pass that dropped it, 0 = kept
  double noise_var = 0.0;                ///< T̂_ε of the last pass
  std::int32_t passes = 0;
};
/// Algorithm 2 on `a`; pass k (1-based) uses outer_rows(…, kBackwardPhase, k).
BackwardResult nanne_backward(const TotalIndex& t, const std::vector<std::size_t>& a, std::size_t n_outer,
                              std::uint64_t seed, Executor& executor);

}  // namespace bfs::first

#pragma once
// Per-feature Beta posteriors of the combinatorial semi-bandit ([Wu §3.2, Alg. 2] "Update Beta
// parameters"; [TVS Table 1 step U]). Only played arms are updated unless unplayed arms are counted as failures.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "core/types.hpp"

namespace bfs {

class BetaPosterior {
 public:
  BetaPosterior(Index p, double prior_alpha, double prior_beta);
  BetaPosterior(std::vector<double> alpha, std::vector<double> beta);

  Index size() const { return static_cast<Index>(alpha_.size()); }
  double alpha(FeatureId k) const { return alpha_[k]; }
  double beta(FeatureId k) const { return beta_[k]; }
  const std::vector<double>& alphas() const { return alpha_; }
  const std::vector<double>& betas() const { return beta_; }
  /// E[θ_k] = α / (α + β): the inclusion probability.
  double mean(FeatureId k) const { return alpha_[k] / (alpha_[k] + beta_[k]); }
  std::vector<double> means() const;

  /// α_k += r, β_k += 1 − r for each played arm k (rewards[i] belongs to played[i]). With unplayed_as_failures,
  /// every arm not in `played` gets β_k += 1.
  void update(const FeatureSet& played, const std::vector<std::uint8_t>& rewards, bool unplayed_as_failures = false);
  /// θ_k ~ Beta(α_k, β_k) for every k, drawn in feature order from `rng`.
  std::vector<double> sample(Rng& rng) const;

 private:
  std::vector<double> alpha_;
  std::vector<double> beta_;
};

/// The equal-tailed credible interval of Beta(alpha, beta) at `level` in (0, 1): its (1 − level)/2 and (1 + level)/2
/// quantiles, to near double precision (the inverse regularized incomplete beta function, Boost.Math's ibeta_inv).
/// For α, β ≥ 1 (the default prior Beta(1, 1) and every posterior grown from it) the CDF at the mean α/(α + β) lies
/// within [1/e, 1 − 1/e] ≈ [0.37, 0.63], so the mean is inside the interval at every level ≥ 0.27; a prior
/// with α or β below 1 can put a very skewed posterior's mean outside it (nothing forces it in).
std::pair<double, double> beta_credible_interval(double alpha, double beta, double level);

}  // namespace bfs

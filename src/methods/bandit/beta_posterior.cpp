#include "methods/bandit/beta_posterior.hpp"

#include <boost/math/special_functions/beta.hpp>

#include "core/error.hpp"

namespace bfs {

BetaPosterior::BetaPosterior(Index p, double prior_alpha, double prior_beta)
    : alpha_(static_cast<std::size_t>(p), prior_alpha), beta_(static_cast<std::size_t>(p), prior_beta) {
  BFS_CHECK(prior_alpha > 0 && prior_beta > 0);
}

BetaPosterior::BetaPosterior(std::vector<double> alpha, std::vector<double> beta)
    : alpha_(std::move(alpha)), beta_(std::move(beta)) {
  BFS_CHECK(alpha_.size() == beta_.size());
}

std::vector<double> BetaPosterior::means() const {
  std::vector<double> out(alpha_.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = alpha_[k] / (alpha_[k] + beta_[k]);
  return out;
}

void BetaPosterior::update(const FeatureSet& played, const std::vector<std::uint8_t>& rewards,
                           bool unplayed_as_failures) {
  BFS_CHECK(played.size() == rewards.size(), played.size(), " arms, ", rewards.size(), " rewards");
  if (unplayed_as_failures) {
    std::vector<std::uint8_t> is_played(alpha_.size(), 0);
    for (FeatureId k : played) is_played[k] = 1;
    for (std::size_t k = 0; k < alpha_.size(); ++k)
      if (!is_played[k]) beta_[k] += 1.0;
  }
  for (std::size_t i = 0; i < played.size(); ++i) {
    const FeatureId k = played[i];
    BFS_CHECK(k >= 0 && k < size(), "feature ", k);
    if (rewards[i])
      alpha_[k] += 1.0;
    else
      beta_[k] += 1.0;
  }
}

std::vector<double> BetaPosterior::sample(Rng& rng) const {
  std::vector<double> theta(alpha_.size());
  for (std::size_t k = 0; k < theta.size(); ++k) theta[k] = rng.beta(alpha_[k], beta_[k]);
  return theta;
}

std::pair<double, double> beta_credible_interval(double alpha, double beta, double level) {
  BFS_CHECK(alpha > 0.0 && beta > 0.0 && level > 0.0 && level < 1.0, "Beta(", alpha, ", ", beta, ") at level ", level);
  const double tail = (1.0 - level) / 2.0;
  return {boost::math::ibeta_inv(alpha, beta, tail), boost::math::ibeta_inv(alpha, beta, 1.0 - tail)};
}

}  // namespace bfs

#include "methods/bandit/policy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"

namespace bfs {

double tvs_threshold(double C) {
  BFS_CHECK(C > 0.0 && C < 1.0, "C = ", C);
  return std::log(1.0 / C) / std::log((1.0 + C) / C);
}

FeatureSet threshold_oracle(const std::vector<double>& theta, double threshold) {
  FeatureSet arm;
  for (std::size_t k = 0; k < theta.size(); ++k)
    if (theta[k] >= threshold) arm.push_back(static_cast<FeatureId>(k));
  return arm;
}

FeatureSet top_q_oracle(const std::vector<double>& theta, double threshold, std::int64_t q) {
  FeatureSet passing = threshold_oracle(theta, threshold);
  if (static_cast<std::int64_t>(passing.size()) > q) {
    std::stable_sort(passing.begin(), passing.end(), [&](FeatureId a, FeatureId b) { return theta[a] > theta[b]; });
    passing.resize(static_cast<std::size_t>(q));
    std::sort(passing.begin(), passing.end());
  }
  return passing;
}

FeatureSet symmetric_difference(const FeatureSet& a, const FeatureSet& b) {
  FeatureSet out;
  std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

FeatureSet cap_arm(const FeatureSet& arm, std::int64_t cap, Rng& rng) {
  if (static_cast<std::int64_t>(arm.size()) <= cap) return arm;
  // Partial Fisher–Yates: the first `cap` positions become a uniform random subset.
  FeatureSet pool = arm;
  for (std::int64_t i = 0; i < cap; ++i) {
    const auto j = static_cast<std::size_t>(i) + rng.uniform_int(pool.size() - static_cast<std::size_t>(i));
    std::swap(pool[static_cast<std::size_t>(i)], pool[j]);
  }
  pool.resize(static_cast<std::size_t>(cap));
  std::sort(pool.begin(), pool.end());
  return pool;
}

PolicySettings PolicySettings::from(const BanditConfig& bandit) {
  PolicySettings s;
  s.name = bandit.policy;
  s.max_features = bandit.max_features;
  s.max_redraws = bandit.max_redraws;
  s.tvs_c = bandit.tvs_c;
  s.tvs_q = bandit.tvs_q;
  return s;
}

Policy::Policy(PolicySettings settings) : settings_(settings) {
  threshold_ = settings_.name == PolicyKind::Tvs ? tvs_threshold(settings_.tvs_c) : 0.5;
}

FeatureSet Policy::oracle(const std::vector<double>& theta) const {
  if (settings_.name == PolicyKind::Tvs && settings_.tvs_q > 0) return top_q_oracle(theta, threshold_, settings_.tvs_q);
  return threshold_oracle(theta, threshold_);
}

ArmDraw Policy::choose(const BetaPosterior& posterior, std::uint64_t seed, std::uint64_t round,
                       std::uint64_t slot) const {
  ArmDraw draw;
  Rng first = Rng::stream(seed, round, slot, Purpose::PolicyFirst);
  draw.arm = oracle(posterior.sample(first));

  if (settings_.name == PolicyKind::Ttts) {
    Rng second = Rng::stream(seed, round, slot, Purpose::PolicySecond);
    if (second.uniform() > 0.5) {
      bool found = false;
      for (int attempt = 1; attempt <= settings_.max_redraws; ++attempt) {
        FeatureSet other = oracle(posterior.sample(second));
        draw.redraws = attempt;
        if (other != draw.arm) {
          draw.arm = symmetric_difference(draw.arm, other);
          draw.played_second = true;
          found = true;
          break;
        }
      }
      draw.fallback = !found;
    }
  }

  const auto p = posterior.size();
  const auto cap = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(settings_.max_features * p + 1e-9)));
  if (static_cast<std::int64_t>(draw.arm.size()) > cap) {
    Rng cap_rng = Rng::stream(seed, round, slot, Purpose::Cap);
    draw.arm = cap_arm(draw.arm, cap, cap_rng);
    draw.capped = true;
  }
  return draw;
}

}  // namespace bfs

#pragma once
// Super-arm policies (docs/design.md §3):
//  - ts:   combinatorial Thompson sampling with the median-probability-model oracle S = {k : θ_k ≥ 0.5}
//          ([Wu §3.2] step 2; [TVS Lemma 1] with C = (√5−1)/2).
//  - ttts: top-two Thompson sampling ([Wu Alg. 2]): with probability 1/2 play S, else draw S' until
//          S' ≠ S and play the symmetric difference (S ∪ S') \ (S ∩ S'). Redraws are bounded by max_redraws; when
//          every redraw equals S (a posterior concentrated on one model) we play S itself — the same arm TS would
//          play — and report the fallback, so the run never spins.
//  - tvs:  Thompson Variable Selection ([TVS Alg. 1]): S = {k : θ_k ≥ C̃}, C̃ = log(1/C)/log((1+C)/C)
//          (eq. 7); with known q*, the top q* arms among those passing C̃ (eq. 13).
// After the oracle, a `max_features` cap keeps a uniformly random subset of at most ⌊max_features·p⌋ arms
// (at least 1), as the reference implementation does. An empty super-arm is a valid draw.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/job_config.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/beta_posterior.hpp"

namespace bfs {

/// C̃ of [TVS eq. 7].
double tvs_threshold(double C);
/// {k : θ_k ≥ threshold}, ascending.
FeatureSet threshold_oracle(const std::vector<double>& theta, double threshold);
/// [TVS eq. 13]: the (up to) q arms with the largest θ among those with θ ≥ threshold (ties: lower id first),
/// returned ascending.
FeatureSet top_q_oracle(const std::vector<double>& theta, double threshold, std::int64_t q);
/// (a ∪ b) \ (a ∩ b) of two ascending sets, ascending.
FeatureSet symmetric_difference(const FeatureSet& a, const FeatureSet& b);
/// Uniform random subset of `arm` of size `cap` (kept ascending); `arm` itself when it is not larger.
FeatureSet cap_arm(const FeatureSet& arm, std::int64_t cap, Rng& rng);

/// One draw of a policy, with what happened on the way (for logs and tests).
struct ArmDraw {
  FeatureSet arm;
  bool played_second = false;  ///< TTTS: the symmetric difference was played
  int redraws = 0;             ///< TTTS: draws of S' needed
  bool fallback = false;       ///< TTTS: S' = S for every redraw; S was played
  bool capped = false;
};

struct PolicySettings {
  PolicyKind name = PolicyKind::Ttts;
  double max_features = 1.0;
  int max_redraws = 100;
  double tvs_c = 0.6180339887498949;
  std::int64_t tvs_q = 0;

  static PolicySettings from(const BanditConfig& bandit);
};

class Policy {
 public:
  explicit Policy(PolicySettings settings);
  /// The super-arm for (round, slot). Draws come only from the streams (seed, round, slot, PolicyFirst |
  /// PolicySecond | Cap), so the draw is a pure function of the posterior and those keys.
  ArmDraw choose(const BetaPosterior& posterior, std::uint64_t seed, std::uint64_t round, std::uint64_t slot) const;
  const PolicySettings& settings() const { return settings_; }

 private:
  FeatureSet oracle(const std::vector<double>& theta) const;
  PolicySettings settings_;
  double threshold_;
};

}  // namespace bfs

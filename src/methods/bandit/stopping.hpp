#pragma once
// Stopping rules (docs/design.md §3; [Wu §3.2] step 5, [TVS §6.2]):
//  - iterations:      run the scheduled number of iterations.
//  - rank-stable:     the features with mean > 0.5, ordered by mean, identical for K consecutive iterations
//                     (default K = 50, the reference implementation's rule).
//  - selected-stable: the median probability model {k : mean ≥ 0.5} unchanged for K iterations (default 100,
//                     [TVS]).
//  - truth:           every true feature ≥ 0.5 and every other feature < 0.5 ([Wu §4.2]'s convergence).
// "Selected" is the SelectionRule's: mean ≥ 0.5 for ts and ttts ([Wu]'s median probability model); for tvs
// the model TVS outputs, Ŝ_t = the posterior means truncated at C̃ ([TVS §4]: "variables with π_i(t) above
// 0.5", §6.1: "truncating π_i(500) at 0.5"), so strictly above (by more than 1e-12, C̃'s rounding):
// {k : mean_k > C̃}, or the top tvs_q of those
// (eq. 13). Strict matters: a mean is a ratio of counts and often exactly 0.5 (a Beta(3, 3) after four plays).
// Every rule above, the selected set and the truth metrics use it.
#include <cstdint>
#include <string>
#include <vector>

#include "config/job_config.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/beta_posterior.hpp"

namespace bfs {

/// Which posterior means make a feature selected: mean ≥ threshold (mean > threshold when strict), and with
/// top_q > 0 only the top_q largest.
struct SelectionRule {
  double threshold = 0.5;
  std::int64_t top_q = 0;
  bool strict = false;
  /// 0.5 for ts and ttts (the median probability model); C̃ (and tvs_q) for tvs.
  static SelectionRule from(const BanditConfig& bandit);
};

/// {k : mean_k ≥ threshold} (> when strict; top_q of them by mean if set), ascending — with the default rule the
/// median probability model ([Wu §3.2], third point).
FeatureSet selected_set(const std::vector<double>& means, const SelectionRule& rule = {});
/// {k : mean_k > threshold} ordered by decreasing mean (ties by id).
FeatureSet ranked_set(const std::vector<double>& means, const SelectionRule& rule = {});
/// True when the selected set is exactly `truth`.
bool separates(const std::vector<double>& means, const FeatureSet& truth, const SelectionRule& rule = {});

class StoppingRule {
 public:
  /// window 0 = the rule's default.
  StoppingRule(StopRule rule, int window, FeatureSet truth, bool has_truth, SelectionRule selection = {});
  /// Feeds the posterior means after an iteration; true when the run should stop now.
  bool observe(const std::vector<double>& means);
  StopRule rule() const { return rule_; }
  int window() const { return window_; }
  /// Why it stopped, for run.json.
  std::string reason() const;

  /// Serializable state (for checkpoints): the last key and how many iterations it has held.
  FeatureSet last_key;
  int stable_count = 0;

 private:
  StopRule rule_;
  int window_;
  FeatureSet truth_;
  SelectionRule selection_;
};

}  // namespace bfs

#include "methods/bandit/stopping.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "methods/bandit/policy.hpp"

namespace bfs {

SelectionRule SelectionRule::from(const BanditConfig& bandit) {
  if (bandit.policy != PolicyKind::Tvs) return {};
  return {tvs_threshold(bandit.tvs_c), bandit.tvs_q, /*strict=*/true};
}

FeatureSet selected_set(const std::vector<double>& means, const SelectionRule& rule) {
  // Strictly above C̃, by more than its rounding: the default C = (√5 − 1)/2 means C̃ = 0.5, which log(1/C) /
  // log((1 + C)/C) gives as 0.4999999999999999, and a mean of exactly 0.5 must not pass it.
  constexpr double kRounding = 1e-12;
  const double at_least = rule.strict ? rule.threshold + kRounding : rule.threshold;
  return rule.top_q > 0 ? top_q_oracle(means, at_least, rule.top_q) : threshold_oracle(means, at_least);
}

FeatureSet ranked_set(const std::vector<double>& means, const SelectionRule& rule) {
  FeatureSet out;
  for (std::size_t k = 0; k < means.size(); ++k)
    if (means[k] > rule.threshold) out.push_back(static_cast<FeatureId>(k));
  std::stable_sort(out.begin(), out.end(), [&](FeatureId a, FeatureId b) { return means[a] > means[b]; });
  return out;
}

bool separates(const std::vector<double>& means, const FeatureSet& truth, const SelectionRule& rule) {
  FeatureSet sorted = truth;
  std::sort(sorted.begin(), sorted.end());
  return selected_set(means, rule) == sorted;
}

StoppingRule::StoppingRule(StopRule rule, int window, FeatureSet truth, bool has_truth, SelectionRule selection)
    : rule_(rule), window_(window), truth_(std::move(truth)), selection_(selection) {
  if (rule_ == StopRule::RankStable && window_ == 0) window_ = 50;
  if (rule_ == StopRule::SelectedStable && window_ == 0) window_ = 100;
  if (rule_ == StopRule::Truth && !has_truth)
    throw ConfigError("bandit.stop = \"truth\" needs data with a known truth (simulated data or /truth in HDF5)");
}

bool StoppingRule::observe(const std::vector<double>& means) {
  if (rule_ == StopRule::Iterations) return false;
  if (rule_ == StopRule::Truth) return separates(means, truth_, selection_);
  FeatureSet key = rule_ == StopRule::RankStable ? ranked_set(means, selection_) : selected_set(means, selection_);
  if (key == last_key && stable_count > 0) {
    ++stable_count;
  } else {
    last_key = std::move(key);
    stable_count = 1;
  }
  return stable_count >= window_;
}

std::string StoppingRule::reason() const {
  if (rule_ == StopRule::Truth) return "truth separated";
  if (rule_ == StopRule::RankStable) return "ranked set stable for " + std::to_string(window_) + " iterations";
  if (rule_ == StopRule::SelectedStable) return "selected set stable for " + std::to_string(window_) + " iterations";
  return "iterations";
}

}  // namespace bfs

#include "bandit/stopping.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace bfs {

FeatureSet selected_set(const std::vector<double>& means) {
  FeatureSet out;
  for (std::size_t k = 0; k < means.size(); ++k)
    if (means[k] >= 0.5) out.push_back(static_cast<FeatureId>(k));
  return out;
}

FeatureSet ranked_set(const std::vector<double>& means) {
  FeatureSet out;
  for (std::size_t k = 0; k < means.size(); ++k)
    if (means[k] > 0.5) out.push_back(static_cast<FeatureId>(k));
  std::stable_sort(out.begin(), out.end(), [&](FeatureId a, FeatureId b) { return means[a] > means[b]; });
  return out;
}

bool separates(const std::vector<double>& means, const FeatureSet& truth) {
  std::vector<std::uint8_t> is_true(means.size(), 0);
  for (FeatureId k : truth) is_true[k] = 1;
  for (std::size_t k = 0; k < means.size(); ++k) {
    if (is_true[k] && means[k] < 0.5) return false;
    if (!is_true[k] && means[k] >= 0.5) return false;
  }
  return true;
}

StoppingRule::StoppingRule(StopRule rule, int window, FeatureSet truth, bool has_truth)
    : rule_(rule), window_(window), truth_(std::move(truth)) {
  if (rule_ == StopRule::RankStable && window_ == 0) window_ = 50;
  if (rule_ == StopRule::SelectedStable && window_ == 0) window_ = 100;
  if (rule_ == StopRule::Truth && !has_truth)
    throw ConfigError("bandit.stop = \"truth\" needs data with a known truth (simulated data or /truth in HDF5)");
}

bool StoppingRule::observe(const std::vector<double>& means) {
  if (rule_ == StopRule::Iterations) return false;
  if (rule_ == StopRule::Truth) return separates(means, truth_);
  FeatureSet key = rule_ == StopRule::RankStable ? ranked_set(means) : selected_set(means);
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

#pragma once
// The method-neutral result (docs/design.md §3 "Result"): what every method returns and the only thing the
// writers read (result.h5, summary.csv, run.json, `inspect`, the plot scripts), so a new method gets every output
// for free.
//
// Per feature every method gives `importance` (higher = more important; the bandit's is the posterior mean),
// `selected` and a `rank` (1 = most important, ties by lower feature index; rank_by_importance). A method that has
// a trajectory of its importance (the bandit: the posterior means after each iteration) fills `trajectory`.
//
// An interval of each importance (`importance_lo`, `importance_hi`) is optional: the bandit's equal-tailed credible
// interval of its Beta posterior at level run.interval; an aggregate of R runs' range of the importance over them.
// A summary of R runs (`stability`, run/stability_summary.hpp) is present only in a result made of several runs
// (`banditfs aggregate`, stability selection).
//
// **The layout rule.** The neutral datasets live at the root of result.h5 (/feature_names, /importance, /selected,
// /rank, /importance_lo, /importance_hi, /trajectory, /truth) with the run's facts as root attributes; the summary of
// R runs, neutral too, in group /stability; a method's own datasets and facts live in one group named after the
// method (/bandit/alpha, /bandit/evaluations/test_score, /first/forward_feature, ...).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/types.hpp"
#include "run/stability_summary.hpp"
#include "run/truth_metrics.hpp"

namespace bfs {

/// One of a method's own datasets, written as /<method>/<name> ("evaluations/test_score" makes a subgroup).
/// `shape` is row-major; empty = one dimension of the values' length.
struct MethodDataset {
  using Values = std::variant<std::vector<double>, std::vector<float>, std::vector<std::int32_t>,
                              std::vector<std::int64_t>, std::vector<std::string>>;
  std::string name;
  Values values;
  std::vector<std::size_t> shape;
};

/// A scalar fact of the method (policy, estimator, a noise variance...): an attribute of /<method>, or of one of
/// its subgroups when `name` has a '/' ("evaluations/metric").
struct MethodFact {
  using Value = std::variant<std::string, double, std::int64_t>;
  std::string name;
  Value value;
};

struct MethodResult {
  // The run's facts (root attributes of result.h5; run.json).
  std::string method;
  /// The group of the method's own datasets and facts when it is not the method's name (cmab-scores: "cmab").
  std::string group;
  std::string version;
  std::string task = "regression";
  std::string data_origin;
  std::string job_text;
  std::uint64_t seed = 0;
  int ranks = 1;
  int threads = 1;
  std::int32_t iterations = 0;  ///< the method's unit of work (bandit rounds, forward steps, ...)
  /// What `iterations` counts, as inspect and the log name it (cmab-scores: "features scored"); a root attribute
  /// of result.h5 only when it is not "iterations".
  std::string iteration_unit = "iterations";
  std::string stop_reason;
  std::string importance_meaning = "importance";  ///< e.g. "posterior mean", for inspect's table heading

  // Per feature (p entries each, except selected and truth which hold feature ids, ascending).
  std::vector<std::string> feature_names;
  std::vector<double> importance;
  std::vector<FeatureId> selected;
  std::vector<std::int32_t> rank;
  /// Optional (both empty or both p entries): an interval of each importance at level `interval_level`.
  std::vector<double> importance_lo, importance_hi;
  double interval_level = 0.0;
  std::vector<float> trajectory;  ///< optional, row-major [iterations × p]
  std::vector<FeatureId> truth;
  TruthMetrics metrics;
  /// Missing cells of each feature in the data (empty = not counted: simulated data, an online HDF5 panel without
  /// categorical columns); /missing, summary.csv's column missing, run.json's "missing".
  std::vector<std::int64_t> missing;
  /// Rows the reader dropped because their target was missing (a root attribute, run.json).
  std::int64_t rows_without_target = 0;
  /// The summary of R runs this result is made of (empty for a single run).
  StabilitySummary stability;

  /// Named seconds (wall_seconds first), root attributes and run.json "timings"; never in a dataset.
  std::vector<std::pair<std::string, double>> timings;

  // The method's own (group /<method>).
  std::vector<MethodFact> facts;
  std::vector<MethodDataset> datasets;
  /// Own datasets with one value per feature that summary.csv and inspect add as columns, in this order.
  std::vector<std::string> feature_columns;
  /// A JSON object (text) the method adds to run.json under its name (e.g. the bandit's tuning table); may be empty.
  std::string manifest_json;

  std::size_t num_features() const { return feature_names.size(); }
  const std::string& own_group() const { return group.empty() ? method : group; }
  double timing(const std::string& name) const {
    for (const auto& [key, seconds] : timings)
      if (key == name) return seconds;
    return 0.0;
  }
  const MethodDataset* dataset(const std::string& name) const {
    for (const auto& d : datasets)
      if (d.name == name) return &d;
    return nullptr;
  }
};

/// Feature ids by descending importance, ties (and NaN, treated as −inf) by ascending id: order[0] has rank 1.
inline std::vector<FeatureId> importance_order(const std::vector<double>& importance) {
  std::vector<FeatureId> order(importance.size());
  std::iota(order.begin(), order.end(), FeatureId{0});
  auto key = [&](FeatureId k) {
    return importance[k] == importance[k] ? importance[k] : -std::numeric_limits<double>::infinity();
  };
  std::stable_sort(order.begin(), order.end(), [&](FeatureId a, FeatureId b) {
    const double ka = key(a), kb = key(b);
    return ka != kb ? ka > kb : a < b;
  });
  return order;
}

/// Fills result.rank from result.importance (rank 1 = most important; ties by lower feature index).
inline void rank_by_importance(MethodResult& result) {
  const auto order = importance_order(result.importance);
  result.rank.assign(order.size(), 0);
  for (std::size_t i = 0; i < order.size(); ++i)
    result.rank[static_cast<std::size_t>(order[i])] = static_cast<std::int32_t>(i + 1);
}

}  // namespace bfs

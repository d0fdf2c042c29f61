#pragma once
// The summary of R runs of one method on one data set, method-neutral and pure: per feature how often the runs
// selected it (the selection frequency π̂ of stability selection [MeinshausenBuhlmann §2], [ShahSamworth §2]), and
// the spread of its importance and rank over the runs. `banditfs aggregate` fills it from R seed runs; stability
// selection fills it from its 2B half-sample runs. Where it goes in the outputs: output/result_io.hpp (/stability)
// and docs/design.md §4.
//
// Definitions (R runs, feature k; checked against numpy in tests/unit/run and tests/e2e/aggregate_check.py):
//   selection_frequency  share of the runs whose selected set holds k
//   importance_mean/sd   mean and sample standard deviation (divisor R − 1: R's sd, numpy's ddof=1)
//   importance_qXX       quantile at XX% by linear interpolation between order statistics (Hyndman & Fan's type
//                        7, numpy.quantile's default "linear": position (R − 1)·q of the sorted values); NaN when
//                        any run's importance is NaN, as numpy gives
//   rank_mean/sd         the same of the rank (1 = most important)
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace bfs {

/// One run's per-feature outcome: importance, selected flags (0/1) and rank, p entries each.
struct RunOutcome {
  std::vector<double> importance;
  std::vector<std::uint8_t> selected;
  std::vector<std::int32_t> rank;
};

struct StabilitySummary {
  std::int64_t runs = 0;  ///< R; 0 = no summary (a single run's result)
  /// π_thr: the features with selection_frequency ≥ threshold are the result's selected set.
  double threshold = 0.0;
  std::vector<double> selection_frequency;
  std::vector<double> importance_mean, importance_sd;
  std::vector<double> importance_q05, importance_q50, importance_q95;
  std::vector<double> rank_mean, rank_sd;
  /// The runs when they are separate results (`banditfs aggregate`): each one's result file and seed, in the order
  /// summarized; empty when the runs are the method's own (stability selection's half-sample runs).
  std::vector<std::string> run_sources;
  std::vector<std::uint64_t> run_seeds;
  /// Stability selection's own facts (run/stability_selection.hpp, docs/stability.md); pairs = 0 for an aggregate of
  /// separate runs, which has none of them.
  std::int64_t pairs = 0;      ///< B: the runs are the 2B halves of B complementary pairs
  double mean_selected = 0.0;  ///< q: the mean number of features a run selected
  double max_false = 0.0;      ///< stability.max_false when the threshold was derived from it; 0 = not given
  double bound_mb = 0.0;       ///< [MeinshausenBuhlmann Thm 1]'s bound on E[V] at (q, p, threshold)
  double bound_ss = 0.0;       ///< [ShahSamworth]'s unimodal bound (stabs' "SS"/"unimodal"); NaN where undefined

  bool empty() const { return runs == 0; }
  /// The per-feature columns in output order (name, values): result.h5 /stability/<name>, summary.csv columns.
  std::vector<std::pair<std::string, const std::vector<double>*>> columns() const;
  std::vector<std::pair<std::string, std::vector<double>*>> columns();
};

/// numpy.quantile(values, q) with the default method "linear" (type 7); NaN when `values` holds a NaN. `values`
/// need not be sorted; q in [0, 1]. InternalError on no values.
double linear_quantile(std::vector<double> values, double q);

/// The summary of `runs` (R ≥ 1, every run with p entries in each vector; InternalError else) with threshold 0.
StabilitySummary summarize_runs(const std::vector<RunOutcome>& runs);

/// The features with selection_frequency ≥ threshold, ascending.
FeatureSet stable_set(const StabilitySummary& summary, double threshold);

/// The runs' equal-tailed range of each feature's importance at `level` (in (0, 1)): the linear quantiles at
/// (1 − level)/2 and (1 + level)/2 (lo, hi), p entries each; InternalError on no runs.
std::pair<std::vector<double>, std::vector<double>> importance_range(const std::vector<RunOutcome>& runs, double level);

/// The mean number of features the runs selected (q of stability selection's bounds); InternalError on no runs.
double mean_selected(const std::vector<RunOutcome>& runs);

}  // namespace bfs

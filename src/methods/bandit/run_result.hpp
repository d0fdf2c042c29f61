#pragma once
// Everything a finished (or checkpointed) bandit run reports. The round driver fills it; bandit_result.hpp turns it
// into the method-neutral result that output/ writes (docs/design.md §4). Datasets in result.h5 hold only deterministic
// quantities, so the same job and seed give byte-identical datasets; timings go to run.json and attributes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "run/truth_metrics.hpp"

namespace bfs {

/// One evaluated super-arm.
struct EvaluationRecord {
  std::int32_t iteration = 0;  ///< 1-based round
  std::int32_t slot = 0;       ///< arm slot within the round
  std::int32_t period = 0;     ///< data period (0 offline)
  std::int32_t arm_size = 0;   ///< |S_t|
  double test_score = 0.0;     ///< the fitted model's out-of-sample metric (RunResult::metric: R², AUC, ...)
  std::int32_t rewards = 0;    ///< number of played features with reward 1
  std::int32_t updated = 1;    ///< 0 when reward.min_r2 discarded the evaluation (no posterior update)
};

struct Timings {
  double wall_seconds = 0.0;
  double fit_seconds = 0.0;
  double importance_seconds = 0.0;
  double split_seconds = 0.0;  ///< splits, bootstrap, gathering the arm's columns
  double data_seconds = 0.0;   ///< waiting for rows, and each start's setup before its rounds (opening, tuning)
  /// Loading the periods the rounds used, on whichever thread (methods/bandit/period_prefetcher.hpp): a period
  /// prefetched during the previous one's rounds counts here but not in data_seconds, beyond what the rounds waited for
  /// it.
  double load_seconds = 0.0;
  double policy_seconds = 0.0;  ///< drawing super-arms (the coordinator's "choose" phase)
  double update_seconds = 0.0;  ///< applying rewards to the posterior and recording the trajectory
  double checkpoint_seconds = 0.0;
  // Distributed runs only (src/dist/), as seen by the coordinator.
  double broadcast_seconds = 0.0;  ///< broadcasting the round's super-arms
  double gather_seconds = 0.0;     ///< waiting for and receiving the rewards (includes the workers' fit/importance)
  double bytes_sent = 0.0;         ///< every message of every rank (commands, models, rewards), summed
};

/// Calls f(name, field) for every timing, in one fixed order: result.h5 attributes and run.json use these names.
template <class T, class F>
void for_each_timing(T& t, F&& f) {
  f("wall_seconds", t.wall_seconds);
  f("fit_seconds", t.fit_seconds);
  f("importance_seconds", t.importance_seconds);
  f("split_seconds", t.split_seconds);
  f("data_seconds", t.data_seconds);
  f("load_seconds", t.load_seconds);
  f("policy_seconds", t.policy_seconds);
  f("update_seconds", t.update_seconds);
  f("checkpoint_seconds", t.checkpoint_seconds);
  f("broadcast_seconds", t.broadcast_seconds);
  f("gather_seconds", t.gather_seconds);
  f("bytes_sent", t.bytes_sent);
}

/// What a checkpoint needs beyond the result so far (the posterior, trajectory and records are the result's own
/// fields; every random draw derives from (seed, round, …), so no generator state is needed).
struct ResumeState {
  bool present = false;
  std::string job_hash;          ///< hash of the job's algorithmic keys (not run.out, threads or progress)
  std::string data_fingerprint;  ///< source description, shape and feature names
  FeatureSet stop_key;           ///< the stopping rule's last key
  std::int32_t stable_count = 0;
  std::int32_t separation_round = -1;
};

/// Hyper-parameter tuning before the first round (methods/bandit/tuning.hpp; [Wu §5.1]): a grid search with k-fold
/// cross-validation on one period's rows. One row per grid point, in grid order. A checkpoint carries it too, so a
/// resumed run re-uses the chosen parameters instead of tuning again.
struct TuningReport {
  bool present = false;
  std::string estimator;                ///< the tuned estimator ("gbm")
  std::vector<std::string> parameters;  ///< the tuned [estimator] keys: the columns of `values`
  std::vector<double> values;           ///< row-major [points × parameters]: each grid point's parameter values
  std::vector<double> mean_r2;          ///< mean out-of-fold R² over the folds, per point
  std::vector<double> std_r2;           ///< standard deviation (over folds, ddof 0) of the out-of-fold R², per point
  std::vector<double> fold_r2;          ///< row-major [points × folds]: the out-of-fold R² of each fit
  std::int32_t chosen = -1;             ///< the point with the highest mean_r2 (ties: the first in grid order)
  std::int32_t folds = 0;
  std::int32_t period = 0;    ///< the period tuned on
  std::int64_t rows = 0;      ///< rows of that period (all of them are used)
  std::int64_t features = 0;  ///< columns used (all features of the period)
  std::uint64_t seed = 0;     ///< the seed the folds and fit seeds derive from
  double seconds = 0.0;       ///< wall time of the tuning (an attribute / run.json only)

  std::size_t points() const { return mean_r2.size(); }
  /// Column of parameter `name` in `values`, or -1 when it is not among `parameters`.
  std::ptrdiff_t column(const std::string& name) const {
    for (std::size_t j = 0; j < parameters.size(); ++j)
      if (parameters[j] == name) return static_cast<std::ptrdiff_t>(j);
    return -1;
  }
  /// values[point, column].
  double value(std::size_t point, std::size_t column) const { return values[point * parameters.size() + column]; }
};

struct RunResult {
  std::string version;
  std::string method = "bandit";
  std::string policy;
  std::string estimator;
  std::string task = "regression";  ///< data.task
  std::string metric = "r2";        ///< the metric of EvaluationRecord::test_score and of the importance drops
  std::string data_origin;
  std::vector<std::int64_t> missing;     ///< per feature, from the data source (empty = not counted)
  std::int64_t rows_without_target = 0;  ///< rows the reader dropped for a missing target
  std::string job_text;                  ///< the canonical job (TOML) after --set overrides
  std::uint64_t seed = 0;
  int ranks = 1;
  int threads = 1;

  std::vector<std::string> feature_names;
  std::vector<double> alpha;  ///< final posterior, p
  std::vector<double> beta;
  /// Posterior means after each iteration, row-major [iterations × p].
  std::vector<float> trajectory;
  std::vector<std::int32_t> iteration_period;  ///< period of each iteration
  std::vector<EvaluationRecord> evaluations;
  std::vector<FeatureId> selected;  ///< final selected set (SelectionRule: the median-probability model for ts/ttts,
                                    ///< TVS's C̃ rule), ascending
  std::vector<FeatureId> truth;
  TruthMetrics metrics;

  std::int32_t iterations = 0;
  std::string stop_reason;
  Timings timings;
  /// Set in checkpoints only (checkpoint.h5 is a result.h5 of the rounds so far plus this state).
  ResumeState resume;
  /// Present when [tuning] is enabled: the grid, its CV scores and the chosen point.
  TuningReport tuning;

  Index num_features() const { return static_cast<Index>(feature_names.size()); }
  double posterior_mean(FeatureId k) const { return alpha[k] / (alpha[k] + beta[k]); }
};

}  // namespace bfs

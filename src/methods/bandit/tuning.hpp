#pragma once
// Hyper-parameter tuning on one period before the first round ([Wu §5.1]): "I use the first month i.e. Jan 2010
// for hyperparameter tuning. The key parameters are learning rate, maximum number of trees, maximum number of leaf
// nodes per tree, maximum depth per tree, minimum number of samples required for split, and amount of L2
// regularization. After obtaining the optimal hyperparameters by gridsearch and k-fold cross validation, I use the
// same set of hyperparameters for all subsequent months." (The reference code: 5-fold CV of scikit-learn's
// HistGradientBoostingRegressor; chosen: learning rate 0.05, 200 trees, 50 leaves, depth 10, 20 samples per leaf,
// L2 0.01.)
//
// What is done: every point of the [tuning] grid (the Cartesian product of its lists) is scored by the mean
// out-of-fold R² of k fits on the period's rows, each fit on k−1 folds and scored on the held-out fold; the point with
// the highest mean wins (ties: the first in grid order). The fits use every column they are given: a run passes the
// tuning period's own columns without the N(0,1) columns of data.noise_features (tune_job,
// methods/bandit/round_driver.cpp; the bandit's arms are subsets, and a subset-specific choice would need a tuning per
// arm size). The gbm's own early stopping, if enabled in [estimator], runs inside each fit on its training folds.
//
// Determinism: the folds come from Rng::stream(seed, 0, 0, Purpose::Tuning, 0); fold f's fit seed from
// Rng::stream(seed, 0, f, Purpose::Tuning, 1) — the same for every grid point (common random numbers), so points
// differ only by their parameters. Up to `threads` grid points are fitted at once (each fit single-threaded, or
// with the spare threads when the grid is smaller); gbm fits are thread-count independent, so the report is
// identical for any thread count.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "config/estimator_config.hpp"
#include "config/job_config.hpp"
#include "data/dataset.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/run_result.hpp"

namespace bfs {

/// The tunable [estimator] keys of gbm and hgb, in grid order (the first varies slowest): learning_rate, n_estimators,
/// max_leaves, max_depth, min_child_weight, lambda — the paper's six.
const std::vector<std::string>& tuning_parameters();

/// The grid: one row per point, one value per tuning_parameters() entry, the Cartesian product of the [tuning] lists
/// with the last key varying fastest. An empty list contributes the single value of `base` (the [estimator] value).
/// Params: GbmParams or HgbParams (the six keys mean the same for both).
template <class Params>
std::vector<std::vector<double>> tuning_grid(const Params& base, const TuningConfig& tuning);

/// `base` with the values of one grid point (in tuning_parameters() order) applied.
template <class Params>
Params apply_grid_point(const Params& base, std::span<const double> point);

/// k-fold partition of rows 0..n−1: the held-out rows of each fold, ascending. Folds are disjoint, cover every row,
/// and their sizes differ by at most one (the first n mod k folds have one more row). shuffle = true permutes the
/// rows with Rng::stream(seed, 0, 0, Purpose::Tuning, 0) first; false gives contiguous blocks (scikit-learn's KFold).
/// InputError when n < k.
std::vector<std::vector<Index>> kfold_test_rows(Index n, int folds, bool shuffle, std::uint64_t seed);

struct TuningResult {
  EstimatorConfig best;  ///< `base` with the chosen grid point applied
  TuningReport report;   ///< the table, chosen index, folds, period and rows (RunResult::tuning)
};

/// Called after each fit with (fits done, fits in total), for progress lines; from worker threads, one call at a
/// time, `done` increasing.
using TuningProgress = std::function<void(std::size_t done, std::size_t total)>;

/// Tunes `base` on `data` = the rows of period tuning.period (DataSource::load_period), all columns. Call it before
/// the first round when tuning.enabled, use `best` for every round, and store `report` in RunResult::tuning.
/// ConfigError naming tuning.enabled when base.name is not "gbm", naming tuning.folds when folds < 2; InputError
/// naming tuning.folds and data.origin when the period has fewer rows than 2·folds.
TuningResult tune_estimator(const EstimatorConfig& base, const TuningConfig& tuning, const Dataset& data,
                            std::uint64_t seed, int threads, const TuningProgress& progress = {});

/// A resumed run: `base` with the chosen point of a stored report applied (no re-tuning). ConfigError when the
/// report's estimator differs from base.name, it names an unknown parameter, or it has no chosen point.
EstimatorConfig apply_tuning_report(const EstimatorConfig& base, const TuningReport& report);

/// ConfigError naming tuning.period when it is not a period of the data (offline runs have one period, 0).
void check_tuning_period(const TuningConfig& tuning, int num_periods);

}  // namespace bfs

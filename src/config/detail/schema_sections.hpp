#pragma once
// The job-file schema's declarations (docs/design.md §5): every key of every section once, with its bounds and
// description, as one visit() per section struct. Included only by config/schema.cpp, whose readers, writers,
// describers and bounds checker walk these visits.
#include <limits>
#include <string>
#include <vector>

#include "config/job_config.hpp"
#include "config/key_spec.hpp"

namespace bfs::schema_detail {

using Spec = KeySpec;
using namespace keyspec;

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
/// The enum a key holds, directly or as std::optional<enum>; void otherwise.
template <class T>
struct EnumOf {
  using type = std::conditional_t<std::is_enum_v<T>, T, void>;
};
template <class T>
struct EnumOf<std::optional<T>> : EnumOf<T> {};

// ---- the schema: one function per section, each key once ------------------------------------------------------

template <class V>
void visit(DataConfig& c, V& v) {
  v("source", c.source, text("where the rows come from"));
  v("path", c.path, text("HDF5 or CSV file (source = hdf5 | csv)"));
  v("target", c.target, text("CSV target column name"));
  v("features", c.features, text("CSV feature columns to use (empty = all but the target)"));
  v("exclude", c.exclude, text("CSV columns that are not features (a date, an id)"));
  v("na_values", c.na_values, text("CSV cells that are missing (default: pandas' NA tokens and the empty cell)"));
  v("missing", c.missing,
    text("native | impute | error: missing cells handled by the estimator's own rule (hgb, gbm, random_forest; "
         "the training rows' column mean for the others), imputed for every estimator, or refused"));
  v("min_level_count", c.min_level_count,
    range(1, 1e12, "categorical columns: levels in fewer rows pool into one level \"other\""));
  v("max_levels", c.max_levels, range(2, 1e6, "categorical columns: the most levels a column may have"));
  v("dgp", c.dgp, text("simulated data-generating process"));
  v("n", c.n, range(1, 1e9, "simulated rows per batch"));
  v("p", c.p, range(1, 1e8, "simulated features"));
  v("rho", c.rho,
    range(0, 1, "ishigami, heavy-tailed, friedman-mod: copula correlation rho^|j-k|, below 1 (0 = independent)"));
  v("seed", c.seed, range(0, kInf, "data seed (0 = run.seed)"));
  v("periods", c.periods, range(1, 1e7, "simulated batches (online: one per period)"));
  v("noise_features", c.noise_features, range(0, 1e8, "N(0,1) noise columns appended on the fly"));
  v("batch_size", c.batch_size,
    range(0, 1e12, "online: cut data without periods into batches of this many rows (0 = off)"));
  v("knockoffs", c.knockoffs,
    text("none | gaussian | gaussian-sdp: second-order Gaussian model-X knockoffs ko_<name> of every data column "
         "(equicorrelated, or SDP: larger s where columns are not collinear), fitted on each "
         "loaded period's rows and appended before the noise columns (paper 003 section 7.2)"));
  v("task", c.task, text("regression | binary (binary: y has two values; {0,1} kept, {-1,1} mapped)"));
  v("positive_label", c.positive_label,
    text("binary: the value of y that is class 1, a number or a text label (needed unless y is {0,1} or {-1,1})"));
  v("arm", c.arm, text("bandit logs, CSV: the column of the arm served (method cmab-scores)"));
  v("reward", c.reward, text("bandit logs, CSV: the column of the 0/1 reward (method cmab-scores)"));
  v("categorical", c.categorical,
    text("CSV: numeric columns to treat as categorical (a text column always is); one feature each"));
  v("arms", c.arms, text("bandit logs: the allowed arm labels (empty = those seen, sorted)"));
}

template <class V>
void visit(RunConfig& c, V& v) {
  v("seed", c.seed, range(0, kInf, "run seed"));
  v("out", c.out, text("output directory").result_neutral());
  v("threads", c.threads, range(0, 4096, "threads (0 = all)").result_neutral());
  v("checkpoint_every", c.checkpoint_every, range(0, 1e9, "checkpoint every N rounds (0 = never)").result_neutral());
  v("progress_seconds", c.progress_seconds, range(0, 1e6, "seconds between progress lines").result_neutral());
  v("group_size", c.group_size,
    range(0, 1e6, "MPI worker ranks per bandit group (0 = one group per arm)").result_neutral());
  v("interval", c.interval,
    between(0, 1,
            "level of importance_lo/importance_hi: the bandit's equal-tailed credible interval of each Beta "
            "posterior (0.9 = its 5% and 95% quantiles)"));
}

template <class V>
void visit(StabilityConfig& c, V& v) {
  v("enabled", c.enabled, text("stability selection with complementary pairs around the method (docs/stability.md)"));
  v("pairs", c.pairs, range(1, 100000, "B: random splits of the rows into two halves; the method runs 2B times"));
  v("threshold", c.threshold,
    above(0.5, 1, "pi_thr: a feature is selected when at least this share of the 2B runs select it (default 0.6)"));
  v("max_false", c.max_false,
    above(0, kInf,
          "instead of threshold: the expected number of false selections wanted; pi_thr = (1 + q^2/(p max_false))/2 "
          "for the measured q (Meinshausen-Buehlmann), at most 1"));
}

/// Visits the parameter struct of the estimator named in c.name (only its keys are valid).
template <class V>
void visit_estimator_params(EstimatorConfig& c, V& v) {
  switch (c.name) {
#define BFS_ESTIMATOR_VISIT(value, name, member, params, tasks) \
  case EstimatorName::value:                                    \
    return c.member.visit(v);
    BFS_ESTIMATORS(BFS_ESTIMATOR_VISIT)
#undef BFS_ESTIMATOR_VISIT
  }
}

}  // namespace bfs::schema_detail

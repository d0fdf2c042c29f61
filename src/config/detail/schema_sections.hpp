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
    text("binary: the value of y that is class 1 (needed unless y is {0,1} or {-1,1})"));
  v("arm", c.arm, text("bandit logs, CSV: the column of the arm served (method cmab-scores)"));
  v("reward", c.reward, text("bandit logs, CSV: the column of the 0/1 reward (method cmab-scores)"));
  v("categorical", c.categorical, text("bandit logs, CSV: numeric feature columns to treat as categorical"));
  v("arms", c.arms, text("bandit logs: the allowed arm labels (empty = those seen, sorted)"));
}

template <class V>
void visit(RewardConfig& c, V& v) {
  v("rule", c.rule, text("score -> 0/1 reward"));
  v("threshold", c.threshold, range(0, 1, "nu: importance threshold (absolute: R^2 drop; relative: drop/|R^2|)"));
  v("repeats", c.repeats, range(1, 10000, "B: permutation repeats (Algorithm 3)"));
  v("metric", c.metric,
    text("metric whose drop is the importance: r2 | auc | log_loss | accuracy (default: auc "
         "for binary, r2 for regression)"));
  v("min_abs_r2", c.min_abs_r2, range(0, 1, "relative rule: |R^2_test| below this gives reward 0"));
  v("min_splits", c.min_splits, range(0, 1e9, "bart-mean-splits: reward 1 when the mean split count reaches this"));
  v("min_r2", c.min_r2, range(-kInf, 1, "evaluations with test R^2 below this update no posterior (-inf = never)"));
  v("groups", c.groups, text("bundles of feature names permuted together"));
  v("null", c.null,
    text("none (paper 000) | shadow (also beat row-permuted shadow columns) | paired (also pass a one-sided t-test "
         "over the B drops); docs/null.md"));
  v("shadows", c.shadows, range(1, 100000, "shadow: shadow columns per evaluation (19: noise beats all with p = 5%)"));
  v("shadow_quantile", c.shadow_quantile, range(0, 1, "shadow: quantile of the shadow drops to beat (1 = max)"));
  v("alpha", c.alpha, above(0, 0.5, "paired: level of the one-sided t-test over the B permutation drops"));
}

template <class V>
void visit(BanditConfig& c, V& v) {
  v("policy", c.policy, text("super-arm policy"));
  v("iterations", c.iterations,
    range(1, 1e9, "iterations (offline); online: must equal passes × periods × iterations_per_period if given"));
  v("mode", c.mode, text("offline bootstrap or online periods"));
  v("iterations_per_period", c.iterations_per_period, range(1, 1e6, "online: iterations on each period"));
  v("passes", c.passes, range(1, 1e6, "online: passes over the periods"));
  v("rebatch", c.rebatch,
    text("online: none (passes replay the batches) | bootstrap (resample all rows and re-cut the batches before "
         "each further pass, paper 003 section 5.2)"));
  v("time_series", c.time_series, text("online: keep row order, test = last rows of the period"));
  v("arms_per_round", c.arms_per_round, range(1, 1e6, "G: super-arms per round"));
  v("max_features", c.max_features, above(0, 1, "cap on |S| as a fraction of p"));
  v("prior_alpha", c.prior_alpha, above(0, 1e9, "Beta prior alpha"));
  v("prior_beta", c.prior_beta, above(0, 1e9, "Beta prior beta"));
  v("unplayed_as_failures", c.unplayed_as_failures, text("count unplayed arms as failures"));
  v("test_fraction", c.test_fraction, above(0, 0.9, "share of rows held out for importance"));
  v("bootstrap", c.bootstrap, text("offline: bootstrap the training rows"));
  v("max_redraws", c.max_redraws, range(1, 1e6, "TTTS: bound on redraws of S'"));
  v("tvs_c", c.tvs_c, Spec{0, 1, {}, "TVS C in (0,1): threshold log(1/C)/log((1+C)/C)", true, true});
  v("tvs_q", c.tvs_q, range(0, 1e8, "TVS known model size q (0 = unknown)"));
  v("stop", c.stop, text("stopping rule"));
  v("stop_window", c.stop_window, range(0, 1e9, "K for the stability rules (0 = 50 / 100)"));
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
}

template <class V>
void visit(TuningConfig& c, V& v) {
  v("enabled", c.enabled, text("tune the estimator by grid search + k-fold CV before the first round (gbm only)"));
  v("folds", c.folds, range(2, 100, "k of the k-fold cross-validation"));
  v("period", c.period, range(0, 1e7, "period whose rows are tuned on (0 = the first)"));
  v("shuffle", c.shuffle, text("shuffle rows before cutting folds (false = contiguous folds)"));
  // Each value is checked against the bounds of the [estimator] gbm key of the same name; [] keeps that key's value.
  v("learning_rate", c.learning_rate, above(0, 1, "grid of estimator.learning_rate ([] = keep)"));
  v("n_estimators", c.n_estimators, range(1, 1e6, "grid of estimator.n_estimators ([] = keep)"));
  v("max_leaves", c.max_leaves, range(0, 1e6, "grid of estimator.max_leaves ([] = keep)"));
  v("max_depth", c.max_depth, range(0, 100, "grid of estimator.max_depth ([] = keep)"));
  v("min_child_weight", c.min_child_weight, range(0, kInf, "grid of estimator.min_child_weight ([] = keep)"));
  v("lambda", c.lambda, range(0, kInf, "grid of estimator.lambda ([] = keep)"));
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

#pragma once
// The [estimator] section: the estimator's name plus one parameter struct per estimator, each declaring its keys in
// its own visit(). Only the keys of the chosen estimator are accepted in a job file (docs/design.md §5). Defaults
// follow the paper's heuristics ([Wu §4]). An estimator is added here (its parameter struct and a line of
// BFS_ESTIMATORS) and in its own source file under src/estimators/ (its make_<member> factory and the model).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/key_spec.hpp"
#include "core/enum_names.hpp"
#include "core/task.hpp"

namespace bfs {

/// LASSO by coordinate descent on standardised columns ([Wu §4.2], [TVS §3.3]).
struct LassoParams {
  /// Penalty λ of J(β) = 1/(2n)·||y − Xβ||² + λ||β||₁ on standardised X. Ignored when cv_folds > 0.
  double lambda = 0.1;
  /// k-fold CV over a log-spaced path of n_lambdas values from λ_max down to λ_max·lambda_min_ratio; 0 = fixed λ.
  int cv_folds = 0;
  int n_lambdas = 50;
  double lambda_min_ratio = 1e-3;
  /// Pick the largest λ within one standard error of the CV minimum instead of the minimum.
  bool one_se_rule = false;
  int max_iter = 1000;
  double tol = 1e-7;

  /// Each key once: name, field, bounds, description (the schema's readers, writer and describer walk it).
  template <class V>
  void visit(V& v) {
    using namespace keyspec;
    v("lambda", lambda, range(0, kInf, "L1 penalty on standardised columns"));
    v("cv_folds", cv_folds, range(0, 100, "k-fold CV over a lambda path (0 = fixed lambda)"));
    v("n_lambdas", n_lambdas, range(2, 10000, "CV path length"));
    v("lambda_min_ratio", lambda_min_ratio, above(0, 1, "smallest lambda / lambda_max on the path"));
    v("one_se_rule", one_se_rule, text("CV: largest lambda within one SE of the minimum"));
    v("max_iter", max_iter, range(1, 1e7, "coordinate-descent sweeps"));
    v("tol", tol, above(0, 1, "convergence tolerance"));
  }
};

/// Regression random forest (Breiman 2001), scikit-learn's RandomForestRegressor knobs and semantics.
struct RandomForestParams {
  int n_estimators = 100;
  /// 0 = grow until leaves are pure or min_samples_* stop the split.
  int max_depth = 10;
  /// Fraction of the columns tried at each split (1.0 = all, scikit-learn's regressor default).
  double max_features = 1.0;
  int min_samples_split = 2;
  int min_samples_leaf = 1;
  bool bootstrap = true;

  /// Each key once: name, field, bounds, description (the schema's readers, writer and describer walk it).
  template <class V>
  void visit(V& v) {
    using namespace keyspec;
    v("n_estimators", n_estimators, range(1, 1e6, "trees"));
    v("max_depth", max_depth, range(0, 1000, "maximum depth (0 = unlimited)"));
    v("max_features", max_features, above(0, 1, "fraction of columns tried per split"));
    v("min_samples_split", min_samples_split, range(2, 1e9, "rows needed to split a node"));
    v("min_samples_leaf", min_samples_leaf, range(1, 1e9, "rows needed in each leaf"));
    v("bootstrap", bootstrap, text("bootstrap rows for each tree"));
  }
};

/// Gradient-boosted trees through XGBoost's C API, `hist` method.
struct GbmParams {
  double learning_rate = 0.1;
  int n_estimators = 100;
  /// 0 = no limit on leaves (depthwise growth); > 0 grows lossguide with this many leaves at most.
  int max_leaves = 0;
  int max_depth = 3;
  double min_child_weight = 1.0;
  double lambda = 1.0;     ///< L2 penalty on leaf weights
  double colsample = 1.0;  ///< colsample_bytree
  double subsample = 1.0;
  int max_bin = 256;
  /// Early stopping: hold out this fraction of the training rows and stop after `early_stopping_rounds` rounds
  /// without improvement; 0 disables it.
  double validation_fraction = 0.1;
  int early_stopping_rounds = 10;

  /// Each key once: name, field, bounds, description (the schema's readers, writer and describer walk it).
  template <class V>
  void visit(V& v) {
    using namespace keyspec;
    v("learning_rate", learning_rate, above(0, 1, "shrinkage eta"));
    v("n_estimators", n_estimators, range(1, 1e6, "boosting rounds"));
    v("max_leaves", max_leaves, range(0, 1e6, "leaves per tree (0 = unlimited, depthwise)"));
    v("max_depth", max_depth, range(0, 100, "maximum depth (0 = unlimited)"));
    v("min_child_weight", min_child_weight, range(0, kInf, "minimum hessian per leaf"));
    v("lambda", lambda, range(0, kInf, "L2 penalty on leaf weights"));
    v("colsample", colsample, above(0, 1, "column subsample per tree"));
    v("subsample", subsample, above(0, 1, "row subsample per tree"));
    v("max_bin", max_bin, range(2, 65536, "histogram bins"));
    v("validation_fraction", validation_fraction, range(0, 0.9, "early stopping hold-out (0 = off)"));
    v("early_stopping_rounds", early_stopping_rounds, range(1, 1e6, "rounds without improvement"));
  }
};

/// hgb's group_split: how the members of a fit group (run.group_size) share one fit. The model is the
/// same either way. Columns: each member builds and scans the histograms of its share of the columns over all rows,
/// and the members exchange their best splits (≈ 20 bytes per column per node; LightGBM's feature-parallel). Rows:
/// each member builds every column's histogram over its row blocks and an allreduce sums them (LightGBM's
/// data-parallel: every histogram's bytes at every node, which pays only with many rows per arm; docs/scaling.md).
enum class HgbGroupSplit { Columns, Rows };
constexpr std::array<std::pair<HgbGroupSplit, std::string_view>, 2> enum_table(HgbGroupSplit) {
  return {{{HgbGroupSplit::Columns, "columns"}, {HgbGroupSplit::Rows, "rows"}}};
}

/// hgb's most value bins per column: a row's bin code is one byte, and missing has a code of its own.
inline constexpr int kHgbMaxBin = 255;

/// Histogram gradient boosting, our own (the algorithm of LightGBM and scikit-learn's
/// HistGradientBoosting*): leaf-wise growth on binned columns. The keys shared with `gbm` mean the same.

struct HgbParams {
  double learning_rate = 0.1;
  int n_estimators = 100;
  int max_leaves = 31;             ///< leaves per tree (scikit-learn's max_leaf_nodes)
  int max_depth = 0;               ///< 0 = no depth limit
  double min_child_weight = 1e-3;  ///< minimum hessian sum per leaf (scikit-learn's min_hessian_to_split)
  int min_samples_leaf = 20;       ///< minimum rows per leaf
  double lambda = 0.0;             ///< L2 penalty on leaf weights (scikit-learn's l2_regularization)
  double colsample = 1.0;          ///< fraction of the columns each tree may split on
  int max_bin = 255;               ///< bins per column for values; NaN has a bin of its own
  /// Early stopping as for gbm: hold out this fraction of the training rows and stop after `early_stopping_rounds`
  /// rounds without improvement; 0 disables it.
  double validation_fraction = 0.1;
  int early_stopping_rounds = 10;
  HgbGroupSplit group_split = HgbGroupSplit::Columns;  ///< how a fit group shares the fit (no effect on the model)

  /// Each key once: name, field, bounds, description (the schema's readers, writer and describer walk it).
  template <class V>
  void visit(V& v) {
    using namespace keyspec;
    v("learning_rate", learning_rate, above(0, 1, "shrinkage"));
    v("n_estimators", n_estimators, range(1, 1e6, "boosting rounds"));
    v("max_leaves", max_leaves, range(2, 1e6, "leaves per tree"));
    v("max_depth", max_depth, range(0, 100, "maximum depth (0 = unlimited)"));
    v("min_child_weight", min_child_weight, range(0, kInf, "minimum hessian per leaf"));
    v("min_samples_leaf", min_samples_leaf, range(1, 1e9, "rows needed in each leaf"));
    v("lambda", lambda, range(0, kInf, "L2 penalty on leaf weights"));
    v("colsample", colsample, above(0, 1, "column subsample per tree"));
    v("max_bin", max_bin, range(2, kHgbMaxBin, "bins per column (NaN has its own)"));
    v("validation_fraction", validation_fraction, range(0, 0.9, "early stopping hold-out (0 = off)"));
    v("early_stopping_rounds", early_stopping_rounds, range(1, 1e6, "rounds without improvement"));
    v("group_split", group_split, text("how a fit group shares a fit: columns or rows (same model)").result_neutral());
  }
};

/// Feed-forward regression network ([Wu §4.3]: two hidden layers 64, 32, ReLU, adaptive LR, early stopping).
struct MlpParams {
  std::vector<int> hidden = {64, 32};
  double learning_rate = 1e-3;  ///< Adam's initial step size
  double l2 = 1e-4;             ///< weight decay (scikit-learn's alpha)
  int batch_size = 200;
  int max_epochs = 200;
  /// Adaptive learning rate: divide by 5 after `patience` epochs without validation improvement.
  bool adaptive = true;
  double validation_fraction = 0.1;
  int patience = 10;
  double tol = 1e-4;

  /// Each key once: name, field, bounds, description (the schema's readers, writer and describer walk it).
  template <class V>
  void visit(V& v) {
    using namespace keyspec;
    v("hidden", hidden, range(1, 1e6, "hidden layer sizes"));
    v("learning_rate", learning_rate, above(0, 10, "Adam step size"));
    v("l2", l2, range(0, kInf, "weight decay"));
    v("batch_size", batch_size, range(1, 1e9, "minibatch rows"));
    v("max_epochs", max_epochs, range(1, 1e7, "epochs"));
    v("adaptive", adaptive, text("divide the step by 5 when validation stalls"));
    v("validation_fraction", validation_fraction, range(0, 0.9, "early stopping hold-out (0 = off)"));
    v("patience", patience, range(1, 1e6, "epochs without improvement before stopping"));
    v("tol", tol, range(0, kInf, "minimum validation improvement"));
  }
};

/// Gaussian-kernel SVM classifier (libsvm's C-SVC; [FUSE §7.1]'s learner), binary targets only. C and γ are
/// chosen by k-fold CV on the training rows from C ∈ 2^{−1,1,3,5,7} and γ ∈ 2^{−2,0,2}/d unless set (0 = CV).
struct SvmParams {
  double c = 0.0;      ///< C; 0 = CV over the grid
  double gamma = 0.0;  ///< γ of K(x, x') = exp(−γ‖x − x'‖²) on standardised columns; 0 = CV over the grid
  int folds = 5;       ///< CV folds

  /// Each key once: name, field, bounds, description (the schema's readers, writer and describer walk it).
  template <class V>
  void visit(V& v) {
    using namespace keyspec;
    v("c", c, range(0, 1e12, "svm: C (0 = 5-fold CV over 2^-1, 2^1, ..., 2^7)"));
    v("gamma", gamma, range(0, 1e12, "svm: RBF gamma on standardised columns (0 = CV over 2^-2, 1, 2^2, over d)"));
    v("folds", folds, range(2, 100, "svm: CV folds for C and gamma"));
  }
};

/// BART with the DART prior (estimators/bart.hpp; [TVS §3.2, §5]: the R package BART's wbart defaults with
/// sparse = TRUE). Regression only.
struct BartParams {
  int n_estimators = 10;  ///< m trees ([TVS §5.1–5.2])
  int sweeps = 1000;      ///< M MCMC sweeps (§6.1: 500 and 1 000)
  int burn = 0;           ///< sweeps 1..burn are left out of predict() and the mean split counts
  double k = 2.0;         ///< τ = (max y − min y) / (2k√m)
  double alpha = 0.95;    ///< a depth-d node splits with probability alpha·(1 + d)^−beta
  double beta = 2.0;
  double nu = 3.0;        ///< σ² ~ νλ/χ²_ν
  double q = 0.90;        ///< λ puts σ̂ at the q quantile of the prior of σ
  int numcut = 100;       ///< cuts per column
  bool sparse = true;     ///< DART's Dirichlet prior on the split columns (Linero 2018)
  double sparse_a = 0.5;  ///< θ/(θ + ρ) ~ Beta(sparse_a, sparse_b)
  double sparse_b = 1.0;
  double change_prob = 0.0;  ///< probability of a CGM change step instead of birth/death (the package has none)

  /// Each key once: name, field, bounds, description (the schema's readers, writer and describer walk it).
  template <class V>
  void visit(V& v) {
    using namespace keyspec;
    v("n_estimators", n_estimators, range(1, 1e5, "bart: trees m"));
    v("sweeps", sweeps, range(1, 1e7, "bart: MCMC sweeps M"));
    v("burn", burn, range(0, 1e7, "bart: sweeps left out of predict() and the mean split counts"));
    v("k", k, above(0, 1e6, "bart: tau = (max y - min y) / (2 k sqrt(m))"));
    v("alpha", alpha, above(0, 1, "bart: split probability alpha (1 + depth)^-beta"));
    v("beta", beta, range(0, 1e3, "bart: depth exponent of the split probability"));
    v("nu", nu, above(0, 1e6, "bart: degrees of freedom of the sigma^2 prior"));
    v("q", q, above(0, 1, "bart: quantile of the sigma prior placed at the OLS estimate"));
    v("numcut", numcut, range(1, 65535, "bart: cut points per column"));
    v("sparse", sparse, text("bart: DART's Dirichlet prior on the split columns"));
    v("sparse_a", sparse_a, above(0, 1e6, "bart: theta/(theta+rho) ~ Beta(sparse_a, sparse_b)"));
    v("sparse_b", sparse_b, above(0, 1e6, "bart: see sparse_a"));
    v("change_prob", change_prob, range(0, 1, "bart: probability of a CGM change step (0 = birth/death only)"));
  }
};

/// The data.task values an estimator fits (a column of BFS_ESTIMATORS) and, for one that fits only one, why.
struct EstimatorTasks {
  bool regression = true;
  bool binary = true;
  const char* why = "";
};
constexpr EstimatorTasks any_task() {
  return {};
}
constexpr EstimatorTasks regression_only(const char* why) {
  return {true, false, why};
}
constexpr EstimatorTasks binary_only(const char* why) {
  return {false, true, why};
}

/// The estimators, declared once: X(enum value, estimator.name, EstimatorConfig member and factory suffix, parameter
/// struct, the tasks it fits). The enum, its names, the config members, the schema's key visitor, the task check,
/// the factories' declarations and the registry are all generated from this list.
#define BFS_ESTIMATORS(X)                                                                     \
  X(Lasso, "lasso", lasso, LassoParams, any_task())                                           \
  X(RandomForest, "random_forest", random_forest, RandomForestParams, any_task())             \
  X(Gbm, "gbm", gbm, GbmParams, any_task())                                                   \
  X(Hgb, "hgb", hgb, HgbParams, any_task())                                                   \
  X(Mlp, "mlp", mlp, MlpParams, any_task())                                                   \
  X(Svm, "svm", svm, SvmParams, binary_only("it is a classifier"))                            \
  X(Bart, "bart", bart, BartParams, regression_only("the sampler is for continuous targets")) \
  /* a new estimator: a line above this one */

/// estimator.name: the estimators the registry (estimators/registry.cpp) builds.
#define BFS_ESTIMATOR_ENUM(value, name, member, params, tasks) value,
enum class EstimatorName { BFS_ESTIMATORS(BFS_ESTIMATOR_ENUM) };
#undef BFS_ESTIMATOR_ENUM

#define BFS_ESTIMATOR_ENTRY(value, name, member, params, tasks) std::pair{EstimatorName::value, std::string_view(name)},
inline constexpr std::array kEstimatorTable{BFS_ESTIMATORS(BFS_ESTIMATOR_ENTRY)};
#undef BFS_ESTIMATOR_ENTRY
constexpr auto enum_table(EstimatorName) {
  return kEstimatorTable;
}

struct EstimatorConfig {
  EstimatorName name = EstimatorName::RandomForest;
#define BFS_ESTIMATOR_MEMBER(value, name, member, params, tasks) params member;
  BFS_ESTIMATORS(BFS_ESTIMATOR_MEMBER)
#undef BFS_ESTIMATOR_MEMBER
};

/// The tasks `name` fits (its BFS_ESTIMATORS column).
constexpr EstimatorTasks estimator_tasks(EstimatorName name) {
  // Indexed by the enum, which the same list numbers in its order.
#define BFS_ESTIMATOR_TASKS(value, name, member, params, tasks) tasks,
  constexpr std::array kTasks{BFS_ESTIMATORS(BFS_ESTIMATOR_TASKS)};
#undef BFS_ESTIMATOR_TASKS
  return kTasks[static_cast<std::size_t>(name)];
}
/// ConfigError `estimator.name = "x" needs data.task = "t" (why; got "u")` unless the estimator fits `task`: the
/// check of the schema (a job) and of make_estimator (estimators built in code), from the list's column.
void check_estimator_task(EstimatorName name, Task task);

}  // namespace bfs

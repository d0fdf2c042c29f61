#pragma once
// The [estimator] section: the estimator's name plus one parameter struct per estimator. Only the keys of the
// chosen estimator are accepted in a job file (DESIGN §6). Defaults follow the paper's heuristics (paper 000 §4).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/enum_names.hpp"

namespace bfs {

/// LASSO by coordinate descent on standardised columns (paper 000 §4.2, paper 003 §3.3).
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
};

/// hgb's group_split: how the members of a fit group (run.group_size, issue 17 §2) share one fit. The model is the
/// same either way. Columns: each member builds and scans the histograms of its share of the columns over all rows,
/// and the members exchange their best splits (≈ 20 bytes per column per node; LightGBM's feature-parallel). Rows:
/// each member builds every column's histogram over its row blocks and an allreduce sums them (LightGBM's
/// data-parallel: every histogram's bytes at every node, which pays only with many rows per arm; docs/scaling.md).
enum class HgbGroupSplit { Columns, Rows };
constexpr std::array<std::pair<HgbGroupSplit, std::string_view>, 2> enum_table(HgbGroupSplit) {
  return {{{HgbGroupSplit::Columns, "columns"}, {HgbGroupSplit::Rows, "rows"}}};
}

/// Histogram gradient boosting, our own (issue 17; the algorithm of LightGBM and scikit-learn's
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
};

/// Feed-forward regression network (paper 000 §4.3: two hidden layers 64, 32, ReLU, adaptive LR, early stopping).
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
};

/// Gaussian-kernel SVM classifier (libsvm's C-SVC; paper 001 §7.1's learner), binary targets only. C and γ are
/// chosen by k-fold CV on the training rows from C ∈ 2^{−1,1,3,5,7} and γ ∈ 2^{−2,0,2}/d unless set (0 = CV).
struct SvmParams {
  double c = 0.0;      ///< C; 0 = CV over the grid
  double gamma = 0.0;  ///< γ of K(x, x') = exp(−γ‖x − x'‖²) on standardised columns; 0 = CV over the grid
  int folds = 5;       ///< CV folds
};

/// BART with the DART prior (estimators/bart.hpp; paper 003 §3.2, §5: the R package BART's wbart defaults with
/// sparse = TRUE). Regression only.
struct BartParams {
  int n_estimators = 10;  ///< m trees (paper 003 §5.1–5.2)
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
};

/// The estimators, declared once: X(enum value, estimator.name, EstimatorConfig member and factory suffix, parameter
/// struct). The enum, its names, the config members, the schema's key visitor and the registry are all generated
/// from this list, so an estimator is added here and in its own source files only.
#define BFS_ESTIMATORS(X)                                             \
  X(Lasso, "lasso", lasso, LassoParams)                               \
  X(RandomForest, "random_forest", random_forest, RandomForestParams) \
  X(Gbm, "gbm", gbm, GbmParams)                                       \
  X(Hgb, "hgb", hgb, HgbParams)                                       \
  X(Mlp, "mlp", mlp, MlpParams)                                       \
  X(Svm, "svm", svm, SvmParams)                                       \
  X(Bart, "bart", bart, BartParams)

/// estimator.name: the estimators the registry (estimators/registry.cpp) builds.
#define BFS_ESTIMATOR_ENUM(value, name, member, params) value,
enum class EstimatorName { BFS_ESTIMATORS(BFS_ESTIMATOR_ENUM) };
#undef BFS_ESTIMATOR_ENUM

#define BFS_ESTIMATOR_ENTRY(value, name, member, params) std::pair{EstimatorName::value, std::string_view(name)},
inline constexpr std::array kEstimatorTable{BFS_ESTIMATORS(BFS_ESTIMATOR_ENTRY)};
#undef BFS_ESTIMATOR_ENTRY
constexpr auto enum_table(EstimatorName) {
  return kEstimatorTable;
}

struct EstimatorConfig {
  EstimatorName name = EstimatorName::RandomForest;
#define BFS_ESTIMATOR_MEMBER(value, name, member, params) params member;
  BFS_ESTIMATORS(BFS_ESTIMATOR_MEMBER)
#undef BFS_ESTIMATOR_MEMBER
};

}  // namespace bfs

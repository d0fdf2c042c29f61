#pragma once
// The base-estimator interface (docs/design.md §3): fit on the train rows × super-arm columns, predict, serialize.
// Optional structure hooks expose what the exact importance fast paths and the lasso-nonzero reward need.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "config/estimator_config.hpp"
#include "config/job_config.hpp"
#include "core/task.hpp"
#include "core/types.hpp"

namespace bfs {

class Rng;

/// What an estimator computes once for a whole data batch (a period) and reuses in every fit on its rows and columns
/// (hgb: each column's bins, so an arm's fit only selects them; random_forest: each column's sorted order). Opaque to
/// the caller.
class PreparedData {
 public:
  virtual ~PreparedData() = default;
};

/// Where a fit's X comes from, when the caller knows: X = M(rows, columns) for the matrix M that `prepared` was made
/// from (Estimator::prepare). rows may repeat (a bootstrap resample).
struct FitOrigin {
  const PreparedData* prepared = nullptr;
  std::span<const Index> rows;
  std::span<const FeatureId> columns;
};

/// The processes that fit one model together: each member calls
/// fit() with the same data and options, does its share of the work, and these collectives combine the shares, so
/// every member returns the same model — bit-identical to a fit by one process. Implemented above this layer on the
/// methods' communicator (methods/fit_group.hpp); estimators never see MPI.
class FitGroup {
 public:
  virtual ~FitGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// values ← the element-wise sum of every member's values (integers: the same whatever the order).
  virtual void allreduce_sum(std::span<std::int64_t> values) const = 0;
  /// Every member's bytes on every member, in member order.
  virtual std::vector<std::string> allgather(const std::string& bytes) const = 0;
};

struct FitOptions {
  std::uint64_t seed = 0;           ///< the estimator's own randomness (bootstrap of trees, minibatches, ...)
  int threads = 1;                  ///< results must not depend on it
  FitOrigin origin;                 ///< optional: lets an estimator reuse its prepare() of the whole batch
  const FitGroup* group = nullptr;  ///< optional: fit together with these members (Estimator::fits_in_group())
  /// The table (or period) the training rows come from has missing cells, maybe none of them in X: trees then route
  /// a missing cell at prediction by scikit-learn's rule even on complete training rows (random_forest.cpp, hgb.cpp).
  /// Unset with complete training rows: the trees (and model bytes) complete data always gave.
  bool data_has_missing = false;
};

/// The group a fit shares its work with: nullptr alone or in a group of one (no collectives then).
inline const FitGroup* sharing_group(const FitOptions& options) {
  return options.group != nullptr && options.group->size() > 1 ? options.group : nullptr;
}

/// The inverse link a model applies to its margin: identity (regression) or the logistic σ(m) = 1/(1+e^−m)
/// (binary models predict P(y = 1)).
enum class Link { Identity, Logistic };

/// ŷ = link(intercept + Σ_j coef[j]·x_j) on the model's input columns (original scale).
struct LinearStructure {
  Vector coef;
  double intercept = 0.0;
  Link link = Link::Identity;
};

/// Flat-array regression tree. Node 0 is the root; a leaf has feature == -1 and its prediction in value.
/// Internal node: go left when x[feature] < threshold (strict_less) or x <= threshold (!strict_less);
/// a NaN goes to left when default_left.
struct FlatTree {
  std::vector<std::int32_t> feature;
  std::vector<float> threshold;
  std::vector<std::int32_t> left;
  std::vector<std::int32_t> right;
  std::vector<std::uint8_t> default_left;
  std::vector<double> value;

  /// Room for `nodes` nodes in every array: one allocation each while a builder appends.
  void reserve(std::size_t nodes) {
    feature.reserve(nodes);
    threshold.reserve(nodes);
    left.reserve(nodes);
    right.reserve(nodes);
    default_left.reserve(nodes);
    value.reserve(nodes);
  }
};

/// A sum of trees: prediction = link(base_score + scale · Σ_t tree_t(x)). A random-forest classifier keeps the
/// identity link (its leaves hold class-1 probabilities, averaged); XGBoost's binary:logistic applies σ to the margin.
struct TreeEnsemble {
  std::vector<FlatTree> trees;
  double base_score = 0.0;
  double scale = 1.0;
  bool strict_less = false;
  Link link = Link::Identity;
};

/// Walks one tree for one row (row = pointer to the model's input columns).
double predict_tree(const FlatTree& tree, const float* row, bool strict_less);

/// First layer of an MLP: pre-activation z = W x + b with W [hidden × inputs].
struct FirstLayer {
  Eigen::MatrixXd weights;
  Eigen::VectorXd bias;
};

/// Splits per input column of a sampled tree ensemble: in the last sweep's forest, and the mean over the kept sweeps
/// ([TVS eqs. 9 and 10] read these).
struct SplitCounts {
  std::vector<double> last;
  std::vector<double> mean;
};

class Model;

/// A fitted mean imputation in front of a model (estimators/missing.hpp): the value a missing cell of each input
/// column takes, and the model that predicts from the filled rows.
struct Imputation {
  std::vector<float> fill;
  const Model* model = nullptr;
};

class Model {
 public:
  virtual ~Model() = default;
  /// Predictions for every row of X (X has num_features() columns).
  virtual Vector predict(const Matrix& X) const = 0;
  virtual std::string serialize() const = 0;
  virtual Index num_features() const = 0;

  /// True when predict() may be called from several threads at once on this model (importance then runs
  /// features in parallel); false keeps the calls serial (e.g. XGBoost boosters).
  virtual bool supports_concurrent_predict() const { return false; }

  virtual const LinearStructure* linear() const { return nullptr; }
  virtual const TreeEnsemble* trees() const { return nullptr; }
  virtual const FirstLayer* first_layer() const { return nullptr; }
  /// Mean decrease in impurity per input column, summing to 1 (random forests, after fit; nullptr otherwise).
  virtual const std::vector<double>* impurity_importance() const { return nullptr; }
  /// The model's predictions for its own training rows, when the fit computed them anyway (BART: the mean over the
  /// kept sweeps of the sampler's running fit, equal to predict(X_train) up to rounding); nullptr otherwise.
  virtual const Vector* fitted_values() const { return nullptr; }
  /// Per input column, how often a Bayesian tree ensemble splits on it (BART; nullptr otherwise).
  virtual const SplitCounts* split_counts() const { return nullptr; }
  /// The fitted imputation this model fills missing cells with before its inner model predicts (nullptr: none;
  /// the model then sees NaN itself).
  virtual const Imputation* imputation() const { return nullptr; }
};

class Estimator {
 public:
  virtual ~Estimator() = default;
  virtual std::string_view name() const = 0;
  /// Fits on X (rows × super-arm columns) and y. Throws InputError on data it cannot fit (e.g. zero rows).
  virtual std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const = 0;
  /// Restores a model from serialize()'s bytes; the restored model predicts bit-identically.
  virtual std::unique_ptr<Model> deserialize(std::string_view bytes) const = 0;
  /// Work done once for a whole batch X (e.g. a period) that fits on its rows and columns reuse through
  /// FitOptions::origin; nullptr when the estimator has none. A fit given it returns the same model whichever
  /// thread or rank prepared it; it may differ from a fit without it (hgb: bins from the batch's rows).
  virtual std::shared_ptr<const PreparedData> prepare(const Matrix& /*X*/, int /*threads*/) const { return nullptr; }
  /// True when fit() splits its work over FitOptions::group (random_forest: trees; hgb: columns, or rows, of its
  /// histograms and split scans). Others ignore the group: the caller then lets one member fit and sends the model.
  virtual bool fits_in_group() const { return false; }
};

/// The checks every fit starts with: at least one row and one column, X.rows() == y.size(), y finite, X without
/// infinities and (unless allow_nan_x, for estimators with missing-value branches) without NaN. Throws InputError
/// naming `what` (the estimator) and the offending row and column.
void validate_fit_input(const Matrix& X, const Vector& y, std::string_view what, bool allow_nan_x);

/// The rows boosting holds out for early stopping (gbm, hgb): is_valid[i] = 1 for the first ⌈fraction·n⌉ rows of
/// rng.permutation(n); none (and no draw) when fraction is 0, and none when that would leave no row to train on.
std::vector<std::uint8_t> early_stopping_rows(double fraction, Index n, Rng& rng);

/// The label check of every estimator in binary mode: data/labels.hpp maps the user's labels to 0/1 where the data
/// is opened, so anything else reaching fit() is a caller error. Throws InputError naming `what` (the estimator) and
/// the first row whose target is not exactly 0 or 1.
void validate_binary_target(const Vector& y, std::string_view what);

/// Factories, one per estimator of BFS_ESTIMATORS (make_<member>, implemented in the estimator's own source file),
/// for a task the list's column says it fits (the default: regression, or binary for a classifier only). With
/// Task::Binary the estimator fits a classifier of 0/1 targets and its models predict P(y = 1).
#define BFS_ESTIMATOR_DECLARE_FACTORY(value, name, member, params, tasks) \
  std::unique_ptr<Estimator> make_##member(                               \
      const params& p,                                                    \
      Task task = estimator_tasks(EstimatorName::value).regression ? Task::Regression : Task::Binary);
BFS_ESTIMATORS(BFS_ESTIMATOR_DECLARE_FACTORY)
#undef BFS_ESTIMATOR_DECLARE_FACTORY

/// The registry: builds the estimator named by config.name for `task`; ConfigError naming data.task when the
/// estimator does not fit that task (check_estimator_task, from the list's column). `missing` is data.missing: the
/// estimator is put behind a fitted mean imputation when it has no rule of its own for missing cells or when the
/// rule is Impute (estimators/missing.hpp). The rule is fixed for a run, so it is part of the estimator, not of a fit.
std::unique_ptr<Estimator> make_estimator(const EstimatorConfig& config, Task task = Task::Regression,
                                          MissingRule missing = MissingRule::Native);
/// Names the registry knows.
std::vector<std::string> estimator_names();

}  // namespace bfs

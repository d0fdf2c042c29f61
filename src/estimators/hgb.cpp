// Histogram gradient boosting, our own: the algorithm of LightGBM (Ke et al. 2017, "LightGBM: A Highly
// Efficient Gradient Boosting Decision Tree", §2: histograms, leaf-wise growth, the sibling's histogram by
// subtraction) with the conventions of scikit-learn's HistGradientBoostingRegressor / Classifier (binning, gain,
// leaf values: detail/hgb_binning.hpp, detail/hgb_tree.hpp).
//
// Boosting: Newton steps on squared error (g = F − y, h = 1) or, for binary targets, the logistic loss (g = σ(F) − y,
// h = σ(F)(1 − σ(F))), starting from F = mean(y) or its log-odds (the training rows' mean, as scikit-learn and our
// gbm do). Each tree may split only on a subset of ⌊colsample · p⌋ columns (at least one) drawn from
// Rng::stream(seed, 1 + tree, 0, Fit); colsample = 1 draws nothing.
//
// Early stopping as the gbm's (same keys, same rule): validation_fraction of the rows, drawn from
// Rng::stream(seed, 0, 0, Fit), is held out, scored after every tree by RMSE or log-loss, and boosting stops after
// early_stopping_rounds trees without a strict improvement; the model keeps the best number of trees. The bins come
// from the training rows only.
//
// The model is a TreeEnsemble (x <= threshold goes left, NaN as the tree learned), so prediction, serialization and
// the exact permutation fast paths are those of the other tree estimators. Every sum that decides a split is an
// integer (hgb_tree.hpp), so the model is bit-identical for any thread count.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/detail/hgb_binning.hpp"
#include "estimators/detail/hgb_tree.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"

namespace bfs {

namespace {

constexpr std::string_view kName = "hgb";
constexpr TreeModelMagics kMagics{"BFSHGB1", "BFSHGBC1"};

double sigmoid(double margin) {
  return 1.0 / (1.0 + std::exp(-margin));
}

/// prepare()'s result: every column of a batch binned from all its rows.
struct PreparedBins final : PreparedData {
  hgb::BinnedColumns binned;
  int max_bin = 0;
};

class HgbModel final : public Model {
 public:
  HgbModel(TreeEnsemble ensemble, Index num_features, Task task)
      : ensemble_(std::move(ensemble)), num_features_(num_features), task_(task) {}

  Vector predict(const Matrix& X) const override {
    BFS_CHECK(X.cols() == num_features_, "hgb: predict on ", X.cols(), " columns, model has ", num_features_);
    return predict_ensemble(ensemble_, X, 1);
  }

  std::string serialize() const override { return encode_tree_model(kMagics.of(task_), num_features_, ensemble_); }

  Index num_features() const override { return num_features_; }
  bool supports_concurrent_predict() const override { return true; }
  const TreeEnsemble* trees() const override { return &ensemble_; }

 private:
  TreeEnsemble ensemble_;
  Index num_features_;
  Task task_;
};

/// Training and held-out rows (ascending), the held-out ones drawn from rng as gbm draws them.
struct RowSplit {
  std::vector<Index> train, valid;
};

RowSplit split_rows(const HgbParams& params, Index n, Rng& rng) {
  const std::vector<std::uint8_t> is_valid = early_stopping_rows(params.validation_fraction, n, rng);
  RowSplit rows;
  for (Index i = 0; i < n; ++i) (is_valid[static_cast<std::size_t>(i)] ? rows.valid : rows.train).push_back(i);
  return rows;
}

/// The columns one tree may split on, ascending.
std::vector<int> tree_columns(double colsample, Index p, std::uint64_t seed, int tree) {
  std::vector<int> columns(static_cast<std::size_t>(p));
  std::iota(columns.begin(), columns.end(), 0);
  if (colsample >= 1.0) return columns;
  const auto keep = std::max<std::size_t>(1, static_cast<std::size_t>(colsample * static_cast<double>(p)));
  Rng rng = Rng::stream(seed, 1 + static_cast<std::uint64_t>(tree), 0, Purpose::Fit);
  for (std::size_t k = 0; k < keep; ++k) {  // partial Fisher–Yates
    const std::size_t j = k + rng.uniform_int(columns.size() - k);
    std::swap(columns[k], columns[j]);
  }
  columns.resize(keep);
  std::sort(columns.begin(), columns.end());
  return columns;
}

/// Early stopping's score of the held-out rows' margins: RMSE, or the log-loss with gbm's clipping.
double validation_loss(const std::vector<double>& margin, const std::vector<double>& y, Task task) {
  double sum = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (task == Task::Binary) {
      const double q = std::clamp(sigmoid(margin[i]), 1e-16, 1.0 - 1e-16);
      sum -= y[i] != 0.0 ? std::log(q) : std::log(1.0 - q);
    } else {
      const double d = margin[i] - y[i];
      sum += d * d;
    }
  }
  const double mean = sum / static_cast<double>(y.size());
  return task == Task::Binary ? mean : std::sqrt(mean);
}

class Hgb final : public Estimator {
 public:
  Hgb(const HgbParams& params, Task task) : params_(params), task_(task) {}

  std::string_view name() const override { return kName; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, kName, /*allow_nan_x=*/true);
    if (task_ == Task::Binary) validate_binary_target(y, kName);
    const int threads = std::max(1, options.threads);
    Rng rng = Rng::stream(options.seed, 0, 0, Purpose::Fit);
    const RowSplit rows = split_rows(params_, X.rows(), rng);
    const hgb::BinnedColumns binned = bin_training_rows(X, rows.train, options);

    std::vector<double> y_train, y_valid;
    for (Index r : rows.train) y_train.push_back(y[r]);
    for (Index r : rows.valid) y_valid.push_back(y[r]);
    TreeEnsemble ensemble;
    ensemble.strict_less = false;
    ensemble.link = task_ == Task::Binary ? Link::Logistic : Link::Identity;
    ensemble.base_score = starting_margin(y_train);
    std::vector<double> margin(y_train.size(), ensemble.base_score);
    std::vector<double> valid_margin(y_valid.size(), ensemble.base_score);
    std::vector<double> g(y_train.size()), h(y_train.size(), 1.0);
    Matrix x_valid(static_cast<Index>(rows.valid.size()), X.cols());
    for (std::size_t k = 0; k < rows.valid.size(); ++k) x_valid.row(static_cast<Index>(k)) = X.row(rows.valid[k]);

    const hgb::GrowLimits limits{params_.max_leaves,       params_.max_depth, params_.min_samples_leaf,
                                 params_.min_child_weight, params_.lambda,    params_.learning_rate};
    hgb::TreeBuilder builder(binned, limits, threads, sharing_group(options), params_.group_split,
                             options.data_has_missing);
    std::size_t best_trees = static_cast<std::size_t>(params_.n_estimators);
    double best_loss = std::numeric_limits<double>::infinity();
    for (int t = 0; t < params_.n_estimators; ++t) {
      gradients(margin, y_train, g, h);
      const std::vector<int> columns = tree_columns(params_.colsample, X.cols(), options.seed, t);
      ensemble.trees.push_back(builder.grow(hgb::quantize(g, h), columns, margin));
      if (rows.valid.empty()) continue;
      for (Index k = 0; k < x_valid.rows(); ++k)
        valid_margin[static_cast<std::size_t>(k)] += predict_tree(ensemble.trees.back(), x_valid.row(k).data(), false);
      const double loss = validation_loss(valid_margin, y_valid, task_);
      if (loss < best_loss) {
        best_loss = loss;
        best_trees = ensemble.trees.size();
      } else if (static_cast<int>(ensemble.trees.size() - best_trees) >= params_.early_stopping_rounds) {
        break;
      }
    }
    ensemble.trees.resize(std::min(best_trees, ensemble.trees.size()));
    return std::make_unique<HgbModel>(std::move(ensemble), X.cols(), task_);
  }

  std::shared_ptr<const PreparedData> prepare(const Matrix& X, int threads) const override {
    auto prepared = std::make_shared<PreparedBins>();
    std::vector<Index> all(static_cast<std::size_t>(X.rows()));
    std::iota(all.begin(), all.end(), Index{0});
    prepared->binned = hgb::bin_rows(X, all, params_.max_bin, std::max(1, threads));
    prepared->max_bin = params_.max_bin;
    return prepared;
  }

  bool fits_in_group() const override { return true; }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override {
    DecodedTreeModel model = decode_tree_model(bytes, kMagics, task_, "hgb model bytes");
    model.ensemble.link = task_ == Task::Binary ? Link::Logistic : Link::Identity;
    return std::make_unique<HgbModel>(std::move(model.ensemble), model.num_features, task_);
  }

 private:
  /// The training rows' codes: selected from the batch's bins when the caller passes this estimator's prepare() of
  /// X's batch (the study's periods: binned once, in the background), else binned here from the training rows.
  hgb::BinnedColumns bin_training_rows(const Matrix& X, const std::vector<Index>& train,
                                       const FitOptions& options) const {
    const auto* prepared = dynamic_cast<const PreparedBins*>(options.origin.prepared);
    if (prepared == nullptr || prepared->max_bin != params_.max_bin)
      return hgb::bin_rows(X, train, params_.max_bin, std::max(1, options.threads));
    const FitOrigin& origin = options.origin;
    BFS_CHECK(
        static_cast<Index>(origin.rows.size()) == X.rows() && static_cast<Index>(origin.columns.size()) == X.cols(),
        "hgb: the fit's origin does not describe X");
    std::vector<Index> batch_rows(train.size());
    for (std::size_t k = 0; k < train.size(); ++k) batch_rows[k] = origin.rows[static_cast<std::size_t>(train[k])];
    return hgb::select_binned(prepared->binned, batch_rows, origin.columns);
  }

  /// F_0: the mean target, or for binary targets the log-odds of the mean (kept finite for a one-class sample).
  double starting_margin(const std::vector<double>& y) const {
    const double mean = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(y.size());
    if (task_ != Task::Binary) return mean;
    const double p = std::clamp(mean, 1e-6, 1.0 - 1e-6);
    return std::log(p / (1.0 - p));
  }

  void gradients(const std::vector<double>& margin, const std::vector<double>& y, std::vector<double>& g,
                 std::vector<double>& h) const {
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (task_ == Task::Binary) {
        const double q = sigmoid(margin[i]);
        g[i] = q - y[i];
        h[i] = q * (1.0 - q);
      } else {
        g[i] = margin[i] - y[i];
      }
    }
  }

  HgbParams params_;
  Task task_;
};

}  // namespace

std::unique_ptr<Estimator> make_hgb(const HgbParams& params, Task task) {
  check_bounds(params);
  return std::make_unique<Hgb>(params, task);
}

}  // namespace bfs

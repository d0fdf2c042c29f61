// Regression random forest (Breiman 2001, "Random Forests", Machine Learning 45:5-32) with scikit-learn's
// RandomForestRegressor semantics: every tree is a CART regression tree (squared error, i.e. variance reduction)
// grown on a bootstrap sample of the rows; at each node a fresh random subset of max_features·p columns (at least
// one; columns constant in the node do not count, as in scikit-learn) is searched, and among equally good splits the
// first in the node's random column order is taken (with max_features = 1 that order is a per-node rotation of a
// per-tree random permutation, not a fresh shuffle: forest_builder.hpp, select_columns); thresholds lie halfway between
// consecutive distinct values and a row goes left when x <= threshold; the forest predicts the mean of its trees.
// min_samples_split / min_samples_leaf count distinct rows of the node (scikit-learn counts bootstrap duplicates as
// one row with a weight).
//
// Binary mode (Task::Binary, targets 0/1): scikit-learn's RandomForestClassifier with criterion "gini", grown by the
// very same builder, because on 0/1 targets the squared-error search already is the Gini search. With bootstrap
// counts w as weights, a node's class-1 weight S = Σ w·y and weight W = Σ w, its Gini impurity is
// G = 1 − (S/W)² − ((W−S)/W)² = 2·S·(W−S)/W², so W_L·G_L + W_R·G_R = 2·S − 2·(S_L²/W_L + S_R²/W_R): minimising
// the children's weighted Gini (scikit-learn's proxy_impurity_improvement = −W_R·G_R − W_L·G_L) maximises the same
// S_L²/W_L + S_R²/W_R the regression scan maximises (it is Breiman's remark that Gini splitting equals variance
// splitting on the class indicator). S and W are integers here, so those sums are exact in double. A leaf's value
// S/W is the weighted fraction of class 1 among its rows, i.e. the tree's predict_proba[:, 1]; the pure-node test
// (variance S/W·(1 − S/W) ≤ ε) fires exactly when Gini = 0; the forest averages the trees' probabilities
// (Link::Identity) and predicts P(y = 1). Duplicates and min_samples_* count as in regression. Only exact ties
// between candidate splits may be broken differently from scikit-learn, whose column order is random anyway.
// Serialized binary models carry their own magic, so a model is never restored under the other task.
//
// Missing cells (NaN in X): scikit-learn >= 1.4's rule for its forests (scikit-learn User Guide, "Decision Trees",
// "Missing Values Support"; sklearn/tree/_splitter.pyx, node_split_best). At a node where the split
// column has missing cells, two searches: the missing rows go right with each cut of the values, including "every
// value left, the missing right" (threshold +∞), then left with each cut between two values; the better gain wins
// (the first search on ties) and is stored as the node's default direction. A node whose split column had no
// missing cells sends a missing cell at prediction to the child with more (distinct) rows, the left one only when
// it has strictly more. A fit whose X has no missing cell applies that rule at every node when the caller says the
// table has missing cells (FitOptions::data_has_missing; the bandit sets it per period, so complete training rows
// whose test rows miss cells route them as scikit-learn would), and otherwise keeps NaN → right everywhere, so
// complete data grows the very trees (and bytes) it always did (the direction is a per-node byte of the model, which
// holds no node counts to decide it at prediction). The search itself is in detail/forest_builder.hpp.
//
// Speed (fitted thousands of times on n ≲ 5000 rows): every column is sorted once per fit, or once per data batch
// when the caller passes prepare()'s sort (forest_presort.hpp: a fit then walks its columns' batch order); a tree
// keeps, for each column, the rows of its bootstrap sample in sorted order and, after each split, stably partitions
// each column's node segment into left and right (the presort scheme of Breiman's original code), so split search is a
// linear scan with running sums and no sorting happens inside the tree. The scan tests each position once, branch-free
// on the data (tie or not), columns constant in a node are not partitioned, and children known to be leaves (depth,
// size or a pure node, decided by the parent with the child's own sums) cost nothing more; when one child is a leaf
// only the other one's entries are moved. The builder (detail/forest_builder.hpp) keeps (rank, row) entries, 4 bytes
// below 65 536 rows, and scans a node's columns four at a time in vector lanes, replaying the lanes' candidates in
// the sequential order so the chosen splits are the scalar scan's. Trees are built in parallel; tree t draws only from
// Rng::stream(seed, t, 0, Fit), so the forest is bit-identical for any thread count; the forest-fingerprint unit test
// pins the trees to those of the plain builder.
//
// A fit group (FitOptions::group: the ranks of a bandit group fitting one arm) shares out the trees:
// member r grows the r-th contiguous block and the members allgather their blocks. Tree t's stream does not depend on
// who grows it, so every member ends with the forest a single fit grows (tests/mpi/test_fit_group.cpp).
//
// Mean decrease in impurity (Breiman's Gini importance, scikit-learn's feature_importances_; [FUSE §7.1]'s
// Gini-RF ranking): a split's weighted decrease W·I − W_L·I_L − W_R·I_R is (S_L²/W_L + S_R²/W_R) − S²/W for squared
// error, twice that for Gini — the split's scan value minus the node's, so it costs one subtraction per split. Each
// tree's decreases are normalised to sum 1 (a tree without splits counts as zeros), then averaged over the trees and
// normalised again, as scikit-learn does. Kept by the fitted model (impurity_importance()), not serialized.
#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "config/schema.hpp"
#include "core/byte_codec.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "core/share.hpp"
#include "estimators/detail/forest_builder.hpp"
#include "estimators/estimator.hpp"
#include "estimators/missing.hpp"
#include "estimators/tree_ensemble.hpp"

namespace bfs {

namespace {

namespace forest = detail::forest;

constexpr std::string_view kName = "random_forest";
// Regression's magic predates binary mode; the classifier's bytes have the same layout after theirs.
constexpr TreeModelMagics kMagics{"BFSRF1", "BFSRFC1"};

class RandomForestModel final : public Model {
 public:
  RandomForestModel(TreeEnsemble ensemble, Index num_features, int threads, Task task,
                    std::vector<double> impurity_importance = {})
      : ensemble_(std::move(ensemble)),
        num_features_(num_features),
        threads_(std::max(1, threads)),
        task_(task),
        impurity_importance_(std::move(impurity_importance)) {}

  Vector predict(const Matrix& X) const override {
    if (X.cols() != num_features_) {
      throw InputError(detail::concat(kName, ": predict got ", X.cols(), " columns, the model has ", num_features_));
    }
    return predict_ensemble(ensemble_, X, threads_);
  }

  std::string serialize() const override { return encode_tree_model(kMagics.of(task_), num_features_, ensemble_); }

  Index num_features() const override { return num_features_; }
  const TreeEnsemble* trees() const override { return &ensemble_; }
  const std::vector<double>* impurity_importance() const override {
    return impurity_importance_.empty() ? nullptr : &impurity_importance_;
  }

 private:
  TreeEnsemble ensemble_;
  Index num_features_;
  int threads_;
  Task task_;
  std::vector<double> impurity_importance_;  ///< empty after deserialize
};

/// The forest's mean decrease in impurity from the per-tree totals (see the header comment).
std::vector<double> mean_decrease_in_impurity(const std::vector<std::vector<double>>& per_tree, Index p) {
  std::vector<double> mdi(static_cast<std::size_t>(p), 0.0);
  for (const std::vector<double>& tree : per_tree) {
    double total = 0.0;
    for (double d : tree) total += d;
    if (total > 0.0)
      for (std::size_t j = 0; j < mdi.size(); ++j) mdi[j] += tree[j] / total;
  }
  double total = 0.0;
  for (double v : mdi) total += v;
  if (total > 0.0)
    for (double& v : mdi) v /= total;
  return mdi;
}

class RandomForest final : public Estimator {
 public:
  RandomForest(const RandomForestParams& params, Task task) : params_(params), task_(task) {}

  std::string_view name() const override { return kName; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, kName, /*allow_nan_x=*/true);
    if (task_ == Task::Binary) validate_binary_target(y, kName);
    const Index n = X.rows(), p = X.cols();
    const std::vector<std::uint8_t> missing = missing_columns(X);
    if (n > INT32_MAX / 2 || p > INT32_MAX / 2) throw InputError(detail::concat(kName, ": data too large"));
    const int threads = std::max(1, options.threads);
    const int m =
        std::clamp(static_cast<int>(std::floor(params_.max_features * static_cast<double>(p))), 1, static_cast<int>(p));

    // 4-byte sorted-column entries when the row indices fit in 16 bits (forest_builder.hpp).
    // In a fit group each member grows its share of the trees and the members exchange them.
    const FitGroup* group = sharing_group(options);
    const auto [first, last] =
        group ? contiguous_share(static_cast<std::size_t>(params_.n_estimators), group->rank(), group->size())
              : std::pair<std::size_t, std::size_t>{0, params_.n_estimators};
    auto [ensemble, decrease] = n <= UINT16_MAX ? grow<std::uint16_t>(X, y, missing, options, m, threads, first, last)
                                                : grow<std::int32_t>(X, y, missing, options, m, threads, first, last);
    if (group) exchange_trees(*group, ensemble, decrease);
    return std::make_unique<RandomForestModel>(std::move(ensemble), p, threads, task_,
                                               mean_decrease_in_impurity(decrease, p));
  }

  bool fits_in_group() const override { return true; }

  /// The batch's columns sorted once; fits on its rows and columns then only select from them (same trees).
  std::shared_ptr<const PreparedData> prepare(const Matrix& X, int threads) const override {
    return std::make_shared<forest::PresortedPeriod>(X, std::max(1, threads));
  }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override {
    DecodedTreeModel model = decode_tree_model(bytes, kMagics, task_, "random_forest model bytes");
    return std::make_unique<RandomForestModel>(std::move(model.ensemble), model.num_features, 1, task_);
  }

 private:
  /// X's sorted columns (forest_presort.hpp): selected from the batch's sort when the caller passes it.
  template <class Idx>
  static std::vector<forest::Entry<Idx>> sorted_columns(const Matrix& X, const FitOrigin& origin, int threads) {
    const auto* period = dynamic_cast<const forest::PresortedPeriod*>(origin.prepared);
    if (period != nullptr && static_cast<Index>(origin.rows.size()) == X.rows() &&
        static_cast<Index>(origin.columns.size()) == X.cols())
      return period->select<Idx>(origin.rows, origin.columns, threads);
    return forest::presort<Idx>(X, threads);
  }

  /// Trees first..last−1, in parallel, and each one's impurity decrease per column (the ensemble has every slot;
  /// the others stay empty until exchange_trees fills them).
  template <class Idx>
  std::pair<TreeEnsemble, std::vector<std::vector<double>>> grow(const Matrix& X, const Vector& y,
                                                                 const std::vector<std::uint8_t>& missing,
                                                                 const FitOptions& options, int m, int threads,
                                                                 std::size_t first, std::size_t last) const {
    const std::uint64_t seed = options.seed;
    const std::vector<forest::Entry<Idx>> presorted = sorted_columns<Idx>(X, options.origin, threads);
    TreeEnsemble ensemble;
    ensemble.trees.resize(static_cast<std::size_t>(params_.n_estimators));
    std::vector<std::vector<double>> decrease(static_cast<std::size_t>(params_.n_estimators));
    ensemble.scale = 1.0 / params_.n_estimators;
    ensemble.base_score = 0.0;
    ensemble.strict_less = false;
    // Exceptions (only bad_alloc is possible) must not cross the OpenMP constructs: keep the first, rethrow after.
    std::exception_ptr error;
    const auto keep_error = [&error] {
#pragma omp critical(bfs_random_forest_error)
      if (!error) error = std::current_exception();
    };
#pragma omp parallel num_threads(threads)
    {
      std::unique_ptr<forest::TreeBuilder<Idx>> builder;
      try {
        builder =
            std::make_unique<forest::TreeBuilder<Idx>>(params_, presorted, X, y, m, missing, options.data_has_missing);
      } catch (...) {
        keep_error();
      }
#pragma omp for schedule(dynamic, 1)
      for (auto t = static_cast<std::ptrdiff_t>(first); t < static_cast<std::ptrdiff_t>(last); ++t) {
        if (!builder) continue;
        try {
          ensemble.trees[static_cast<std::size_t>(t)] =
              builder->build(seed, static_cast<int>(t), decrease[static_cast<std::size_t>(t)]);
        } catch (...) {
          keep_error();
        }
      }
    }
    if (error) std::rethrow_exception(error);
    return {std::move(ensemble), std::move(decrease)};
  }

  /// Every member's share of the trees (and their impurity decreases) to every member: member r grew the r-th
  /// contiguous block, so the blocks in member order are the trees in order — the forest a single fit grows.
  void exchange_trees(const FitGroup& group, TreeEnsemble& ensemble, std::vector<std::vector<double>>& decrease) const {
    const auto total = static_cast<std::size_t>(params_.n_estimators);
    const auto [first, last] = contiguous_share(total, group.rank(), group.size());
    TreeEnsemble mine;
    mine.trees.assign(std::make_move_iterator(ensemble.trees.begin() + static_cast<std::ptrdiff_t>(first)),
                      std::make_move_iterator(ensemble.trees.begin() + static_cast<std::ptrdiff_t>(last)));
    std::string bytes;
    append_ensemble(mine, bytes);
    ByteWriter writer;
    writer.put_vectors(std::vector<std::vector<double>>(decrease.begin() + static_cast<std::ptrdiff_t>(first),
                                                        decrease.begin() + static_cast<std::ptrdiff_t>(last)));
    bytes += writer.take();
    const std::vector<std::string> shares = group.allgather(bytes);
    ensemble.trees.clear();
    decrease.clear();
    for (const std::string& share : shares) {
      std::string_view rest = share;
      TreeEnsemble part = read_ensemble(rest, "random_forest: a fit group member's trees");
      ByteReader reader(rest, "random_forest: a fit group member's impurity decreases");
      auto part_decrease = reader.get_vectors<double>("trees");
      reader.finish();
      BFS_CHECK(part_decrease.size() == part.trees.size(), "random_forest: fit group share sizes differ");
      for (std::size_t k = 0; k < part.trees.size(); ++k) {
        ensemble.trees.push_back(std::move(part.trees[k]));
        decrease.push_back(std::move(part_decrease[k]));
      }
    }
    BFS_CHECK(ensemble.trees.size() == total, "random_forest: the fit group grew ", ensemble.trees.size(), " of ",
              total, " trees");
  }

 private:
  RandomForestParams params_;
  Task task_;
};

}  // namespace

std::unique_ptr<Estimator> make_random_forest(const RandomForestParams& params, Task task) {
  check_bounds(params);  // declared once, in the schema
  return std::make_unique<RandomForest>(params, task);
}

}  // namespace bfs

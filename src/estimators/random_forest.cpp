// Regression random forest (Breiman 2001, "Random Forests", Machine Learning 45:5-32) with scikit-learn's
// RandomForestRegressor semantics: every tree is a CART regression tree (squared error, i.e. variance reduction)
// grown on a bootstrap sample of the rows; at each node a fresh random subset of max_features·p columns (at least
// one; columns constant in the node do not count, as in scikit-learn) is searched; thresholds lie halfway between
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
// Speed (fitted thousands of times on n ≲ 5000 rows): every column is sorted once per fit; a tree keeps, for each
// column, the rows of its bootstrap sample in sorted order and, after each split, stably partitions each column's
// node segment into left and right (the presort scheme of Breiman's original code), so split search is a linear
// scan with running sums and no sorting happens inside the tree. The scan tests each position once, branch-free on
// the data (tie or not), columns constant in a node are not partitioned, and children known to be leaves (depth,
// size or a pure node, decided by the parent with the child's own sums) cost nothing more. Trees are built in
// parallel; tree t draws only from Rng::stream(seed, t, 0, Fit), so the forest is bit-identical for any thread
// count; the forest-fingerprint unit test pins the trees to those of the plain builder.
//
// Mean decrease in impurity (Breiman's Gini importance, scikit-learn's feature_importances_; paper 001 §7.1's
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
#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"

namespace bfs {

namespace {

constexpr std::string_view kName = "random_forest";
constexpr std::string_view kMagic = "BFSRF1";         // regression (the format predates binary mode)
constexpr std::string_view kMagicBinary = "BFSRFC1";  // classifier: same layout after the magic

constexpr std::string_view magic_of(Task task) {
  return task == Task::Binary ? kMagicBinary : kMagic;
}

/// One entry of a column sorted by value: the value and its row (global row index of X).
struct SortedEntry {
  float value;
  std::int32_t row;
};

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

  std::string serialize() const override {
    std::string out(magic_of(task_));
    const auto p = static_cast<std::int64_t>(num_features_);
    out.append(reinterpret_cast<const char*>(&p), sizeof(p));
    append_ensemble(ensemble_, out);
    return out;
  }

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

/// Grows trees; one builder per thread, its buffers reused from tree to tree.
class TreeBuilder {
 public:
  TreeBuilder(const RandomForestParams& params, const std::vector<SortedEntry>& presorted, const Vector& y, Index p,
              int features_per_split)
      : params_(params),
        presorted_(presorted),
        y_(y),
        n_(static_cast<std::int32_t>(y.size())),
        p_(static_cast<std::int32_t>(p)),
        m_(features_per_split),
        counts_(n_),
        stat_(n_),
        go_left_(n_),
        columns_(static_cast<std::size_t>(p_) * n_ + 1),  // + 1: the branch-free bootstrap filter writes one ahead
        scratch_(n_),
        features_(p_) {}

  /// Grows tree `tree_index`; `decrease` (p entries) receives each column's total impurity decrease in it.
  FlatTree build(std::uint64_t seed, int tree_index, std::vector<double>& decrease);

 private:
  /// Bootstrap weight of a row and weight·y, side by side: the split scan reads both for every entry.
  struct RowStat {
    double w, wy;
  };
  /// Weighted sums over a node's rows, in the order of its reference column, and whether it stays a leaf.
  struct NodeStats {
    double w_sum, wy_sum;
    bool leaf;
  };
  struct Task {
    std::int32_t node, begin, end;
    int depth;
    std::int32_t ref_column;  ///< a column whose segment [begin, end) holds exactly this node's rows
    double w_sum, wy_sum;
  };
  struct Split {
    std::int32_t feature = -1;
    std::int32_t pos = -1;  ///< last position (in the feature's sorted segment) that goes left
    double proxy = -1.0;    ///< S_L²/W_L + S_R²/W_R: maximising it minimises the children's squared error
  };

  bool must_be_leaf(std::int32_t count, int depth) const {
    return (params_.max_depth > 0 && depth >= params_.max_depth) || count < params_.min_samples_split ||
           count < 2 * params_.min_samples_leaf;
  }
  SortedEntry* column(std::int32_t c) { return columns_.data() + static_cast<std::size_t>(c) * n_unique_; }
  NodeStats node_stats(std::int32_t ref_column, std::int32_t begin, std::int32_t end, int depth);
  Split find_split(std::int32_t begin, std::int32_t end, double w_sum, double wy_sum, Rng& rng);
  void partition(std::int32_t c, std::int32_t begin, std::int32_t end);

  const RandomForestParams& params_;
  const std::vector<SortedEntry>& presorted_;
  const Vector& y_;
  std::int32_t n_, p_;
  int m_;
  std::int32_t n_unique_ = 0;
  std::vector<std::int32_t> counts_;
  std::vector<RowStat> stat_;
  std::vector<std::uint8_t> go_left_;
  std::vector<SortedEntry> columns_;  // p_ segments of n_unique_ entries: the sample sorted by each column
  std::vector<SortedEntry> scratch_;
  std::vector<std::int32_t> features_;
  std::vector<Task> stack_;
};

TreeBuilder::NodeStats TreeBuilder::node_stats(std::int32_t ref_column, std::int32_t begin, std::int32_t end,
                                               int depth) {
  const SortedEntry* ref = column(ref_column);
  double w_sum = 0.0, wy_sum = 0.0;
  for (std::int32_t i = begin; i < end; ++i) {
    w_sum += stat_[ref[i].row].w;
    wy_sum += stat_[ref[i].row].wy;
  }
  if (must_be_leaf(end - begin, depth)) return {w_sum, wy_sum, true};
  const double mean = wy_sum / w_sum;
  double impurity = 0.0;
  for (std::int32_t i = begin; i < end; ++i) {
    const double d = y_[ref[i].row] - mean;
    impurity += stat_[ref[i].row].w * d * d;
  }
  return {w_sum, wy_sum, impurity / w_sum <= DBL_EPSILON};  // pure node (scikit-learn's EPSILON test)
}

FlatTree TreeBuilder::build(std::uint64_t seed, int tree_index, std::vector<double>& decrease) {
  decrease.assign(static_cast<std::size_t>(p_), 0.0);
  Rng rng(Rng::stream(seed, static_cast<std::uint64_t>(tree_index), 0, Purpose::Fit));
  std::fill(counts_.begin(), counts_.end(), params_.bootstrap ? 0 : 1);
  if (params_.bootstrap) {
    for (std::int32_t i = 0; i < n_; ++i) ++counts_[rng.uniform_int(static_cast<std::uint64_t>(n_))];
  }
  n_unique_ = 0;
  for (std::int32_t r = 0; r < n_; ++r) {
    stat_[r] = {static_cast<double>(counts_[r]), counts_[r] * y_[r]};
    n_unique_ += counts_[r] > 0;
  }
  for (std::int32_t c = 0; c < p_; ++c) {
    const SortedEntry* src = presorted_.data() + static_cast<std::size_t>(c) * n_;
    SortedEntry* dst = column(c);
    for (std::int32_t k = 0; k < n_; ++k) {  // branch-free: in or out of the sample is a coin flip
      const SortedEntry entry = src[k];
      *dst = entry;
      dst += counts_[entry.row] > 0;
    }
  }
  std::iota(features_.begin(), features_.end(), 0);

  FlatTree tree;
  tree.reserve(2 * static_cast<std::size_t>(n_unique_));
  auto add_node = [&tree](double value) {
    tree.feature.push_back(-1);
    tree.threshold.push_back(0.0f);
    tree.left.push_back(-1);
    tree.right.push_back(-1);
    tree.default_left.push_back(0);  // NaN fails x <= t, so it goes right, as the comparison itself would send it
    tree.value.push_back(value);
    return static_cast<std::int32_t>(tree.feature.size() - 1);
  };

  // Each node's sums and leaf test are computed once, by its parent (in the child's own row order, so the numbers
  // are those the child would compute): leaves are never pushed, and when both children are leaves no column needs
  // partitioning.
  const NodeStats root = node_stats(0, 0, n_unique_, 0);
  const std::int32_t root_node = add_node(root.wy_sum / root.w_sum);
  stack_.clear();
  if (!root.leaf) stack_.push_back({root_node, 0, n_unique_, 0, 0, root.w_sum, root.wy_sum});
  while (!stack_.empty()) {
    const Task task = stack_.back();
    stack_.pop_back();
    const Split split = find_split(task.begin, task.end, task.w_sum, task.wy_sum, rng);
    if (split.feature < 0) continue;  // every column constant in this node

    const SortedEntry* best = column(split.feature);
    const float a = best[split.pos].value, b = best[split.pos + 1].value;
    float threshold = static_cast<float>(0.5 * (static_cast<double>(a) + static_cast<double>(b)));
    if (!(threshold >= a && threshold < b)) threshold = a;  // midpoint rounded up to b (or inf arithmetic)

    decrease[static_cast<std::size_t>(split.feature)] += split.proxy - task.wy_sum * task.wy_sum / task.w_sum;
    const std::int32_t mid = split.pos + 1;
    const NodeStats ls = node_stats(split.feature, task.begin, mid, task.depth + 1);
    const NodeStats rs = node_stats(split.feature, mid, task.end, task.depth + 1);
    const std::int32_t left = add_node(ls.wy_sum / ls.w_sum), right = add_node(rs.wy_sum / rs.w_sum);
    tree.feature[task.node] = split.feature;
    tree.threshold[task.node] = threshold;
    tree.left[task.node] = left;
    tree.right[task.node] = right;
    if (ls.leaf && rs.leaf) continue;
    // Children that may split need every column's segment partitioned, except the split column (already in
    // place) and columns constant in this node: all their entries hold one value, so any entries of the segment
    // tell the children so.
    for (std::int32_t i = task.begin; i < task.end; ++i) go_left_[best[i].row] = i < mid;
    for (std::int32_t c = 0; c < p_; ++c) {
      const SortedEntry* col = column(c);
      if (c != split.feature && col[task.begin].value != col[task.end - 1].value) partition(c, task.begin, task.end);
    }
    if (!rs.leaf) stack_.push_back({right, mid, task.end, task.depth + 1, split.feature, rs.w_sum, rs.wy_sum});
    if (!ls.leaf) stack_.push_back({left, task.begin, mid, task.depth + 1, split.feature, ls.w_sum, ls.wy_sum});
  }
  return tree;
}

TreeBuilder::Split TreeBuilder::find_split(std::int32_t begin, std::int32_t end, double w_sum, double wy_sum,
                                           Rng& rng) {
  const std::int32_t min_leaf = params_.min_samples_leaf;
  const std::int32_t first = begin + min_leaf - 1;  // left child keeps >= min_leaf rows
  const std::int32_t last = end - min_leaf - 1;     // right child keeps >= min_leaf rows
  const RowStat* stat = stat_.data();
  double best_proxy = -1.0;
  std::int32_t best_feature = -1, best_pos = -1;
  int non_constant = 0;
  // Partial Fisher–Yates over features_: each node sees a uniform random order of the columns.
  for (std::int32_t k = 0; k < p_ && non_constant < m_; ++k) {
    const auto j = k + static_cast<std::int32_t>(rng.uniform_int(static_cast<std::uint64_t>(p_ - k)));
    std::swap(features_[k], features_[j]);
    const std::int32_t f = features_[k];
    const SortedEntry* col = column(f);
    if (col[begin].value == col[end - 1].value) continue;
    ++non_constant;
    double w_left = 0.0, wy_left = 0.0;
    for (std::int32_t i = begin; i < first; ++i) {
      w_left += stat[col[i].row].w;
      wy_left += stat[col[i].row].wy;
    }
    for (std::int32_t i = first; i <= last; ++i) {
      const RowStat s = stat[col[i].row];
      w_left += s.w;
      wy_left += s.wy;
      // proxy = S_L²/W_L + S_R²/W_R = num / den; compared as num > best·den to keep divisions off the hot loop.
      // Computed at every position and tested once: whether a cut may fall here (the next value is larger) is
      // data-dependent, and branching on it alone mispredicted about once per cut.
      const double w_right = w_sum - w_left, wy_right = wy_sum - wy_left;
      const double num = wy_left * wy_left * w_right + wy_right * wy_right * w_left;
      const double den = w_left * w_right;
      const bool cut = col[i].value < col[i + 1].value;
      if (cut & (num > best_proxy * den)) [[unlikely]] {
        best_feature = f;
        best_pos = i;
        best_proxy = num / den;
      }
    }
  }
  return {best_feature, best_pos, best_proxy};
}

void TreeBuilder::partition(std::int32_t c, std::int32_t begin, std::int32_t end) {
  SortedEntry* col = column(c);
  std::int32_t out_left = begin, out_right = 0;
  for (std::int32_t i = begin; i < end; ++i) {
    // Branch-free: the left/right pattern is random, so a branch would mispredict half the time.
    const SortedEntry entry = col[i];
    const std::int32_t left = go_left_[entry.row];
    col[out_left] = entry;
    scratch_[out_right] = entry;
    out_left += left;
    out_right += 1 - left;
  }
  std::copy(scratch_.begin(), scratch_.begin() + out_right, col + out_left);
}

class RandomForest final : public Estimator {
 public:
  RandomForest(const RandomForestParams& params, Task task) : params_(params), task_(task) {}

  std::string_view name() const override { return kName; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, kName, /*allow_nan_x=*/false);
    if (task_ == Task::Binary) validate_binary_target(y, kName);
    const Index n = X.rows(), p = X.cols();
    if (n > INT32_MAX / 2 || p > INT32_MAX / 2) throw InputError(detail::concat(kName, ": data too large"));
    const int threads = std::max(1, options.threads);
    const int m =
        std::clamp(static_cast<int>(std::floor(params_.max_features * static_cast<double>(p))), 1, static_cast<int>(p));

    // Every column sorted once (value, then row: a total order, so the result does not depend on the sort).
    std::vector<SortedEntry> presorted(static_cast<std::size_t>(n * p));
#pragma omp parallel for num_threads(threads) schedule(static)
    for (Index c = 0; c < p; ++c) {
      SortedEntry* col = presorted.data() + c * n;
      for (Index i = 0; i < n; ++i) col[i] = {X(i, c), static_cast<std::int32_t>(i)};
      std::sort(col, col + n, [](const SortedEntry& a, const SortedEntry& b) {
        return a.value < b.value || (a.value == b.value && a.row < b.row);
      });
    }

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
      std::unique_ptr<TreeBuilder> builder;
      try {
        builder = std::make_unique<TreeBuilder>(params_, presorted, y, p, m);
      } catch (...) {
        keep_error();
      }
#pragma omp for schedule(dynamic, 1)
      for (int t = 0; t < params_.n_estimators; ++t) {
        if (!builder) continue;
        try {
          ensemble.trees[t] = builder->build(options.seed, t, decrease[static_cast<std::size_t>(t)]);
        } catch (...) {
          keep_error();
        }
      }
    }
    if (error) std::rethrow_exception(error);
    return std::make_unique<RandomForestModel>(std::move(ensemble), p, threads, task_,
                                               mean_decrease_in_impurity(decrease, p));
  }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override {
    const std::string what = "random_forest model bytes";
    const Task other = task_ == Task::Binary ? Task::Regression : Task::Binary;
    if (bytes.starts_with(magic_of(other)) && !bytes.starts_with(magic_of(task_))) {
      throw InputError(
          detail::concat(what, ": a ", name_of(other), " model, but the estimator's task is ", name_of(task_)));
    }
    if (!bytes.starts_with(magic_of(task_))) throw InputError(what + ": not a serialized random forest");
    bytes.remove_prefix(magic_of(task_).size());
    std::int64_t p = 0;
    if (bytes.size() < sizeof(p)) throw InputError(what + ": truncated");
    std::memcpy(&p, bytes.data(), sizeof(p));
    bytes.remove_prefix(sizeof(p));
    if (p <= 0) throw InputError(what + ": bad feature count");
    TreeEnsemble ensemble = read_ensemble(bytes, what);
    if (!bytes.empty()) throw InputError(what + ": trailing bytes");
    validate_ensemble(ensemble, p, what);
    return std::make_unique<RandomForestModel>(std::move(ensemble), p, 1, task_);
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

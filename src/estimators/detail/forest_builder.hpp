#pragma once
// The tree builder of random_forest.cpp (whose header comment states the algorithm and its scikit-learn
// semantics); kept apart so that file stays readable. Everything here serves one goal: the trees of a plain CART
// builder (scan each drawn column in sorted order, keep the first strictly best split), in less time; the
// forest-fingerprint unit test pins them, and the portable and vector paths must agree bit for bit.
//
// Layout: a column's sorted order is kept as (rank, row) pairs, where rank is the value's dense rank in the column
// (equal values, equal ranks), so "value[i] < value[i + 1]" and "the node is constant in this column" are integer
// comparisons and the value itself is read from X only for a chosen threshold. With up to 65 535 rows the pairs are
// two uint16 (4 bytes, half the memory traffic of (float, int32) in the bootstrap filter and the partitions).
//
// Split search: a node first draws its columns (select_columns; with max_features < 1 the constancy test decides
// when to stop, not the scan), then scans them. The first column is scanned alone; the others
// four at a time side by side in vector lanes (all columns of a node share the segment [begin, end)). A lane cannot
// know the best split of the columns before it in its own block, so each lane tests against the best found before
// the block (lower than or equal to the true running best, hence it keeps every position the sequential scan would
// take, and a few more), and the kept positions are then replayed in the sequential order with the sequential test.
// Every candidate's numbers come from the same operations in the same order as the scalar scan, so the replay
// takes exactly the splits the scalar scan takes.
//
// Filters (the bootstrap filter and the partitions after a split), with AVX2 and fewer than 257 rows
// (forest_simd.hpp): a row set is a 256-bit map and eight entries are filtered per step, branch-free. The entries
// then hold row·16, the byte offset of the row's RowStat, which spares the scan a shift per lane (row_of() gives the
// row back). With max_features = 1 a node draws one number, not a permutation (select_columns says why).
//
// Missing cells (NaN; random_forest.cpp states the rule) sort after every value and share the column's last rank
// (forest_presort.hpp), so in every node's segment they are the last entries and the partitions, being stable,
// keep them there. The scan above then already is scikit-learn's first search (missing rows right, the last cut
// being "every value left, the missing right"); scan_missing_left adds the second (missing rows left) right after
// each column's own candidates, so the first strictly best split is the one scikit-learn's order of searches
// takes. A fit whose X has a missing cell runs the portable paths (SSE2 lanes, whose replay its second search
// interleaves with, and the scalar filters), not the AVX2 kernels; one without runs exactly the code it always ran
// (with data_has_missing, only place_split's choice of the missing cells' child differs: it takes the larger).
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "config/schema.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "estimators/detail/forest_presort.hpp"
#include "estimators/detail/forest_scan.hpp"
#include "estimators/detail/forest_simd.hpp"
#include "estimators/estimator.hpp"

namespace bfs::detail::forest {

/// Grows trees; one builder per thread, its buffers reused from tree to tree.
template <class Idx>
class TreeBuilder {
 public:
  /// missing: per column of X, 1 when it has a missing cell (empty: X has none). data_has_missing: the table has
  /// missing cells (FitOptions::data_has_missing), so splits on complete columns take the larger child even when X
  /// has none.
  TreeBuilder(const RandomForestParams& params, const std::vector<Entry<Idx>>& presorted, const Matrix& X,
              const Vector& y, int features_per_split, const std::vector<std::uint8_t>& missing,
              bool data_has_missing = false)
      : params_(params),
        presorted_(presorted),
        X_(X),
        y_(y),
        n_(static_cast<std::int32_t>(y.size())),
        p_(static_cast<std::int32_t>(X.cols())),
        m_(features_per_split),
        counts_(n_),
        stat_(n_),
        go_left_(n_),
        // The branch-free filters write (and the vector ones read) a few entries past a column's end.
        columns_(static_cast<std::size_t>(p_) * n_ + kFilterSlack),
        // The scalar partition's right entries; the vector one's, of every column (partition_columns_avx2).
        scratch_(static_cast<std::size_t>(p_ + 1) * n_ + kFilterSlack),
        moved_(p_),
        features_(2 * static_cast<std::size_t>(p_)),
        selected_(p_),
        events_(static_cast<std::size_t>(kLanes) * n_),
        missing_(missing),
        missing_rank_(missing.size()) {
    larger_child_ = !missing.empty() || data_has_missing;
#if defined(BFS_FOREST_AVX2)
    // Missing cells: the portable scan, whose lanes read unscaled rows, so the portable filters too.
    vector_scan_ = has_avx2() && missing_.empty();
    if constexpr (std::is_same_v<Idx, std::uint16_t>) vector_filters_ = n_ <= 256 && vector_scan_;
    row_shift_ = vector_filters_ ? kRowScale : 0;
#endif
    // A column's missing cells hold its last rank (its last sorted entry is one of them).
    for (std::size_t c = 0; c < missing_.size(); ++c)
      if (missing_[c]) missing_rank_[c] = presorted_[c * static_cast<std::size_t>(n_) + (n_ - 1)].rank;
  }

  /// Grows tree `tree_index`; `decrease` (p entries) receives each column's total impurity decrease in it.
  FlatTree build(std::uint64_t seed, int tree_index, std::vector<double>& decrease);

 private:
  /// Weighted sums over a node's rows, in the order of its reference column, and whether it stays a leaf.
  struct NodeStats {
    double w_sum, wy_sum;
    bool leaf;
  };
  struct Task {
    std::int32_t node, begin, end;
    int depth;
    double w_sum, wy_sum;
  };

  bool must_be_leaf(std::int32_t count, int depth) const {
    return (params_.max_depth > 0 && depth >= params_.max_depth) || count < params_.min_samples_split ||
           count < 2 * params_.min_samples_leaf;
  }
  Entry<Idx>* column(std::int32_t c) {
    return columns_.data() + static_cast<std::size_t>(c) * n_unique_;
  }
  std::int32_t row_of(const Entry<Idx>& e) const {
    return static_cast<std::int32_t>(e.row) >> row_shift_;
  }
  void bootstrap(Rng& rng);
  NodeStats node_stats(std::int32_t ref_column, std::int32_t begin, std::int32_t end, int depth);
  // flatten: the draws must be inlined (an out-of-line uniform_int per draw cost a tenth of the fit), whatever the
  // inliner's budget for this function says.
  [[gnu::flatten]] std::int32_t select_columns(std::int32_t begin, std::int32_t end, Rng& rng);
  Split find_split(const Task& task, Rng& rng);
  /// The missing cells of column c in the node's segment [begin, end): how many (they are its last entries).
  std::int32_t missing_in(std::int32_t c, std::int32_t begin, std::int32_t end);
  /// scikit-learn's second search on column c: the node's missing rows left with each prefix of its values.
  void scan_missing_left(std::int32_t c, const Task& task, Split& best);
  /// The node's split in the tree: threshold, the missing cells' side, and the split column's segment reordered so
  /// its first `mid − begin` entries are the left child's. Returns mid.
  std::int32_t place_split(FlatTree& tree, const Task& task, const Split& split);
  void mark_left(const Entry<Idx>* split_column, std::int32_t begin, std::int32_t mid, std::int32_t end);
  void partition_all(std::int32_t skip, std::int32_t begin, std::int32_t mid, std::int32_t end, bool left_leaf,
                     bool right_leaf);

  const RandomForestParams& params_;
  const std::vector<Entry<Idx>>& presorted_;
  const Matrix& X_;
  const Vector& y_;
  std::int32_t n_, p_;
  int m_;
  std::int32_t n_unique_ = 0;
  std::vector<std::int32_t> counts_;
  std::vector<RowStat> stat_;
  std::vector<std::uint8_t> go_left_;
  std::vector<Entry<Idx>> columns_;  // p_ segments of n_unique_ entries: the sample sorted by each column
  std::vector<Entry<Idx>> scratch_;
  std::vector<std::int32_t> moved_;  // the columns partition_columns_avx2 moved
  // max_features < 1: the partial Fisher–Yates' array; = 1: the tree's column order, written twice, so that a
  // rotation of it is one contiguous run (select_columns).
  std::vector<std::int32_t> features_;
  std::vector<std::int32_t> selected_;        // max_features < 1: the node's drawn non-constant columns, in draw order
  const std::int32_t* scan_order_ = nullptr;  // the node's columns to scan (select_columns' count of them)
  std::vector<Candidate> events_;             // kLanes lists of n_ entries (scan_lanes)
  std::vector<Task> stack_;
  bool vector_scan_ = false;     // AVX2 (has_avx2()): the scan's blocks in scan_columns_avx2
  bool vector_filters_ = false;  // rows below 256 and AVX2: RowBits and the vector filters (forest_simd.hpp)
  bool larger_child_ = false;    // route NaN by the rule (random_forest.cpp), not always right
  int row_shift_ = 0;            // kRowScale with vector_filters_: the entries hold row·16 (row_of undoes it)
  RowBits row_bits_;             // the bootstrap sample, then a split's left rows (vector_filters_)
  const std::vector<std::uint8_t>& missing_;  // per column: X has a missing cell in it (empty: none anywhere)
  std::vector<Idx> missing_rank_;             // per column with missing cells: their rank
};

/// Draws the tree's bootstrap counts and keeps, per column, the sampled rows in sorted order.
template <class Idx>
void TreeBuilder<Idx>::bootstrap(Rng& rng) {
  std::fill(counts_.begin(), counts_.end(), params_.bootstrap ? 0 : 1);
  if (params_.bootstrap) {
    for (std::int32_t i = 0; i < n_; ++i) ++counts_[rng.uniform_int(static_cast<std::uint64_t>(n_))];
  }
  n_unique_ = 0;
  for (std::int32_t r = 0; r < n_; ++r) {
    stat_[r] = {static_cast<double>(counts_[r]), counts_[r] * y_[r]};
    n_unique_ += counts_[r] > 0;
  }
#if defined(BFS_FOREST_AVX2)
  if constexpr (std::is_same_v<Idx, std::uint16_t>) {
    if (vector_filters_) {
      row_bits_.clear();
      for (std::int32_t r = 0; r < n_; ++r)
        if (counts_[r] > 0) row_bits_.set(static_cast<unsigned>(r));
      filter_columns_avx2(presorted_.data(), n_, p_, row_bits_, columns_.data());
      return;
    }
  }
#endif
  for (std::int32_t c = 0; c < p_; ++c) {
    const Entry<Idx>* src = presorted_.data() + static_cast<std::size_t>(c) * n_;
    Entry<Idx>* dst = column(c);
    for (std::int32_t k = 0; k < n_; ++k) {  // branch-free: in or out of the sample is a coin flip
      const Entry<Idx> entry = src[k];
      *dst = entry;
      dst += counts_[entry.row] > 0;
    }
  }
}

template <class Idx>
typename TreeBuilder<Idx>::NodeStats TreeBuilder<Idx>::node_stats(std::int32_t ref_column, std::int32_t begin,
                                                                  std::int32_t end, int depth) {
  const Entry<Idx>* ref = column(ref_column);
  double w_sum = 0.0, wy_sum = 0.0;
  for (std::int32_t i = begin; i < end; ++i) {
    w_sum += stat_[row_of(ref[i])].w;
    wy_sum += stat_[row_of(ref[i])].wy;
  }
  if (must_be_leaf(end - begin, depth)) return {w_sum, wy_sum, true};
  const double mean = wy_sum / w_sum;
  double impurity = 0.0;
  for (std::int32_t i = begin; i < end; ++i) {
    const double d = y_[row_of(ref[i])] - mean;
    impurity += stat_[row_of(ref[i])].w * d * d;
  }
  return {w_sum, wy_sum, impurity / w_sum <= DBL_EPSILON};  // pure node (scikit-learn's EPSILON test)
}

template <class Idx>
FlatTree TreeBuilder<Idx>::build(std::uint64_t seed, int tree_index, std::vector<double>& decrease) {
  decrease.assign(static_cast<std::size_t>(p_), 0.0);
  Rng rng(Rng::stream(seed, static_cast<std::uint64_t>(tree_index), 0, Purpose::Fit));
  bootstrap(rng);
  std::iota(features_.begin(), features_.begin() + p_, 0);
  if (m_ >= p_) {  // the tree's column order: a uniform random permutation, then its copy
    for (std::int32_t k = 0; k + 1 < p_; ++k) {
      const auto j = k + static_cast<std::int32_t>(rng.uniform_int(static_cast<std::uint64_t>(p_ - k)));
      std::swap(features_[k], features_[j]);
    }
    std::copy(features_.begin(), features_.begin() + p_, features_.begin() + p_);
  }

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
  // are those the child would compute): leaves are never pushed, and only the children that may split get their
  // columns partitioned.
  const NodeStats root = node_stats(0, 0, n_unique_, 0);
  const std::int32_t root_node = add_node(root.wy_sum / root.w_sum);
  stack_.clear();
  if (!root.leaf) stack_.push_back({root_node, 0, n_unique_, 0, root.w_sum, root.wy_sum});
  while (!stack_.empty()) {
    const Task task = stack_.back();
    stack_.pop_back();
    const Split split = find_split(task, rng);
    if (split.feature < 0) continue;  // every column constant in this node

    const Entry<Idx>* best = column(split.feature);
    decrease[static_cast<std::size_t>(split.feature)] += split.proxy - task.wy_sum * task.wy_sum / task.w_sum;
    const std::int32_t mid = place_split(tree, task, split);
    const NodeStats ls = node_stats(split.feature, task.begin, mid, task.depth + 1);
    const NodeStats rs = node_stats(split.feature, mid, task.end, task.depth + 1);
    const std::int32_t left = add_node(ls.wy_sum / ls.w_sum), right = add_node(rs.wy_sum / rs.w_sum);
    tree.feature[task.node] = split.feature;
    tree.left[task.node] = left;
    tree.right[task.node] = right;
    if (ls.leaf && rs.leaf) continue;
    mark_left(best, task.begin, mid, task.end);
    partition_all(split.feature, task.begin, mid, task.end, ls.leaf, rs.leaf);
    if (!rs.leaf) stack_.push_back({right, mid, task.end, task.depth + 1, rs.w_sum, rs.wy_sum});
    if (!ls.leaf) stack_.push_back({left, task.begin, mid, task.depth + 1, ls.w_sum, ls.wy_sum});
  }
  return tree;
}

template <class Idx>
std::int32_t TreeBuilder<Idx>::missing_in(std::int32_t c, std::int32_t begin, std::int32_t end) {
  if (missing_.empty() || !missing_[static_cast<std::size_t>(c)]) return 0;
  const Entry<Idx>* col = column(c);
  const Idx rank = missing_rank_[static_cast<std::size_t>(c)];
  std::int32_t i = end;
  while (i > begin && col[i - 1].rank == rank) --i;
  return end - i;
}

template <class Idx>
void TreeBuilder<Idx>::scan_missing_left(std::int32_t c, const Task& task, Split& best) {
  const std::int32_t missing = missing_in(c, task.begin, task.end);
  if (missing == 0) return;
  const Entry<Idx>* col = column(c);
  const std::int32_t values_end = task.end - missing, min_leaf = params_.min_samples_leaf;
  double w_left = 0.0, wy_left = 0.0;
  for (std::int32_t i = values_end; i < task.end; ++i) {
    w_left += stat_[row_of(col[i])].w;
    wy_left += stat_[row_of(col[i])].wy;
  }
  // Cuts between two values only: "missing left, every value right" is the first search's last cut mirrored.
  for (std::int32_t i = task.begin; i + 1 < values_end; ++i) {
    w_left += stat_[row_of(col[i])].w;
    wy_left += stat_[row_of(col[i])].wy;
    if (values_end - 1 - i < min_leaf) break;  // the right side only shrinks from here
    if (missing + (i - task.begin + 1) < min_leaf || col[i].rank == col[i + 1].rank) continue;
    const double w_right = task.w_sum - w_left, wy_right = task.wy_sum - wy_left;
    const double num = wy_left * wy_left * w_right + wy_right * wy_right * w_left;
    const double den = w_left * w_right;
    if (num > best.proxy * den) best = {c, i, num / den, true};
  }
}

template <class Idx>
std::int32_t TreeBuilder<Idx>::place_split(FlatTree& tree, const Task& task, const Split& split) {
  Entry<Idx>* col = column(split.feature);
  const float a = X_(row_of(col[split.pos]), split.feature), b = X_(row_of(col[split.pos + 1]), split.feature);
  float threshold = static_cast<float>(0.5 * (static_cast<double>(a) + static_cast<double>(b)));
  if (!(threshold >= a && threshold < b)) threshold = a;  // midpoint rounded up to b (or inf arithmetic)
  std::int32_t mid = split.pos + 1;
  std::uint8_t missing_left = 0;  // complete data: NaN fails x <= t, as before missing cells existed
  if (larger_child_) {
    const std::int32_t missing = missing_in(split.feature, task.begin, task.end);
    if (split.missing_left) {
      // The missing entries join the left values: a stable partition of the split column's segment.
      std::rotate(col + mid, col + (task.end - missing), col + task.end);
      mid += missing;
      missing_left = 1;
    } else if (std::isnan(b)) {
      threshold = std::numeric_limits<float>::infinity();  // every value left, the missing cells right
    } else if (missing == 0) {
      missing_left = mid - task.begin > task.end - mid ? 1 : 0;  // none seen here: the child with more rows
    }
  }
  tree.threshold[task.node] = threshold;
  tree.default_left[task.node] = missing_left;
  return mid;
}

/// The node's columns to scan (scan_order_, count of them).
///
/// max_features < 1: scikit-learn's draws, a partial Fisher–Yates over features_ until m_ non-constant columns are
/// found (each node sees a uniform random order of the columns).
///
/// max_features = 1 (every column searched): the order decides nothing but exact ties, because the scan keeps the
/// first strictly best split in its order, and a constant column offers no split at all, so the node neither draws a
/// permutation nor tests constancy. Its order is the tree's random permutation (build()) rotated by one uniform
/// draw per node. Every column is as likely as any other to come first in any tie (the columns are exchangeable
/// under the tree's permutation), as with scikit-learn's per-node shuffle, which cost p draws per node: 10% of the
/// fit at p ≈ 120 (docs/performance.md, "The random forest's fit").
template <class Idx>
std::int32_t TreeBuilder<Idx>::select_columns(std::int32_t begin, std::int32_t end, Rng& rng) {
  const std::int32_t p = p_;
  std::int32_t* features = features_.data();
  if (m_ >= p) {
    scan_order_ = features + rng.uniform_int(static_cast<std::uint64_t>(p));
    return p;
  }
  std::int32_t* selected = selected_.data();
  const Entry<Idx>* columns = columns_.data();
  const auto stride = static_cast<std::size_t>(n_unique_);
  const auto constant = [&](std::int32_t f) {
    const Entry<Idx>* col = columns + static_cast<std::size_t>(f) * stride;
    return col[begin].rank == col[end - 1].rank;
  };
  Rng local = rng;  // the generator's state stays in registers, and the stores cannot alias it
  std::int32_t count = 0;
  for (std::int32_t k = 0; k < p && count < m_; ++k) {
    const auto j = k + static_cast<std::int32_t>(local.uniform_int(static_cast<std::uint64_t>(p - k)));
    std::swap(features[k], features[j]);
    if (!constant(features[k])) selected[count++] = features[k];
  }
  rng = local;
  scan_order_ = selected;
  return count;
}

template <class Idx>
Split TreeBuilder<Idx>::find_split(const Task& task, Rng& rng) {
  const std::int32_t count = select_columns(task.begin, task.end, rng);
  const std::int32_t min_leaf = params_.min_samples_leaf;
  // Left child keeps >= min_leaf rows from `first` on, the right child up to `last`.
  const ScanRange range{task.begin, task.begin + min_leaf - 1, task.end - min_leaf - 1, task.w_sum, task.wy_sum};
  const RowStat* stat = stat_.data();
  Split best;
  std::int32_t k = 0;
  // The first column alone: the lanes' threshold is then a real split's value, so few positions are kept.
  const std::int32_t* order = scan_order_;
  const bool missing = !missing_.empty();
  if (k < count) {
    scan_column(column(order[k]), order[k], range, stat, best, row_shift_);
    if (missing) scan_missing_left(order[k], task, best);
    ++k;
  }
#if defined(BFS_FOREST_AVX2)
  // A short last block of two or three columns is cheaper in the lanes than one by one.
  if (vector_scan_) {
    const std::int32_t in_lanes = count - k < 2 ? 0 : count - k;
    const auto scan = [&]<bool kScaled>() {
      scan_columns_avx2<Idx, kScaled>(columns_.data(), static_cast<std::size_t>(n_unique_), order + k, in_lanes, range,
                                      stat, events_.data(), n_, best);
    };
    if (row_shift_ != 0)
      scan.template operator()<true>();
    else
      scan.template operator()<false>();
    k += in_lanes;
  }
#endif
  for (; k + kLanes <= count; k += kLanes) {
    const Entry<Idx>* cols[kLanes];
    for (int l = 0; l < kLanes; ++l) cols[l] = column(order[k + l]);
    std::int32_t kept[kLanes] = {};
    scan_lanes(cols, range, stat, best.proxy, events_.data(), n_, kept);
    for (int l = 0; l < kLanes; ++l) {
      for (std::int32_t e = 0; e < kept[l]; ++e) {
        const Candidate& c = events_[static_cast<std::size_t>(l) * n_ + e];
        offer(best, order[k + l], c.pos, c.num, c.den);
      }
      if (missing) scan_missing_left(order[k + l], task, best);
    }
  }
  for (; k < count; ++k) {
    scan_column(column(order[k]), order[k], range, stat, best, row_shift_);
    if (missing) scan_missing_left(order[k], task, best);
  }
  return best;
}

/// Stable partition of every column's segment by go_left_ (the split column is in place already; a column constant
/// in the node needs none: its entries hold one value, so any of them tell the children so). A child that is a leaf
/// is never read again, so when one is, the other child's entries are just packed into place (no scratch copy).
/// The rows of the split column's [begin, mid) go left: go_left_ for the scalar partition, row_bits_ for the vector
/// one.
template <class Idx>
void TreeBuilder<Idx>::mark_left(const Entry<Idx>* split_column, std::int32_t begin, std::int32_t mid,
                                 std::int32_t end) {
  if (vector_filters_) {
    row_bits_.clear();
    for (std::int32_t i = begin; i < mid; ++i) row_bits_.set(row_of(split_column[i]));
    return;
  }
  for (std::int32_t i = begin; i < end; ++i) go_left_[split_column[i].row] = i < mid;
}

template <class Idx>
void TreeBuilder<Idx>::partition_all(std::int32_t skip, std::int32_t begin, std::int32_t mid, std::int32_t end,
                                     bool left_leaf, bool right_leaf) {
#if defined(BFS_FOREST_AVX2)
  if constexpr (std::is_same_v<Idx, std::uint16_t>) {
    if (vector_filters_) {
      const auto stride = static_cast<std::size_t>(n_unique_);
      if (right_leaf)
        partition_columns_avx2<true, false>(columns_.data(), stride, p_, skip, begin, mid, end, row_bits_,
                                            scratch_.data(), moved_.data());
      else if (left_leaf)
        partition_columns_avx2<false, true>(columns_.data(), stride, p_, skip, begin, mid, end, row_bits_,
                                            scratch_.data(), moved_.data());
      else
        partition_columns_avx2<true, true>(columns_.data(), stride, p_, skip, begin, mid, end, row_bits_,
                                           scratch_.data(), moved_.data());
      return;
    }
  }
#endif
  const std::uint8_t* go_left = go_left_.data();
  for (std::int32_t c = 0; c < p_; ++c) {
    Entry<Idx>* col = column(c);
    if (c == skip || col[begin].rank == col[end - 1].rank) continue;
    // All loops branch-free: the left/right pattern is random, so a branch would mispredict half the time.
    if (right_leaf) {  // pack the left entries forward: the write never passes the read
      std::int32_t out = begin;
      for (std::int32_t i = begin; i < end; ++i) {
        const Entry<Idx> entry = col[i];
        col[out] = entry;
        out += go_left[entry.row];
      }
    } else if (left_leaf) {  // pack the right entries backward, ending at end
      std::int32_t out = end - 1;
      for (std::int32_t i = end - 1; i >= begin; --i) {
        const Entry<Idx> entry = col[i];
        col[out] = entry;
        out -= 1 - go_left[entry.row];
      }
    } else {  // lefts packed in place, rights via scratch_
      std::int32_t out_left = begin, out_right = 0;
      for (std::int32_t i = begin; i < end; ++i) {
        const Entry<Idx> entry = col[i];
        const std::int32_t left = go_left[entry.row];
        col[out_left] = entry;
        scratch_[out_right] = entry;
        out_left += left;
        out_right += 1 - left;
      }
      std::copy(scratch_.begin(), scratch_.begin() + out_right, col + out_left);
    }
  }
}

}  // namespace bfs::detail::forest

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
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "config/schema.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "estimators/detail/forest_presort.hpp"
#include "estimators/detail/forest_simd.hpp"
#include "estimators/estimator.hpp"

namespace bfs::detail::forest {

/// One column, scalar: the reference scan. proxy = num / den is compared as num > best·den to keep divisions off
/// the hot loop; it is computed at every position and the cut (next value larger) tested with it, because
/// branching on the cut alone mispredicted about once per cut.
template <class Idx>
void scan_column(const Entry<Idx>* col, std::int32_t feature, const ScanRange& r, const RowStat* stat, Split& best,
                 int row_shift) {
  double w_left = 0.0, wy_left = 0.0;
  for (std::int32_t i = r.begin; i < r.first; ++i) {
    w_left += stat[col[i].row >> row_shift].w;
    wy_left += stat[col[i].row >> row_shift].wy;
  }
  for (std::int32_t i = r.first; i <= r.last; ++i) {
    const RowStat s = stat[col[i].row >> row_shift];
    w_left += s.w;
    wy_left += s.wy;
    const double w_right = r.w_sum - w_left, wy_right = r.wy_sum - wy_left;
    const double num = wy_left * wy_left * w_right + wy_right * wy_right * w_left;
    const double den = w_left * w_right;
    const bool cut = col[i].rank < col[i + 1].rank;
    if (cut & (num > best.proxy * den)) [[unlikely]]
      best = {feature, i, num / den};
  }
}

/// Two doubles side by side (one SSE2 register, the x86-64 baseline); the lanes scan runs two pairs.
using Pair = double __attribute__((vector_size(16)));
using PairMask = std::int64_t __attribute__((vector_size(16)));

/// Bit l set when lane l of the comparison holds (movmskpd: one instruction instead of two extractions).
inline int lane_bits(PairMask mask) {
#if defined(__SSE2__)
  return _mm_movemask_pd(reinterpret_cast<__m128d>(mask));
#else
  return static_cast<int>((mask[0] & 1) | (mask[1] & 2));
#endif
}

/// kLanes columns side by side, each lane the scalar scan's arithmetic on its column; every cut position whose
/// candidate beats `threshold` (the best before these columns) is appended to its lane's list
/// (events[l·stride + counts[l]]).
template <class Idx>
[[gnu::always_inline]] inline void scan_lanes(const Entry<Idx>* const* cols, const ScanRange& r, const RowStat* stat,
                                              double threshold, Candidate* events, std::int32_t stride,
                                              std::int32_t* counts) {
  const Entry<Idx>*c0 = cols[0], *c1 = cols[1], *c2 = cols[2], *c3 = cols[3];
  Pair w_a{}, wy_a{}, w_b{}, wy_b{};  // running left sums: lanes 0, 1 (a) and 2, 3 (b)
  const auto add = [&](std::int32_t i) {
    const RowStat s0 = stat[c0[i].row], s1 = stat[c1[i].row], s2 = stat[c2[i].row], s3 = stat[c3[i].row];
    w_a += Pair{s0.w, s1.w};
    wy_a += Pair{s0.wy, s1.wy};
    w_b += Pair{s2.w, s3.w};
    wy_b += Pair{s2.wy, s3.wy};
  };
  for (std::int32_t i = r.begin; i < r.first; ++i) add(i);
  for (std::int32_t i = r.first; i <= r.last; ++i) {
    add(i);
    const Pair w_ra = r.w_sum - w_a, wy_ra = r.wy_sum - wy_a, w_rb = r.w_sum - w_b, wy_rb = r.wy_sum - wy_b;
    const Pair num_a = wy_a * wy_a * w_ra + wy_ra * wy_ra * w_a, den_a = w_a * w_ra;
    const Pair num_b = wy_b * wy_b * w_rb + wy_rb * wy_rb * w_b, den_b = w_b * w_rb;
    const int hit = lane_bits(num_a > threshold * den_a) | lane_bits(num_b > threshold * den_b) << 2;
    if (hit != 0) [[unlikely]] {
      const double num[kLanes] = {num_a[0], num_a[1], num_b[0], num_b[1]};
      const double den[kLanes] = {den_a[0], den_a[1], den_b[0], den_b[1]};
      for (int l = 0; l < kLanes; ++l) {
        if ((hit >> l & 1) && cols[l][i].rank < cols[l][i + 1].rank)
          events[l * stride + counts[l]++] = {i, num[l], den[l]};
      }
    }
  }
}

/// Grows trees; one builder per thread, its buffers reused from tree to tree.
template <class Idx>
class TreeBuilder {
 public:
  TreeBuilder(const RandomForestParams& params, const std::vector<Entry<Idx>>& presorted, const Matrix& X,
              const Vector& y, int features_per_split)
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
        events_(static_cast<std::size_t>(kLanes) * n_) {
#if defined(BFS_FOREST_AVX2)
    vector_scan_ = has_avx2();
    if constexpr (std::is_same_v<Idx, std::uint16_t>) vector_filters_ = n_ <= 256 && vector_scan_;
    row_shift_ = vector_filters_ ? kRowScale : 0;
#endif
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
  int row_shift_ = 0;            // kRowScale with vector_filters_: the entries hold row·16 (row_of undoes it)
  RowBits row_bits_;             // the bootstrap sample, then a split's left rows (vector_filters_)
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
    const float a = X_(row_of(best[split.pos]), split.feature), b = X_(row_of(best[split.pos + 1]), split.feature);
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
    mark_left(best, task.begin, mid, task.end);
    partition_all(split.feature, task.begin, mid, task.end, ls.leaf, rs.leaf);
    if (!rs.leaf) stack_.push_back({right, mid, task.end, task.depth + 1, rs.w_sum, rs.wy_sum});
    if (!ls.leaf) stack_.push_back({left, task.begin, mid, task.depth + 1, ls.w_sum, ls.wy_sum});
  }
  return tree;
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
  if (k < count) scan_column(column(order[k]), order[k], range, stat, best, row_shift_), ++k;
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
    }
  }
  for (; k < count; ++k) scan_column(column(order[k]), order[k], range, stat, best, row_shift_);
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

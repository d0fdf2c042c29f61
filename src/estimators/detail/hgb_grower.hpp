#pragma once
// The state of hgb's tree growth (detail/hgb_tree.cpp; its header comment has the algorithm): histogram slots, a
// growing leaf, and the Grower that owns the histogram pool and the rows' order for a whole fit, with the fit-group
// sharing of the histograms and split scans. Internal to hgb_tree.cpp; a header only because the
// Grower is a template over the slot type.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "config/estimator_config.hpp"  // kHgbMaxBin
#include "core/byte_codec.hpp"
#include "core/error.hpp"
#include "core/share.hpp"
#include "estimators/detail/hgb_tree.hpp"

namespace bfs::hgb::growth {

/// One histogram slot: integer sums of the rows whose code is this slot's. With unit hessians (squared error) the
/// hessian sum is the row count, and the slot is two words instead of three.
struct UnitEntry {
  std::int64_t g = 0;
  std::int64_t n = 0;
  std::int64_t hessian() const { return n; }
  void add(std::int64_t g_row, std::int64_t /*h_row*/) {
    g += g_row;
    ++n;
  }
  void subtract(const UnitEntry& o) {
    g -= o.g;
    n -= o.n;
  }
};
struct FullEntry {
  std::int64_t g = 0;
  std::int64_t h = 0;
  std::int64_t n = 0;
  std::int64_t hessian() const { return h; }
  void add(std::int64_t g_row, std::int64_t h_row) {
    g += g_row;
    h += h_row;
    ++n;
  }
  void subtract(const FullEntry& o) {
    g -= o.g;
    h -= o.h;
    n -= o.n;
  }
};

/// The best of every member's best split, on every member. Members scan consecutive shares of the columns, so "the
/// first column wins ties" is "the first member wins ties": the split a single scan of all columns picks.
inline SplitChoice best_of_members(const FitGroup& group, const SplitChoice& mine) {
  ByteWriter writer;
  writer.put(mine.gain);
  writer.put(static_cast<std::int32_t>(mine.feature));
  writer.put(static_cast<std::int32_t>(mine.bin));
  writer.put(static_cast<std::uint8_t>(mine.nan_left ? 1 : 0));
  SplitChoice best;
  for (const std::string& share : group.allgather(writer.take())) {
    ByteReader reader(share, "hgb: a fit group member's best split");
    SplitChoice s;
    s.gain = reader.get<double>();
    s.feature = reader.get<std::int32_t>();
    s.bin = reader.get<std::int32_t>();
    s.nan_left = reader.get<std::uint8_t>() != 0;
    reader.finish();
    if (s.feature >= 0 && s.gain > best.gain) best = s;
  }
  return best;
}

/// Rows are shared out to the members of a fit group in blocks of this many, so the blocks do not depend on the
/// group's size (with integer sums any split gives the same histogram; fixed blocks keep each member's rows
/// contiguous and its share balanced).
constexpr std::size_t kRowBlock = 256;

/// Sums of a set of rows.
struct Sums {
  std::int64_t g = 0, h = 0, n = 0;
};

/// A leaf of the growing tree: its rows are order[begin, end).
struct Leaf {
  std::int32_t node = 0;  ///< index in the FlatTree
  std::uint32_t begin = 0, end = 0;
  int depth = 0;
  Sums sums;
  SplitChoice split;
  int hist = -1;  ///< index of its histogram in the pool, −1 = none
};

/// The power of two 2^k with |x|·2^k <= 2^bits for every |x| <= max_abs.
inline double fixed_point_scale(double max_abs, int bits) {
  if (max_abs <= 0.0 || !std::isfinite(max_abs)) return 1.0;
  int exponent = 0;
  std::frexp(max_abs, &exponent);  // max_abs < 2^exponent
  return std::ldexp(1.0, bits - exponent);
}

/// Everything a tree's growth shares: data, limits, the histogram layout and pool, the rows' order. Lives for a
/// whole fit, so the pool's memory is allocated once. Entry = UnitEntry for unit hessians, else FullEntry.
template <class Entry>
class Grower {
 public:
  Grower(const BinnedColumns& binned, const GrowLimits& limits, int threads, const FitGroup* group, HgbGroupSplit split)
      : binned_(binned),
        limits_(limits),
        threads_(threads),
        group_(group),
        by_columns_(group != nullptr && split == HgbGroupSplit::Columns),
        by_rows_(group != nullptr && split == HgbGroupSplit::Rows) {
    offset_.resize(static_cast<std::size_t>(binned.cols()) + 1, 0);
    for (Index c = 0; c < binned.cols(); ++c)
      offset_[static_cast<std::size_t>(c) + 1] = offset_[static_cast<std::size_t>(c)] + binned.value_bins(c) + 1;
    order_.resize(static_cast<std::size_t>(binned.rows));
    reciprocal_.resize(static_cast<std::size_t>(binned.rows) + 1);
    for (std::size_t k = 0; k < reciprocal_.size(); ++k)
      reciprocal_[k] = 1.0 / (static_cast<double>(k) + limits.lambda);
    // Unit hessians: H = n, so "at least min_samples_leaf rows and min_child_weight hessian" is one row count.
    min_rows_ = kUnit ? std::max<std::int64_t>(limits.min_samples_leaf,
                                               static_cast<std::int64_t>(std::ceil(limits.min_child_weight)))
                      : limits.min_samples_leaf;
  }

  /// Starts a tree: every row in order, these gradients and allowed columns.
  void start(const QuantizedGradients& grad, std::span<const int> allowed) {
    grad_ = &grad;
    allowed_ = allowed;
    g_inv_ = 1.0 / grad.g_scale;  // powers of two: exact
    h_inv_ = 1.0 / grad.h_scale;
    std::iota(order_.begin(), order_.end(), std::uint32_t{0});
    contiguous_ = allowed.size() == static_cast<std::size_t>(binned_.cols()) && !by_columns_;
    // A group member scans its share of the columns (and, split by columns, builds only their histograms).
    share_ = group_ != nullptr ? contiguous_share(allowed.size(), group_->rank(), group_->size())
                               : std::pair<std::size_t, std::size_t>{0, allowed.size()};
  }

  double to_h(const Sums& s) const { return kUnit ? static_cast<double>(s.n) : static_cast<double>(s.h) * h_inv_; }
  double score(const Sums& s) const {
    const double g = static_cast<double>(s.g) * g_inv_;
    return g * g / (to_h(s) + limits_.lambda);
  }

  Sums sums_of(std::uint32_t begin, std::uint32_t end) const {
    Sums s;
    for (std::uint32_t i = begin; i < end; ++i) {
      const std::uint32_t row = order_[i];
      s.g += grad_->g[row];
      s.h += kUnit ? 1 : grad_->h[row];
      ++s.n;
    }
    return s;
  }

  /// A fresh histogram of order[begin, end) over the allowed columns; returns its pool index. In a fit group split
  /// by columns, only this member's columns; split by rows, each member adds the rows of its row blocks and an
  /// allreduce sums the members' histograms.
  int build_histogram(std::uint32_t begin, std::uint32_t end) {
    const int id = take_histogram();
    Entry* hist = pool_[static_cast<std::size_t>(id)].data();
    if (by_rows_) std::tie(begin, end) = own_rows(begin, end);
    const std::uint32_t* rows = order_.data() + begin;
    const auto count = static_cast<std::ptrdiff_t>(end - begin);
    ordered_g_.resize(static_cast<std::size_t>(count));
    ordered_h_.resize(kUnit ? 0 : static_cast<std::size_t>(count));
    for (std::ptrdiff_t i = 0; i < count; ++i) ordered_g_[i] = grad_->g[rows[i]];
    if constexpr (!kUnit)
      for (std::ptrdiff_t i = 0; i < count; ++i) ordered_h_[i] = grad_->h[rows[i]];
    const std::int64_t* og = ordered_g_.data();
    const std::int64_t* oh = ordered_h_.data();
    // Plain variables, not a structured binding: OpenMP cannot capture one.
    const auto first = static_cast<std::ptrdiff_t>(columns_built().first);
    const auto last = static_cast<std::ptrdiff_t>(columns_built().second);
    const std::ptrdiff_t features = last - first;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 8) if (threads_ > 1 && count * features > 50000)
    for (std::ptrdiff_t k = first; k < last; ++k) {
      const auto c = static_cast<std::size_t>(allowed_[static_cast<std::size_t>(k)]);
      Entry* h = hist + offset_[c];
      std::fill(h, hist + offset_[c + 1], Entry{});
      const std::uint8_t* codes = binned_.column(static_cast<Index>(c));
      for (std::ptrdiff_t i = 0; i < count; ++i) h[codes[rows[i]]].add(og[i], kUnit ? 1 : oh[i]);
    }
    if (by_rows_) sum_over_group(hist);
    return id;
  }

  /// The allowed columns (positions in allowed) whose histograms this member holds.
  std::pair<std::size_t, std::size_t> columns_built() const {
    return by_columns_ ? share_ : std::pair<std::size_t, std::size_t>{0, allowed_.size()};
  }

  /// parent −= child over the allowed columns: the parent's histogram becomes the sibling's.
  void subtract(int parent, int child) {
    Entry* p = pool_[static_cast<std::size_t>(parent)].data();
    const Entry* c = pool_[static_cast<std::size_t>(child)].data();
    if (contiguous_) {
      for (std::size_t s = 0; s < offset_.back(); ++s) p[s].subtract(c[s]);
      return;
    }
    const auto [first, last] = columns_built();
    for (std::size_t k = first; k < last; ++k) {
      const auto col = static_cast<std::size_t>(allowed_[k]);
      for (std::size_t s = offset_[col]; s < offset_[col + 1]; ++s) p[s].subtract(c[s]);
    }
  }

  void release(int id) {
    if (id >= 0) free_.push_back(id);
  }

  /// The best split of one column: the largest children's score G_L²/(H_L+λ) + G_R²/(H_R+λ) above `floor`, over the
  /// candidates "bins ≤ b left" with the missing rows right (R) and, when the node has any, left (L); ties go to R,
  /// then to the lower bin (hgb_tree.hpp). Only candidates that can win are scored: a prefix whose left side is below
  /// min_rows in both directions is summed with integers only (children_score would give −∞), and an empty bin is
  /// dropped because it repeats the previous bin's candidate, which keeps the tie (strict >). The chosen split and its
  /// gain are bit for bit those of scoring every bin in two passes, because each kept candidate is scored from the
  /// same integer sums by the same children_score.
  SplitChoice scan_column(const Entry* h, int value_bins, const Sums& node, double floor) const {
    const Entry& nan_bin = h[value_bins];
    const Sums nan{nan_bin.g, nan_bin.hessian(), nan_bin.n};
    const int end = nan.n > 0 ? value_bins : value_bins - 1;  // R's last candidate, value_bins − 1, splits on NaN
    Sums left;
    int b = 0;
    // No candidate is admissible while the left side, missing rows included, has fewer than min_rows rows.
    for (; b < end && left.n + h[b].n + nan.n < min_rows_; ++b) add_slot(left, h[b]);
    // The candidates' bins: the first, then the nonempty ones, until R's right side falls below min_rows (it only
    // shrinks from there). The bins between two kept ones are empty, so each one's left sums are the previous one's
    // plus its own.
    std::array<std::uint8_t, kHgbMaxBin> bins;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
    const std::int64_t most_left = node.n - min_rows_;
    std::int64_t n = left.n, kept = 0;
    if (b < end) {
      n += h[b].n;
      if (n <= most_left) bins[static_cast<std::size_t>(kept++)] = static_cast<std::uint8_t>(b);
      ++b;
    }
    for (; kept > 0 && b < end; ++b) {
      n += h[b].n;
      if (n > most_left) break;
      bins[static_cast<std::size_t>(kept)] = static_cast<std::uint8_t>(b);
      kept += h[b].n != 0 ? 1 : 0;
    }
    Candidate r{floor}, l{floor};
    std::int64_t k = 0;
    if (nan.n > 0) {
      const std::int64_t most_left_l = most_left - nan.n;  // L's right side reaches min_rows first
      for (; k < kept; ++k) {
        const int bin = bins[static_cast<std::size_t>(k)];
        add_slot(left, h[bin]);
        r.offer(children_score(left, minus(node, left)), bin);
        if (left.n > most_left_l) {
          ++k;
          break;
        }
        const Sums with_nan{left.g + nan.g, left.h + nan.h, left.n + nan.n};
        l.offer(children_score(with_nan, minus(node, with_nan)), bin);
      }
    }
    for (; k < kept; ++k) {
      const int bin = bins[static_cast<std::size_t>(k)];
      add_slot(left, h[bin]);
      r.offer(children_score(left, minus(node, left)), bin);
    }
    if (l.bin >= 0 && l.score > r.score) return SplitChoice{l.score - floor, 0, l.bin, true};
    if (r.bin >= 0) return SplitChoice{r.score - floor, 0, r.bin, false};
    return SplitChoice{};
  }

  SplitChoice find_split(int hist_id, const Sums& node) {
    const Entry* hist = pool_[static_cast<std::size_t>(hist_id)].data();
    const double node_score = score(node);
    const auto features = static_cast<std::ptrdiff_t>(allowed_.size());
    per_column_.assign(static_cast<std::size_t>(features), SplitChoice{});
    // In a fit group, this member's share of the columns; the members' best splits are then exchanged.
    const auto first = static_cast<std::ptrdiff_t>(share_.first);
    const auto last = static_cast<std::ptrdiff_t>(share_.second);
#pragma omp parallel for num_threads(threads_) schedule(static) if (threads_ > 1 && features > 64)
    for (std::ptrdiff_t k = first; k < last; ++k) {
      const int c = allowed_[static_cast<std::size_t>(k)];
      SplitChoice s = scan_column(hist + offset_[static_cast<std::size_t>(c)], binned_.value_bins(c), node, node_score);
      if (s.feature >= 0) s.feature = c;
      per_column_[static_cast<std::size_t>(k)] = s;
    }
    SplitChoice best;
    for (const SplitChoice& s : per_column_)
      if (s.feature >= 0 && s.gain > best.gain) best = s;  // first column wins ties
    return group_ != nullptr ? best_of_members(*group_, best) : best;
  }

  /// The sums of the rows the leaf's split sent left, order[leaf.begin, mid): read from the leaf's histogram, or
  /// added up when this member may not hold the split column's histogram (a group split by columns).
  Sums left_sums(const Leaf& leaf, std::uint32_t mid) const {
    if (by_columns_) return sums_of(leaf.begin, mid);
    const Sums s = left_sums(leaf.hist, leaf.split);
    BFS_CHECK(static_cast<std::int64_t>(mid - leaf.begin) == s.n, "hgb: partition disagrees with histogram");
    return s;
  }

  /// The sums of the rows a split sends left, read from the node's histogram.
  Sums left_sums(int hist_id, const SplitChoice& split) const {
    const Entry* h = pool_[static_cast<std::size_t>(hist_id)].data() + offset_[static_cast<std::size_t>(split.feature)];
    Sums s;
    const auto add = [&](const Entry& e) {
      s.g += e.g;
      s.h += e.hessian();
      s.n += e.n;
    };
    for (int b = 0; b <= split.bin; ++b) add(h[b]);
    if (split.nan_left) add(h[binned_.nan_code(split.feature)]);
    return s;
  }

  /// Stable partition of the leaf's rows: left rows first. Returns the boundary.
  std::uint32_t partition(const Leaf& leaf) {
    const std::uint8_t* codes = binned_.column(leaf.split.feature);
    const int nan_code = binned_.nan_code(leaf.split.feature);
    scratch_.clear();
    std::uint32_t out = leaf.begin;
    for (std::uint32_t i = leaf.begin; i < leaf.end; ++i) {
      const std::uint32_t row = order_[i];
      const int code = codes[row];
      if (code == nan_code ? leaf.split.nan_left : code <= leaf.split.bin)
        order_[out++] = row;
      else
        scratch_.push_back(row);
    }
    std::copy(scratch_.begin(), scratch_.end(), order_.begin() + out);
    return out;
  }

  bool splittable(const Leaf& leaf) const {
    if (limits_.max_depth > 0 && leaf.depth >= limits_.max_depth) return false;
    if (leaf.sums.n < 2 * limits_.min_samples_leaf) return false;
    return to_h(leaf.sums) >= 2.0 * limits_.min_child_weight;
  }

  double leaf_value(const Sums& s) const {
    return -limits_.learning_rate * (static_cast<double>(s.g) * g_inv_) / (to_h(s) + limits_.lambda);
  }

  std::vector<std::uint32_t>& order() {
    return order_;
  }
  const BinnedColumns& binned() const {
    return binned_;
  }

 private:
  static constexpr bool kUnit = std::is_same_v<Entry, UnitEntry>;

  static void add_slot(Sums& s, const Entry& e) {
    s.g += e.g;
    s.h += e.hessian();
    s.n += e.n;
  }
  static Sums minus(const Sums& a, const Sums& b) {
    return Sums{a.g - b.g, a.h - b.h, a.n - b.n};
  }

  /// The best candidate of one direction so far: the first of the largest scores above the floor it starts at.
  struct Candidate {
    double score;
    int bin = -1;
    void offer(double s, int b) {
      const bool better = s > score;
      score = better ? s : score;
      bin = better ? b : bin;
    }
  };

  /// G_L²/(H_L+λ) + G_R²/(H_R+λ), or −∞ when a side breaks a leaf limit.
  double children_score(const Sums& left, const Sums& right) const {
    constexpr double kNone = -std::numeric_limits<double>::infinity();
    const double gl = static_cast<double>(left.g) * g_inv_, gr = static_cast<double>(right.g) * g_inv_;
    if constexpr (kUnit) {
      if (left.n < min_rows_) return kNone;
      return gl * gl * reciprocal_[static_cast<std::size_t>(left.n)] +
             gr * gr * reciprocal_[static_cast<std::size_t>(right.n)];
    } else {
      const double hl = static_cast<double>(left.h) * h_inv_, hr = static_cast<double>(right.h) * h_inv_;
      if (left.n < min_rows_ || hl < limits_.min_child_weight || hr < limits_.min_child_weight) return kNone;
      return gl * gl / (hl + limits_.lambda) + gr * gr / (hr + limits_.lambda);
    }
  }

  /// The part of order[begin, end) in this member's row blocks. A leaf's rows stay in ascending order (the root's
  /// are 0..n−1 and partition() is stable), so that part is one contiguous range.
  std::pair<std::uint32_t, std::uint32_t> own_rows(std::uint32_t begin, std::uint32_t end) const {
    const auto n = static_cast<std::size_t>(binned_.rows);
    const auto [first_block, last_block] =
        contiguous_share((n + kRowBlock - 1) / kRowBlock, group_->rank(), group_->size());
    const auto lo = static_cast<std::uint32_t>(first_block * kRowBlock);
    const auto hi = static_cast<std::uint32_t>(std::min(n, last_block * kRowBlock));
    const auto* from = order_.data() + begin;
    const auto* to = order_.data() + end;
    return {static_cast<std::uint32_t>(std::lower_bound(from, to, lo) - order_.data()),
            static_cast<std::uint32_t>(std::lower_bound(from, to, hi) - order_.data())};
  }

  /// hist ← the sum of every member's hist over the allowed columns (packed into one buffer of integers).
  void sum_over_group(Entry* hist) {
    constexpr std::size_t kWords = sizeof(Entry) / sizeof(std::int64_t);
    static_assert(sizeof(Entry) == kWords * sizeof(std::int64_t), "an Entry is whole int64 words");
    static_assert(std::is_trivially_copyable_v<Entry>);
    packed_.clear();
    for (int col : allowed_) {
      const auto c = static_cast<std::size_t>(col);
      const std::size_t at = packed_.size(), slots = offset_[c + 1] - offset_[c];
      packed_.resize(at + slots * kWords);
      std::memcpy(packed_.data() + at, hist + offset_[c], slots * sizeof(Entry));
    }
    group_->allreduce_sum(packed_);
    std::size_t at = 0;
    for (int col : allowed_) {
      const auto c = static_cast<std::size_t>(col);
      const std::size_t slots = offset_[c + 1] - offset_[c];
      std::memcpy(static_cast<void*>(hist + offset_[c]), packed_.data() + at, slots * sizeof(Entry));
      at += slots * kWords;
    }
  }

  int take_histogram() {
    if (!free_.empty()) {
      const int id = free_.back();
      free_.pop_back();
      return id;
    }
    pool_.emplace_back(offset_.back());
    return static_cast<int>(pool_.size()) - 1;
  }

  const BinnedColumns& binned_;
  GrowLimits limits_;
  int threads_;
  const FitGroup* group_;                      ///< nullptr: fit alone
  bool by_columns_, by_rows_;                  ///< how the group shares the fit (HgbGroupSplit)
  std::pair<std::size_t, std::size_t> share_;  ///< positions in allowed_ this member scans
  std::vector<std::int64_t> packed_;
  const QuantizedGradients* grad_ = nullptr;
  std::span<const int> allowed_;
  bool contiguous_ = false;
  double g_inv_ = 1.0, h_inv_ = 1.0;
  std::int64_t min_rows_ = 1;
  std::vector<double> reciprocal_;  ///< 1/(k + λ): the unit-hessian scan multiplies instead of dividing
  std::vector<std::size_t> offset_;
  std::vector<std::vector<Entry>> pool_;
  std::vector<int> free_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> scratch_;
  std::vector<std::int64_t> ordered_g_, ordered_h_;
  std::vector<SplitChoice> per_column_;
};

}  // namespace bfs::hgb::growth

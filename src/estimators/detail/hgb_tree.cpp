#include "estimators/detail/hgb_tree.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>
#include <type_traits>

#include "core/byte_codec.hpp"
#include "core/error.hpp"
#include "core/share.hpp"

namespace bfs::hgb {

namespace {

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
double fixed_point_scale(double max_abs, int bits) {
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
  Grower(const BinnedColumns& binned, const GrowLimits& limits, int threads, const FitGroup* group)
      : binned_(binned), limits_(limits), threads_(threads), group_(group) {
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
    contiguous_ = allowed.size() == static_cast<std::size_t>(binned_.cols());
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

  /// A fresh histogram of order[begin, end) over the allowed columns; returns its pool index. In a fit group each
  /// member adds only the rows of its row blocks and an allreduce sums the members' histograms.
  int build_histogram(std::uint32_t begin, std::uint32_t end) {
    const int id = take_histogram();
    Entry* hist = pool_[static_cast<std::size_t>(id)].data();
    if (group_ != nullptr) std::tie(begin, end) = own_rows(begin, end);
    const std::uint32_t* rows = order_.data() + begin;
    const auto count = static_cast<std::ptrdiff_t>(end - begin);
    ordered_g_.resize(static_cast<std::size_t>(count));
    ordered_h_.resize(kUnit ? 0 : static_cast<std::size_t>(count));
    for (std::ptrdiff_t i = 0; i < count; ++i) ordered_g_[i] = grad_->g[rows[i]];
    if constexpr (!kUnit)
      for (std::ptrdiff_t i = 0; i < count; ++i) ordered_h_[i] = grad_->h[rows[i]];
    const std::int64_t* og = ordered_g_.data();
    const std::int64_t* oh = ordered_h_.data();
    const auto features = static_cast<std::ptrdiff_t>(allowed_.size());
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 8) if (threads_ > 1 && count * features > 50000)
    for (std::ptrdiff_t k = 0; k < features; ++k) {
      const auto c = static_cast<std::size_t>(allowed_[static_cast<std::size_t>(k)]);
      Entry* h = hist + offset_[c];
      std::fill(h, hist + offset_[c + 1], Entry{});
      const std::uint8_t* codes = binned_.column(static_cast<Index>(c));
      for (std::ptrdiff_t i = 0; i < count; ++i) h[codes[rows[i]]].add(og[i], kUnit ? 1 : oh[i]);
    }
    if (group_ != nullptr) sum_over_group(hist);
    return id;
  }

  /// parent −= child over the allowed columns: the parent's histogram becomes the sibling's.
  void subtract(int parent, int child) {
    Entry* p = pool_[static_cast<std::size_t>(parent)].data();
    const Entry* c = pool_[static_cast<std::size_t>(child)].data();
    if (contiguous_) {
      for (std::size_t s = 0; s < offset_.back(); ++s) p[s].subtract(c[s]);
      return;
    }
    for (int col : allowed_)
      for (std::size_t s = offset_[static_cast<std::size_t>(col)]; s < offset_[static_cast<std::size_t>(col) + 1]; ++s)
        p[s].subtract(c[s]);
  }

  void release(int id) {
    if (id >= 0) free_.push_back(id);
  }

  /// The best split of one column: the largest children's score G_L²/(H_L+λ) + G_R²/(H_R+λ) above `floor`.
  /// An empty bin repeats the previous bin's candidate, which keeps the earlier one (strict >), so every bin is
  /// scored without a data-dependent branch.
  SplitChoice scan_column(const Entry* h, int value_bins, const Sums& node, double floor) const {
    SplitChoice best;
    const Entry& nan = h[value_bins];
    const int last = nan.n > 0 ? value_bins : value_bins - 1;  // value_bins − 1 = split on NaN
    double best_score = floor;
    int best_bin = -1;
    bool best_nan_left = false;
    const auto pass = [&](Sums left, int end, bool nan_left) {
      for (int b = 0; b < end; ++b) {
        left.g += h[b].g;
        left.h += h[b].hessian();
        left.n += h[b].n;
        const Sums right{node.g - left.g, node.h - left.h, node.n - left.n};
        if (right.n < min_rows_) break;  // the right side only shrinks from here
        const double children = children_score(left, right);
        const bool better = children > best_score;
        best_score = better ? children : best_score;
        best_bin = better ? b : best_bin;
        best_nan_left = better ? nan_left : best_nan_left;
      }
    };
    pass(Sums{}, last, false);
    if (nan.n > 0) pass(Sums{nan.g, nan.hessian(), nan.n}, value_bins - 1, true);
    if (best_bin < 0) return best;
    return SplitChoice{best_score - floor, 0, best_bin, best_nan_left};
  }

  SplitChoice find_split(int hist_id, const Sums& node) {
    const Entry* hist = pool_[static_cast<std::size_t>(hist_id)].data();
    const double node_score = score(node);
    const auto features = static_cast<std::ptrdiff_t>(allowed_.size());
    per_column_.assign(static_cast<std::size_t>(features), SplitChoice{});
    // In a fit group each member scans its share of the columns; the shares are then exchanged.
    const auto [first, last] = group_ != nullptr ? contiguous_share(allowed_.size(), group_->rank(), group_->size())
                                                 : std::pair<std::size_t, std::size_t>{0, allowed_.size()};
#pragma omp parallel for num_threads(threads_) schedule(static) if (threads_ > 1 && features > 64)
    for (auto k = static_cast<std::ptrdiff_t>(first); k < static_cast<std::ptrdiff_t>(last); ++k) {
      const int c = allowed_[static_cast<std::size_t>(k)];
      SplitChoice s = scan_column(hist + offset_[static_cast<std::size_t>(c)], binned_.value_bins(c), node, node_score);
      if (s.feature >= 0) s.feature = c;
      per_column_[static_cast<std::size_t>(k)] = s;
    }
    if (group_ != nullptr) exchange_choices(first, last);
    SplitChoice best;
    for (const SplitChoice& s : per_column_)
      if (s.feature >= 0 && s.gain > best.gain) best = s;  // first column wins ties
    return best;
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

  /// Every member's per-column best splits of columns [first, last) of allowed to every member.
  void exchange_choices(std::size_t first, std::size_t last) {
    ByteWriter writer;
    for (std::size_t k = first; k < last; ++k) {
      const SplitChoice& s = per_column_[k];
      writer.put(s.gain);
      writer.put(static_cast<std::int32_t>(s.feature));
      writer.put(static_cast<std::int32_t>(s.bin));
      writer.put(static_cast<std::uint8_t>(s.nan_left ? 1 : 0));
    }
    const std::vector<std::string> shares = group_->allgather(writer.take());
    for (int member = 0; member < group_->size(); ++member) {
      const auto [from, to] = contiguous_share(allowed_.size(), member, group_->size());
      ByteReader reader(shares[static_cast<std::size_t>(member)], "hgb: a fit group member's split scans");
      for (std::size_t k = from; k < to; ++k) {
        SplitChoice& s = per_column_[k];
        s.gain = reader.get<double>();
        s.feature = reader.get<std::int32_t>();
        s.bin = reader.get<std::int32_t>();
        s.nan_left = reader.get<std::uint8_t>() != 0;
      }
      reader.finish();
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
  const FitGroup* group_;  ///< nullptr: fit alone
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

std::int32_t add_leaf_node(FlatTree& tree) {
  tree.feature.push_back(-1);
  tree.threshold.push_back(0.0f);
  tree.left.push_back(-1);
  tree.right.push_back(-1);
  tree.default_left.push_back(0);
  tree.value.push_back(0.0);
  return static_cast<std::int32_t>(tree.feature.size()) - 1;
}

/// Finds the leaf's split when it may split (its histogram is then needed), else frees the histogram.
template <class G>
void prepare_leaf(G& grower, Leaf& leaf) {
  leaf.split = leaf.hist >= 0 && grower.splittable(leaf) ? grower.find_split(leaf.hist, leaf.sums) : SplitChoice{};
  if (leaf.split.feature < 0) {
    grower.release(leaf.hist);
    leaf.hist = -1;
  }
}

/// Turns leaf into an internal node of tree and returns its two children, histograms and splits prepared.
template <class G>
std::pair<Leaf, Leaf> split_leaf(G& grower, FlatTree& tree, Leaf& leaf) {
  const SplitChoice& s = leaf.split;
  const auto node = static_cast<std::size_t>(leaf.node);
  const auto& edges = grower.binned().edges[static_cast<std::size_t>(s.feature)];
  tree.feature[node] = s.feature;
  tree.threshold[node] = s.bin < static_cast<int>(edges.size()) ? edges[static_cast<std::size_t>(s.bin)]
                                                                : std::numeric_limits<float>::infinity();
  tree.default_left[node] = s.nan_left ? 1 : 0;
  Leaf left, right;
  left.node = add_leaf_node(tree);
  right.node = add_leaf_node(tree);
  tree.left[node] = left.node;
  tree.right[node] = right.node;
  left.depth = right.depth = leaf.depth + 1;
  left.sums = grower.left_sums(leaf.hist, s);
  right.sums = Sums{leaf.sums.g - left.sums.g, leaf.sums.h - left.sums.h, leaf.sums.n - left.sums.n};
  const std::uint32_t mid = grower.partition(leaf);
  BFS_CHECK(static_cast<std::int64_t>(mid - leaf.begin) == left.sums.n, "hgb: partition disagrees with histogram");
  left.begin = leaf.begin;
  left.end = right.begin = mid;
  right.end = leaf.end;
  if (grower.splittable(left) || grower.splittable(right)) {
    Leaf& smaller = left.sums.n <= right.sums.n ? left : right;
    Leaf& larger = left.sums.n <= right.sums.n ? right : left;
    smaller.hist = grower.build_histogram(smaller.begin, smaller.end);
    grower.subtract(leaf.hist, smaller.hist);
    larger.hist = leaf.hist;
  } else {
    grower.release(leaf.hist);
  }
  leaf.hist = -1;
  prepare_leaf(grower, left);
  prepare_leaf(grower, right);
  return {left, right};
}

/// The open leaf of largest gain, the earliest node on ties; −1 when none may split.
int next_leaf(const std::vector<Leaf>& leaves) {
  int next = -1;
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    const Leaf& leaf = leaves[k];
    if (leaf.split.feature < 0) continue;
    const Leaf* best = next < 0 ? nullptr : &leaves[static_cast<std::size_t>(next)];
    if (best == nullptr || leaf.split.gain > best->split.gain ||
        (leaf.split.gain == best->split.gain && leaf.node < best->node))
      next = static_cast<int>(k);
  }
  return next;
}

template <class G>
FlatTree grow_with(G& grower, const QuantizedGradients& grad, std::span<const int> allowed, const GrowLimits& limits,
                   std::span<double> margin) {
  BFS_CHECK(static_cast<Index>(grad.g.size()) == grower.binned().rows, "hgb: gradients and rows differ");
  grower.start(grad, allowed);
  FlatTree tree;
  tree.reserve(2 * static_cast<std::size_t>(limits.max_leaves));
  Leaf root;
  root.node = add_leaf_node(tree);
  root.end = static_cast<std::uint32_t>(grower.binned().rows);
  root.sums = grower.sums_of(root.begin, root.end);
  if (grower.splittable(root)) root.hist = grower.build_histogram(root.begin, root.end);
  prepare_leaf(grower, root);
  std::vector<Leaf> leaves{root};
  while (static_cast<int>(leaves.size()) < limits.max_leaves) {
    const int next = next_leaf(leaves);
    if (next < 0) break;
    auto [left, right] = split_leaf(grower, tree, leaves[static_cast<std::size_t>(next)]);
    leaves[static_cast<std::size_t>(next)] = left;
    leaves.push_back(right);
  }
  const auto& order = grower.order();
  for (Leaf& leaf : leaves) {
    grower.release(leaf.hist);
    const double value = grower.leaf_value(leaf.sums);
    tree.value[static_cast<std::size_t>(leaf.node)] = value;
    for (std::uint32_t i = leaf.begin; i < leaf.end; ++i) margin[order[i]] += value;
  }
  return tree;
}

}  // namespace

QuantizedGradients quantize(std::span<const double> g, std::span<const double> h) {
  BFS_CHECK(g.size() == h.size(), "hgb: gradient and hessian sizes differ");
  QuantizedGradients q;
  const int bits = 61 - static_cast<int>(std::bit_width(g.size() + 1));
  double max_g = 0.0, max_h = 0.0;
  bool unit = true;
  for (std::size_t i = 0; i < g.size(); ++i) {
    max_g = std::max(max_g, std::abs(g[i]));
    max_h = std::max(max_h, std::abs(h[i]));
    unit = unit && h[i] == 1.0;
  }
  q.g_scale = fixed_point_scale(max_g, bits);
  q.g.resize(g.size());
  for (std::size_t i = 0; i < g.size(); ++i) q.g[i] = std::llround(g[i] * q.g_scale);
  if (!unit) {  // an empty h means "all 1": H is then the row count
    q.h_scale = fixed_point_scale(max_h, bits);
    q.h.resize(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) q.h[i] = std::llround(h[i] * q.h_scale);
  }
  return q;
}

struct TreeBuilder::State {
  State(const BinnedColumns& binned, const GrowLimits& limits, int threads, const FitGroup* group)
      : limits(limits), unit(binned, limits, threads, group), full(binned, limits, threads, group) {}
  GrowLimits limits;
  Grower<UnitEntry> unit;
  Grower<FullEntry> full;
};

TreeBuilder::TreeBuilder(const BinnedColumns& binned, const GrowLimits& limits, int threads, const FitGroup* group)
    : state_(std::make_unique<State>(binned, limits, threads, group)) {}
TreeBuilder::~TreeBuilder() = default;

FlatTree TreeBuilder::grow(const QuantizedGradients& grad, std::span<const int> allowed, std::span<double> margin) {
  if (grad.h.empty()) return grow_with(state_->unit, grad, allowed, state_->limits, margin);
  return grow_with(state_->full, grad, allowed, state_->limits, margin);
}

SplitChoice best_split_of_rows(const BinnedColumns& binned, const QuantizedGradients& grad,
                               std::span<const std::uint32_t> rows, const GrowLimits& limits) {
  std::vector<int> all(static_cast<std::size_t>(binned.cols()));
  std::iota(all.begin(), all.end(), 0);
  const auto end = static_cast<std::uint32_t>(rows.size());
  const auto scan = [&](auto& grower) {
    grower.start(grad, all);
    std::copy(rows.begin(), rows.end(), grower.order().begin());
    const Sums sums = grower.sums_of(0, end);
    return grower.find_split(grower.build_histogram(0, end), sums);
  };
  if (grad.h.empty()) {
    Grower<UnitEntry> grower(binned, limits, 1, nullptr);
    return scan(grower);
  }
  Grower<FullEntry> grower(binned, limits, 1, nullptr);
  return scan(grower);
}

}  // namespace bfs::hgb

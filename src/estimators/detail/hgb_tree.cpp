#include "estimators/detail/hgb_tree.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "core/error.hpp"
#include "estimators/detail/hgb_grower.hpp"

namespace bfs::hgb {

namespace {

using growth::FullEntry;
using growth::Grower;
using growth::Leaf;
using growth::Sums;
using growth::UnitEntry;

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

/// Per column of the binned rows, 1 when one of them is missing; empty when none is (no column has a missing bin)
/// and the table has no missing cell either (data_has_missing: all zeros, so every split takes the larger child).
std::vector<std::uint8_t> missing_seen(const BinnedColumns& binned, bool data_has_missing) {
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(binned.cols()), 0);
  bool any = false;
  for (Index c = 0; c < binned.cols(); ++c) {
    const void* found = std::memchr(binned.column(c), binned.nan_code(c), static_cast<std::size_t>(binned.rows));
    seen[static_cast<std::size_t>(c)] = found != nullptr ? 1 : 0;
    any = any || found != nullptr;
  }
  if (!any && !data_has_missing) seen.clear();
  return seen;
}

/// Turns leaf into an internal node of tree and returns its two children, histograms and splits prepared.
/// missing: missing_seen() of the training rows.
template <class G>
std::pair<Leaf, Leaf> split_leaf(G& grower, FlatTree& tree, Leaf& leaf, const std::vector<std::uint8_t>& missing) {
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
  const std::uint32_t mid = grower.partition(leaf);
  left.sums = grower.left_sums(leaf, mid);
  right.sums = Sums{leaf.sums.g - left.sums.g, leaf.sums.h - left.sums.h, leaf.sums.n - left.sums.n};
  // A column without a missing training row: missing cells at prediction go to the child with more training rows
  // (scikit-learn's TreeGrower.split_next). Complete training rows of a complete table keep "right", as they always
  // did (missing is empty then).
  if (!missing.empty() && missing[static_cast<std::size_t>(s.feature)] == 0)
    tree.default_left[node] = left.sums.n > right.sums.n ? 1 : 0;
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
                   const std::vector<std::uint8_t>& missing, std::span<double> margin) {
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
    auto [left, right] = split_leaf(grower, tree, leaves[static_cast<std::size_t>(next)], missing);
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
  q.g_scale = growth::fixed_point_scale(max_g, bits);
  q.g.resize(g.size());
  for (std::size_t i = 0; i < g.size(); ++i) q.g[i] = std::llround(g[i] * q.g_scale);
  if (!unit) {  // an empty h means "all 1": H is then the row count
    q.h_scale = growth::fixed_point_scale(max_h, bits);
    q.h.resize(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) q.h[i] = std::llround(h[i] * q.h_scale);
  }
  return q;
}

struct TreeBuilder::State {
  State(const BinnedColumns& binned, const GrowLimits& limits, int threads, const FitGroup* group, HgbGroupSplit split,
        bool data_has_missing)
      : limits(limits),
        missing(missing_seen(binned, data_has_missing)),
        unit(binned, limits, threads, group, split),
        full(binned, limits, threads, group, split) {}
  GrowLimits limits;
  std::vector<std::uint8_t> missing;  ///< missing_seen() of the training rows
  Grower<UnitEntry> unit;
  Grower<FullEntry> full;
};

TreeBuilder::TreeBuilder(const BinnedColumns& binned, const GrowLimits& limits, int threads, const FitGroup* group,
                         HgbGroupSplit split, bool data_has_missing)
    : state_(std::make_unique<State>(binned, limits, threads, group, split, data_has_missing)) {}
TreeBuilder::~TreeBuilder() = default;

FlatTree TreeBuilder::grow(const QuantizedGradients& grad, std::span<const int> allowed, std::span<double> margin) {
  if (grad.h.empty()) return grow_with(state_->unit, grad, allowed, state_->limits, state_->missing, margin);
  return grow_with(state_->full, grad, allowed, state_->limits, state_->missing, margin);
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
    Grower<UnitEntry> grower(binned, limits, 1, nullptr, HgbGroupSplit::Columns);
    return scan(grower);
  }
  Grower<FullEntry> grower(binned, limits, 1, nullptr, HgbGroupSplit::Columns);
  return scan(grower);
}

}  // namespace bfs::hgb

// The index build of the exact tree fast path (see tree_importance.cpp for the algorithm, detail/tree_index.hpp
// for the layout).

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/error.hpp"
#include "estimators/tree_ensemble.hpp"
#include "importance/detail/tree_index.hpp"
#include "importance/fast_paths.hpp"
#include "importance/metrics.hpp"

namespace bfs::detail::tree_index {

namespace {

/// Copies the ensemble into the compact node array, children adjacent (depth-first, so a subtree stays close).
void flatten(const TreeEnsemble& ensemble, TreeIndex& index) {
  std::vector<std::pair<std::int32_t, std::int32_t>> stack;  // (node of the FlatTree, its global index)
  for (const FlatTree& tree : ensemble.trees) {
    const auto base = static_cast<std::int32_t>(index.nodes.size());
    index.root.push_back(base);
    index.nodes.emplace_back();
    index.default_left.push_back(0);
    stack.assign(1, {0, base});
    while (!stack.empty()) {
      const auto [k, at] = stack.back();
      stack.pop_back();
      Node& nd = index.nodes[at];
      nd.threshold = tree.threshold[k];
      index.default_left[at] = tree.default_left[k];
      if (tree.feature[k] < 0) {
        nd.feature = -1;
        nd.value = tree.value[k];
        continue;
      }
      nd.feature = tree.feature[k];
      const auto left = static_cast<std::int32_t>(index.nodes.size());
      nd.left = left;  // nd is not used past this point: the emplace_back below may move the array
      index.nodes.emplace_back();
      index.nodes.emplace_back();
      index.default_left.push_back(0);
      index.default_left.push_back(0);
      stack.push_back({tree.right[k], left + 1});
      stack.push_back({tree.left[k], left});
    }
  }
}

/// Rows per block of the index build: within a block the trees are walked one after another, so a tree's nodes stay
/// in cache across the block's rows; blocks run in parallel (a row's counts, cursors, leaves and entries are its
/// own, so there are no races and the index does not depend on the thread count).
constexpr Index kRowBlock = 64;

/// Calls visit(i, t, row) for every (test row i, tree t) in row blocks of kRowBlock: trees outer within a block.
template <class Visit>
void for_each_row_tree(const TreeIndex& index, const Matrix& X, int threads, Visit&& visit) {
  const Index n = X.rows(), p = X.cols();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1 && n > kRowBlock)
  for (Index i0 = 0; i0 < n; i0 += kRowBlock) {
    const Index i1 = std::min(n, i0 + kRowBlock);
    for (std::size_t t = 0; t < index.T; ++t)
      for (Index i = i0; i < i1; ++i) visit(i, t, X.data() + i * p);
  }
}

/// Walks down from `node` following `row` to a leaf or the next node that splits on column f.
template <bool Strict>
std::int32_t descend_to_column(const TreeIndex& index, std::int32_t node, const float* row, std::int32_t f) {
  while (index.nodes[node].feature >= 0 && index.nodes[node].feature != f) {
    const Node& o = index.nodes[node];
    node = o.left + (goes_left<Strict>(index, node, row[o.feature], o.threshold) ? 0 : 1);
  }
  return node;
}

/// First pass over every (row, tree): the leaf values, and how many nodes of row i's path split on column c
/// (count[c·n + i]).
template <bool Strict>
void count_paths(TreeIndex& index, const Matrix& X, std::int64_t* count, int threads) {
  const Index n = X.rows();
  for_each_row_tree(index, X, threads, [&](Index i, std::size_t t, const float* row) {
    std::int32_t node = index.root[t];
    while (index.nodes[node].feature >= 0) {
      const Node& nd = index.nodes[node];
      ++count[nd.feature * n + i];
      node = nd.left + (goes_left<Strict>(index, node, row[nd.feature], nd.threshold) ? 0 : 1);
    }
    index.leaf[static_cast<std::size_t>(i) * index.T + t] = index.nodes[node].value;
  });
}

/// Second pass, same order: writes each path node at cursor[c·n + i]++, which sorts every column's list by (row,
/// tree, node), and resolves its single-column memo: the walk below the node in the other direction, following
/// the row, down to a leaf or the next node on the same column (done here while the tree is in cache; nearly every
/// entry flips in some repeat).
template <bool Strict>
void fill_paths(TreeIndex& index, const Matrix& X, std::int64_t* cursor, int threads) {
  const Index n = X.rows();
  for_each_row_tree(index, X, threads, [&](Index i, std::size_t t, const float* row) {
    const double old_leaf = index.leaf[static_cast<std::size_t>(i) * index.T + t];
    std::int32_t node = index.root[t];
    while (index.nodes[node].feature >= 0) {
      const Node& nd = index.nodes[node];
      const std::int32_t f = nd.feature;
      const bool left = goes_left<Strict>(index, node, row[f], nd.threshold);
      const std::int64_t at = cursor[f * n + i]++;
      index.flip_threshold[at] = nd.threshold;
      index.flip_left[at] = left ? -1 : 0;
      index.entries[at] = {static_cast<std::int32_t>(i), static_cast<std::int32_t>(t), 2 * node + (left ? 1 : 0),
                           nd.threshold};
      const std::int32_t other = descend_to_column<Strict>(index, nd.left + (left ? 1 : 0), row, f);
      // without a branch (whether the walk ends at a leaf is data dependent); memo_value is read only for a
      // leaf, so what an internal node's union yields there does not matter
      const Node& reached = index.nodes[other];
      const bool at_leaf = reached.feature < 0;
      const double reached_value = reached.value;
      index.memo_value[at] = reached_value;
      const std::int32_t leaf_code = reached_value == old_leaf ? kSameLeafValue : kLeaf;
      index.memo[at] = at_leaf ? leaf_code : other;
      if (!at_leaf) {  // both ways on from the node on the column the memo stops at
        for (std::int32_t d = 0; d < 2; ++d) {
          const std::int32_t next = descend_to_column<Strict>(index, reached.left + d, row, f);
          const Node& end = index.nodes[next];
          index.resume_value[2 * at + d] = end.value;  // read only for a leaf
          index.resume_next[2 * at + d] = end.feature < 0 ? kLeaf : next;
        }
      }
      node = nd.left + (left ? 0 : 1);
    }
  });
}

}  // namespace

/// tree_end of a list sorted by (row, tree, node): for each entry, the index just past its (row, tree) run.
void fill_tree_end(std::span<const PathEntry> entries, std::int32_t* tree_end) {
  auto end = static_cast<std::int32_t>(entries.size());
  for (std::size_t e = entries.size(); e-- > 0;) {
    if (e + 1 < entries.size() && (entries[e + 1].row != entries[e].row || entries[e + 1].tree != entries[e].tree)) {
      end = static_cast<std::int32_t>(e + 1);
    }
    tree_end[e] = end;
  }
}

/// Builds the index; false when neither summation (or both) reproduces y_hat exactly, or the ensemble is too big.
bool build_index(const TreeEnsemble& ensemble, const Matrix& X, const Vector& y_hat, TreeIndex& index, int threads) {
  index.n = X.rows();
  index.p = X.cols();
  index.T = ensemble.trees.size();
  index.strict_less = ensemble.strict_less;
  index.nodes.clear();  // flatten appends; everything else below is resized and overwritten
  index.default_left.clear();
  index.root.clear();
  flatten(ensemble, index);
  if (index.nodes.size() >= (std::size_t{1} << 30)) return false;  // PathEntry::step holds 2·node in an int32
  // Scratch::touched holds row·T + tree in an int32
  if (static_cast<double>(X.rows()) * static_cast<double>(ensemble.trees.size()) >
      std::numeric_limits<std::int32_t>::max()) {
    return false;
  }
  const Index n = index.n;
  const std::size_t T = index.T;
  index.leaf.resize(static_cast<std::size_t>(n) * T);
  std::vector<std::int64_t> count(static_cast<std::size_t>(index.p * n), 0);  // per (column, row)
  if (index.strict_less) {
    count_paths<true>(index, X, count.data(), threads);
  } else {
    count_paths<false>(index, X, count.data(), threads);
  }

  // Which summation (then the link in the same precision) reproduces the model's own predictions?
  const auto base_float = static_cast<float>(ensemble.base_score);
  bool double_ok = true;
  bool float_ok = ensemble.scale == 1.0 && static_cast<double>(base_float) == ensemble.base_score;
  for (Index i = 0; i < n && (double_ok || float_ok); ++i) {
    const double* v = index.leaf.data() + static_cast<std::size_t>(i) * T;
    double sum = 0.0;
    float acc = base_float;
    for (std::size_t t = 0; t < T; ++t) {
      sum += v[t];
      acc += static_cast<float>(v[t]);
    }
    double_ok = double_ok && finish_double(ensemble, sum) == y_hat[i];
    float_ok = float_ok && finish_float(ensemble, acc) == y_hat[i];
  }
  // Neither, or both (nothing was rounded, so the unpermuted rows cannot tell them apart): the general path.
  if (double_ok == float_ok) return false;
  index.summation = double_ok ? Summation::Double : Summation::Float32;
  if (index.summation == Summation::Double) {
    index.prefix_double.resize(index.leaf.size());
  } else {
    index.prefix_float.resize(index.leaf.size());
  }
  for (Index i = 0; i < n; ++i) {
    const std::size_t at = static_cast<std::size_t>(i) * T;
    double sum = 0.0;
    float acc = base_float;
    for (std::size_t t = 0; t < T; ++t) {
      if (index.summation == Summation::Double) {
        index.prefix_double[at + t] = sum += index.leaf[at + t];
      } else {
        index.prefix_float[at + t] = acc += static_cast<float>(index.leaf[at + t]);
      }
    }
  }

  index.offset.assign(static_cast<std::size_t>(index.p) + 1, 0);
  std::vector<std::int64_t> cursor(count.size());
  index.row_start.resize(static_cast<std::size_t>(index.p * (n + 1)));
  std::int64_t total = 0;
  for (Index c = 0; c < index.p; ++c) {
    for (Index i = 0; i < n; ++i) {
      cursor[c * n + i] = total;
      // relative to the column's list; checked to fit an int32 just below
      index.row_start[static_cast<std::size_t>(c * (n + 1) + i)] = static_cast<std::int32_t>(total - index.offset[c]);
      total += count[c * n + i];
    }
    index.offset[c + 1] = total;
    // tree_end and row_start are relative to the column's list, in an int32
    if (total - index.offset[c] > std::numeric_limits<std::int32_t>::max()) return false;
    index.row_start[static_cast<std::size_t>(c * (n + 1) + n)] = static_cast<std::int32_t>(total - index.offset[c]);
  }
  index.entries.resize(static_cast<std::size_t>(total));
  index.memo.resize(static_cast<std::size_t>(total));
  index.memo_value.resize(static_cast<std::size_t>(total));
  index.resume_next.resize(2 * static_cast<std::size_t>(total));
  index.resume_value.resize(2 * static_cast<std::size_t>(total));
  index.flip_threshold.assign(static_cast<std::size_t>(total) + TreeIndex::kPad, 0.0f);
  index.flip_left.assign(static_cast<std::size_t>(total) + TreeIndex::kPad, 0);
  if (index.strict_less) {
    fill_paths<true>(index, X, cursor.data(), threads);
  } else {
    fill_paths<false>(index, X, cursor.data(), threads);
  }
  index.tree_end.resize(index.entries.size());
  for (Index c = 0; c < index.p; ++c) {
    const auto size = static_cast<std::size_t>(index.offset[c + 1] - index.offset[c]);
    fill_tree_end(std::span<const PathEntry>(index.entries.data() + index.offset[c], size),
                  index.tree_end.data() + index.offset[c]);
  }
  return true;
}

}  // namespace bfs::detail::tree_index

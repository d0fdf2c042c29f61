#pragma once
// The per-arm index of the exact tree fast path (tree_importance.cpp): a compact copy of the trees and, per column,
// the path entries of every (test row, tree) that meet it, with the walkers that use it. Internal to src/importance;
// split out of tree_importance.cpp to keep each file short (see there for the algorithm).
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"

namespace bfs::detail::tree_index {

/// Codes of a memo slot (TreeIndex::memo_next / resume_next) that are not a node id.
constexpr std::int32_t kUnknown = -1, kLeaf = -2, kSameLeafValue = -3;

/// A node of the arm's compact copy of the ensemble: all trees in one array, 16 bytes per node, so a walk touches
/// one cache line per level and finds the leaf value there too. Nodes are renumbered so that the two children of a
/// node are adjacent: right = left + 1, and a walk picks the child by arithmetic instead of a branch.
struct Node {
  std::int32_t feature;  ///< −1 for a leaf
  float threshold;
  union {
    std::int32_t left;  ///< internal node: global index of the left child (the right one follows it)
    double value;       ///< leaf: its value
  };
};
static_assert(sizeof(Node) == 16);

/// A node on a row's original path in one tree that splits on the entry's column: step = 2·node + went_left. The
/// threshold is copied here so that checking whether a permuted value turns the other way reads no node.
struct PathEntry {
  std::int32_t row;
  std::int32_t tree;
  std::int32_t step;
  float threshold;
};

/// How the model adds its trees up; see the file comment.
enum class Summation { Double, Float32 };

/// A prediction from the sum of the trees' leaf values in double (Summation::Double, as predict_ensemble):
/// apply_link(base_score + scale·sum).
inline double finish_double(const TreeEnsemble& ensemble, double sum) {
  return apply_link(ensemble.link, ensemble.base_score + ensemble.scale * sum);
}
/// A prediction from XGBoost's float32 margin (Summation::Float32, base_score already in it): the margin, or
/// XGBoost's float32 sigmoid of it for a logistic ensemble (binary:logistic's PredTransform).
inline double finish_float(const TreeEnsemble& ensemble, float margin) {
  return static_cast<double>(ensemble.link == Link::Logistic ? xgboost_sigmoid(margin) : margin);
}

/// The per-arm precomputation.
struct TreeIndex {
  Index n = 0, p = 0;
  std::size_t T = 0;
  bool strict_less = false;
  std::vector<Node> nodes;
  std::vector<std::uint8_t> default_left;
  std::vector<std::int32_t> root;      ///< global index of each tree's root
  std::vector<double> leaf;            ///< n × T leaf values, row-major
  std::vector<std::int64_t> offset;    ///< p + 1 offsets into entries (and tree_end)
  std::vector<PathEntry> entries;      ///< grouped by column, each sorted by (row, tree, node)
  std::vector<std::int32_t> tree_end;  ///< per entry: end of its (row, tree) run, relative to its column's list
  /// p × (n + 1): where row i's entries start in column c's list (row_start[c·(n + 1) + i], relative to the list)
  std::vector<std::int32_t> row_start;
  /// Per entry, for its column alone: where the walk below the node in the other direction resumes (the next node
  /// on the column), or kLeaf (the new leaf's value is in memo_value) or kSameLeafValue (same value as before).
  std::vector<std::int32_t> memo;
  std::vector<double> memo_value;
  /// One level further, for an entry whose memo stops at a node r on the same column: [2·entry + d] is where the
  /// walk below r's child d (0 left, 1 right) following the row resumes (the next node on the column) or kLeaf with
  /// the leaf's value in resume_value. Written only for such entries (about 1 in 10 at friedman scale): without it
  /// the walks below r were about a quarter of the time of the repeats.
  std::vector<std::int32_t> resume_next;
  std::vector<double> resume_value;
  /// Per entry, side by side for the flip test of a single column 4 entries at a time: its threshold, and −1 when
  /// the original path went left (else 0); kPad more at the end so a last group of 4 can be read whole.
  std::vector<float> flip_threshold;
  std::vector<std::int32_t> flip_left;
  static constexpr std::size_t kPad = 4;
  Summation summation = Summation::Double;
  std::vector<double> prefix_double;  ///< n × T running sums (Double)
  std::vector<float> prefix_float;    ///< n × T running sums (Float32)

  /// Bytes held by the vectors (their capacity).
  [[nodiscard]] std::size_t bytes() const {
    const auto held = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    return held(nodes) + held(default_left) + held(root) + held(leaf) + held(offset) + held(entries) + held(tree_end) +
           held(row_start) + held(memo) + held(memo_value) + held(resume_next) + held(resume_value) +
           held(flip_threshold) + held(flip_left) + held(prefix_double) + held(prefix_float);
  }
};

/// The index's storage is kept per calling thread from one call (arm) to the next, up to this size: at friedman
/// scale an index is about 2 MB, and allocating it afresh for every arm cost page faults (about 5% of importance).
constexpr std::size_t kKeepIndexBytes = std::size_t{64} << 20;

/// predict_tree()'s decision at one node: NaN follows the default direction, else x < t (strict) or x <= t.
template <bool Strict>
inline bool goes_left(const TreeIndex& index, std::int32_t node, float x, float t) {
  if (std::isnan(x)) [[unlikely]]
    return index.default_left[node] != 0;
  return Strict ? x < t : x <= t;
}

template <bool Single>
inline bool in_group(std::int32_t f, std::span<const Index> columns) {
  if constexpr (Single) {
    return f == columns[0];
  } else {
    return std::find(columns.begin(), columns.end(), f) != columns.end();
  }
}

/// Walks down from `node` to a leaf, reading the group's columns from `source` (the permuted row) and every other
/// column from `row`.
template <bool Strict, bool Single>
double walk_from(const TreeIndex& index, std::int32_t node, const float* row, const float* source,
                 std::span<const Index> columns) {
  for (;;) {
    const Node& nd = index.nodes[node];
    if (nd.feature < 0) return nd.value;
    const std::int32_t f = nd.feature;
    const float x = in_group<Single>(f, columns) ? source[f] : row[f];
    node = nd.left + (goes_left<Strict>(index, node, x, nd.threshold) ? 0 : 1);
  }
}

/// Walks down from `node` following `row` until a leaf or a node that splits on one of the group's columns: the
/// part of a walk that does not depend on the permutation.
template <bool Strict, bool Single>
std::int32_t walk_to_group(const TreeIndex& index, std::int32_t node, const float* row,
                           std::span<const Index> columns) {
  for (;;) {
    const Node& nd = index.nodes[node];
    if (nd.feature < 0 || in_group<Single>(nd.feature, columns)) return node;
    node = nd.left + (goes_left<Strict>(index, node, row[nd.feature], nd.threshold) ? 0 : 1);
  }
}

/// tree_end of a list sorted by (row, tree, node): for each entry, the index just past its (row, tree) run.
void fill_tree_end(std::span<const PathEntry> entries, std::int32_t* tree_end);
/// Builds the index; false when neither summation (or both) reproduces y_hat exactly, or the ensemble is too big.
bool build_index(const TreeEnsemble& ensemble, const Matrix& X, const Vector& y_hat, TreeIndex& index, int threads);

}  // namespace bfs::detail::tree_index

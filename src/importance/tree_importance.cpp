// Exact permutation importance for tree ensembles (paper 000 Algorithm 3; see fast_paths.hpp).
//
// Once per arm: a compact copy of the trees, the leaf value of every (test row, tree) and, per column c, the list of
// (row, tree, node, direction taken) for every node on the row's original path that splits on c, sorted by (row,
// tree, node). A permuted row follows its original path until the first of its group's nodes where its decision
// differs (everything else on the path reads other columns); only from there is it walked down, with the group's
// columns read from the permuted row. The part of that walk which reads only the row's own columns (down to a leaf
// or to the next node on the group) does not depend on the permutation: for single columns it is done once per
// entry while the index is built (tree by tree, so a tree's nodes stay in cache), for groups on an entry's first
// flip, and remembered. Rows whose group values equal the permuted ones (ties) are skipped, and a
// column no test row's path meets has importance exactly 0 without drawing its permutations.
// A row whose leaf values all stay put keeps its prediction; otherwise its prediction is re-summed from its first
// changed tree with the stored prefix sums, in the model's own summation order and precision (several rows side by
// side, which changes no rounding), which gives the permuted prediction bit for bit. The summation is identified by reproducing the unpermuted predictions exactly:
//  - Double: base_score + scale·(Σ_t tree_t in double, in tree order), as predict_ensemble (random forest);
//  - Float32: float(base_score) then += float(tree_t) in tree order, as XGBoost's CPU predictor (gbm).
// When neither (or, ambiguously, both) reproduces every baseline prediction the caller takes the general path.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "importance/fast_paths.hpp"
#include "importance/metrics.hpp"

namespace bfs {

namespace {

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

/// The per-arm precomputation.
struct TreeIndex {
  Index n = 0, p = 0;
  std::size_t T = 0;
  bool strict_less = false;
  std::vector<Node> nodes;
  std::vector<std::uint8_t> default_left;
  std::vector<std::int32_t> root;    ///< global index of each tree's root
  std::vector<double> leaf;          ///< n × T leaf values, row-major
  std::vector<std::int64_t> offset;  ///< p + 1 offsets into entries (and tree_end)
  std::vector<PathEntry> entries;    ///< grouped by column, each sorted by (row, tree, node)
  std::vector<std::int32_t> tree_end;  ///< per entry: end of its (row, tree) run, relative to its column's list
  /// Per entry, for its column alone: where the walk below the node in the other direction resumes (the next node
  /// on the column), or kLeaf (the new leaf's value is in memo_value) or kSameLeafValue (same value as before).
  std::vector<std::int32_t> memo;
  std::vector<double> memo_value;
  Summation summation = Summation::Double;
  std::vector<double> prefix_double;  ///< n × T running sums (Double)
  std::vector<float> prefix_float;    ///< n × T running sums (Float32)
};

/// predict_tree()'s decision at one node: NaN follows the default direction, else x < t (strict) or x <= t.
template <bool Strict>
inline bool goes_left(const TreeIndex& index, std::int32_t node, float x, float t) {
  if (std::isnan(x)) [[unlikely]] return index.default_left[node] != 0;
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

constexpr std::int32_t kUnknown = -1, kLeaf = -2, kSameLeafValue = -3;

/// Rows per block of the index build: within a block the trees are walked one after another, so a tree's nodes stay
/// in cache across the block's rows; blocks run in parallel (a row's counts, cursors, leaves and entries are its
/// own, so there are no races and the index does not depend on the thread count).
constexpr Index kRowBlock = 64;

/// First pass over every (row, tree): the leaf values, and how many nodes of row i's path split on column c
/// (count[c·n + i]).
template <bool Strict>
void count_paths(TreeIndex& index, const Matrix& X, std::int64_t* count, int threads) {
  const Index n = X.rows(), p = X.cols();
  const std::size_t T = index.T;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1 && n > kRowBlock)
  for (Index i0 = 0; i0 < n; i0 += kRowBlock) {
    const Index i1 = std::min(n, i0 + kRowBlock);
    for (std::size_t t = 0; t < T; ++t) {
      for (Index i = i0; i < i1; ++i) {
        const float* row = X.data() + i * p;
        std::int32_t node = index.root[t];
        while (index.nodes[node].feature >= 0) {
          const Node& nd = index.nodes[node];
          ++count[nd.feature * n + i];
          node = nd.left + (goes_left<Strict>(index, node, row[nd.feature], nd.threshold) ? 0 : 1);
        }
        index.leaf[static_cast<std::size_t>(i) * T + t] = index.nodes[node].value;
      }
    }
  }
}

/// Second pass, same order: writes each path node at cursor[c·n + i]++, which sorts every column's list by (row,
/// tree, node), and resolves its single-column memo: the walk below the node in the other direction, following
/// the row, down to a leaf or the next node on the same column (done here while the tree is in cache; nearly every
/// entry flips in some repeat).
template <bool Strict>
void fill_paths(TreeIndex& index, const Matrix& X, std::int64_t* cursor, int threads) {
  const Index n = X.rows(), p = X.cols();
  const std::size_t T = index.T;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1 && n > kRowBlock)
  for (Index i0 = 0; i0 < n; i0 += kRowBlock) {
    const Index i1 = std::min(n, i0 + kRowBlock);
    for (std::size_t t = 0; t < T; ++t) {
      for (Index i = i0; i < i1; ++i) {
        const float* row = X.data() + i * p;
        const double old_leaf = index.leaf[static_cast<std::size_t>(i) * T + t];
        std::int32_t node = index.root[t];
        while (index.nodes[node].feature >= 0) {
          const Node& nd = index.nodes[node];
          const std::int32_t f = nd.feature;
          const bool left = goes_left<Strict>(index, node, row[f], nd.threshold);
          const std::int64_t at = cursor[f * n + i]++;
          index.entries[at] = {static_cast<std::int32_t>(i), static_cast<std::int32_t>(t),
                               2 * node + (left ? 1 : 0), nd.threshold};
          std::int32_t other = nd.left + (left ? 1 : 0);
          while (index.nodes[other].feature >= 0 && index.nodes[other].feature != f) {
            const Node& o = index.nodes[other];
            other = o.left + (goes_left<Strict>(index, other, row[o.feature], o.threshold) ? 0 : 1);
          }
          if (index.nodes[other].feature < 0) {
            index.memo_value[at] = index.nodes[other].value;
            index.memo[at] = index.nodes[other].value == old_leaf ? kSameLeafValue : kLeaf;
          } else {
            index.memo[at] = other;
          }
          node = nd.left + (left ? 0 : 1);
        }
      }
    }
  }
}

/// tree_end of a list sorted by (row, tree, node): for each entry, the index just past its (row, tree) run.
void fill_tree_end(std::span<const PathEntry> entries, std::int32_t* tree_end) {
  auto end = static_cast<std::int32_t>(entries.size());
  for (std::size_t e = entries.size(); e-- > 0;) {
    if (e + 1 < entries.size() &&
        (entries[e + 1].row != entries[e].row || entries[e + 1].tree != entries[e].tree)) {
      end = static_cast<std::int32_t>(e + 1);
    }
    tree_end[e] = end;
  }
}

/// Builds the index; false when neither summation (or both) reproduces y_hat exactly, or the ensemble is too big.
bool build_index(const TreeEnsemble& ensemble, const Matrix& X, const Vector& y_hat, TreeIndex& index,
                 int threads) {
  index.n = X.rows();
  index.p = X.cols();
  index.T = ensemble.trees.size();
  index.strict_less = ensemble.strict_less;
  flatten(ensemble, index);
  if (index.nodes.size() >= (std::size_t{1} << 30)) return false;  // PathEntry::step holds 2·node in an int32
  const Index n = index.n;
  const std::size_t T = index.T;
  index.leaf.resize(static_cast<std::size_t>(n) * T);
  std::vector<std::int64_t> count(static_cast<std::size_t>(index.p * n), 0);  // per (column, row)
  if (index.strict_less) {
    count_paths<true>(index, X, count.data(), threads);
  } else {
    count_paths<false>(index, X, count.data(), threads);
  }

  // Which summation reproduces the model's own predictions?
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
    double_ok = double_ok && ensemble.base_score + ensemble.scale * sum == y_hat[i];
    float_ok = float_ok && static_cast<double>(acc) == y_hat[i];
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
  std::int64_t total = 0;
  for (Index c = 0; c < index.p; ++c) {
    for (Index i = 0; i < n; ++i) {
      cursor[c * n + i] = total;
      total += count[c * n + i];
    }
    index.offset[c + 1] = total;
    // tree_end is relative to the column's list, in an int32
    if (total - index.offset[c] > std::numeric_limits<std::int32_t>::max()) return false;
  }
  index.entries.resize(static_cast<std::size_t>(total));
  index.memo.resize(static_cast<std::size_t>(total));
  index.memo_value.resize(static_cast<std::size_t>(total));
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

/// A row whose permuted prediction must be re-summed: its changed leaf values are changes[begin, end), by tree.
struct ChangedRow {
  std::int32_t row;
  std::int32_t begin, end;
};

/// Per-thread buffers.
struct Scratch {
  std::vector<PathEntry> merged;
  std::vector<std::int32_t> merged_tree_end;
  /// TreeIndex::memo for a group of several columns (the walk stops at any of them), filled when an entry first
  /// flips; kUnknown before.
  std::vector<std::int32_t> memo;
  std::vector<double> memo_value;
  std::vector<std::pair<std::int32_t, double>> changes;
  std::vector<ChangedRow> rows;
  std::vector<double> lanes;
  Vector y_perm;
};

/// The permuted predictions of the changed rows: each row's leaf values with its changes applied, added up in the
/// model's own order and precision from just after the last tree unchanged in every row of a batch (the stored
/// running sum up to there is what the same additions would give). kBatch rows are summed side by side: the
/// additions of one row form a dependency chain, and interleaving rows hides its latency.
template <class Acc>
void resum_rows(const TreeEnsemble& ensemble, const TreeIndex& index, const std::vector<Acc>& prefix,
                Scratch& scratch) {
  constexpr std::size_t kBatch = 8;
  const std::size_t T = index.T;
  scratch.lanes.resize(kBatch * T);
  const auto& rows = scratch.rows;
  for (std::size_t r0 = 0; r0 < rows.size(); r0 += kBatch) {
    const std::size_t k = std::min(kBatch, rows.size() - r0);
    std::size_t t0 = T;
    for (std::size_t j = 0; j < k; ++j) {
      t0 = std::min(t0, static_cast<std::size_t>(scratch.changes[rows[r0 + j].begin].first));
    }
    Acc acc[kBatch];
    const double* lane[kBatch];
    for (std::size_t j = 0; j < kBatch; ++j) {
      double* out = scratch.lanes.data() + j * T;
      lane[j] = out;
      if (j >= k) {
        std::fill(out + t0, out + T, 0.0);
        acc[j] = Acc(0);
        continue;
      }
      const ChangedRow& cr = rows[r0 + j];
      const std::size_t at = static_cast<std::size_t>(cr.row) * T;
      std::copy(index.leaf.begin() + at + t0, index.leaf.begin() + at + T, out + t0);
      for (std::int32_t c = cr.begin; c < cr.end; ++c) out[scratch.changes[c].first] = scratch.changes[c].second;
      if (t0 > 0) {
        acc[j] = prefix[at + t0 - 1];
      } else if constexpr (std::is_same_v<Acc, float>) {
        acc[j] = static_cast<float>(ensemble.base_score);
      } else {
        acc[j] = 0.0;
      }
    }
    for (std::size_t t = t0; t < T; ++t) {
      for (std::size_t j = 0; j < kBatch; ++j) acc[j] += static_cast<Acc>(lane[j][t]);
    }
    for (std::size_t j = 0; j < k; ++j) {
      double y;
      if constexpr (std::is_same_v<Acc, float>) {
        y = static_cast<double>(acc[j]);
      } else {
        y = ensemble.base_score + ensemble.scale * acc[j];
      }
      scratch.y_perm[rows[r0 + j].row] = y;
    }
  }
}

/// A group's path entries and their tree_end: the column's own lists, or for several columns their union sorted by
/// (row, tree, node), which is path order within a (row, tree) since a node's descendants have larger ids.
std::pair<std::span<const PathEntry>, std::span<const std::int32_t>> group_entries(const TreeIndex& index,
                                                                                   std::span<const Index> columns,
                                                                                   Scratch& scratch) {
  const auto list = [&](Index c) {
    return std::span<const PathEntry>(index.entries.data() + index.offset[c],
                                      static_cast<std::size_t>(index.offset[c + 1] - index.offset[c]));
  };
  if (columns.size() == 1) {
    const auto entries = list(columns[0]);
    return {entries, std::span<const std::int32_t>(index.tree_end.data() + index.offset[columns[0]], entries.size())};
  }
  scratch.merged.clear();
  for (Index c : columns) {
    const auto part = list(c);
    scratch.merged.insert(scratch.merged.end(), part.begin(), part.end());
  }
  std::sort(scratch.merged.begin(), scratch.merged.end(), [](const PathEntry& a, const PathEntry& b) {
    return std::tie(a.row, a.tree, a.step) < std::tie(b.row, b.tree, b.step);
  });
  scratch.merged_tree_end.resize(scratch.merged.size());
  fill_tree_end(scratch.merged, scratch.merged_tree_end.data());
  return {scratch.merged, scratch.merged_tree_end};
}

/// True when the permuted row carries the same values in the group's columns (ties, or i = perm(i)): every path,
/// hence the prediction, is unchanged. ±0 compare equal and decide alike; two NaN both take the default direction.
bool same_values(const float* row, const float* source, std::span<const Index> columns) {
  for (Index c : columns) {
    if (!(row[c] == source[c] || (std::isnan(row[c]) && std::isnan(source[c])))) return false;
  }
  return true;
}

/// Mean R² drop of one group over its B permutations. For each affected row and tree, the nodes of the original
/// path that split on the group are checked in path order; the permuted row follows the original path until the
/// first of them where its decision differs, and only from there is it walked down to its new leaf. The part of
/// that walk that reads only the row's own columns is done once per entry and remembered (memo) for later repeats.
template <class Acc, bool Strict, bool Single>
double group_score(const ImportanceRequest& request, const TreeEnsemble& ensemble, const TreeIndex& index,
                   const std::vector<Acc>& prefix, std::size_t group, const Vector& y_hat, double baseline,
                   Scratch& scratch) {
  const std::span<const Index> columns(request.groups[group]);
  const auto [entries, tree_end] = group_entries(index, columns, scratch);
  if (entries.empty()) return 0.0;  // no test row's path reads these columns: exactly 0, no permutation needed
  const Matrix& X = *request.X_test;
  const Index p = index.p;
  const std::size_t T = index.T;
  const auto size = static_cast<std::int32_t>(entries.size());
  // Singletons use the index's memo, resolved while it was built; a group of several columns fills its own.
  const std::int32_t* memo = index.memo.data() + index.offset[columns[0]];
  const double* memo_value = index.memo_value.data() + index.offset[columns[0]];
  if constexpr (!Single) {
    scratch.memo.assign(entries.size(), kUnknown);
    scratch.memo_value.resize(entries.size());
    memo = scratch.memo.data();
    memo_value = scratch.memo_value.data();
  }
  const auto perms = importance_permutations(request, group);
  scratch.y_perm = y_hat;
  double total = 0.0;
  for (const auto& perm : perms) {
    scratch.changes.clear();
    scratch.rows.clear();
    std::int32_t e = 0;
    while (e < size) {
      const std::int32_t row = entries[e].row;
      const float* x = X.data() + static_cast<Index>(row) * p;
      const float* source = X.data() + perm[static_cast<std::size_t>(row)] * p;
      if (same_values(x, source, columns)) {
        while (e < size && entries[e].row == row) ++e;
        continue;
      }
      const double* leaf = index.leaf.data() + static_cast<std::size_t>(row) * T;
      const auto first_change = static_cast<std::int32_t>(scratch.changes.size());
      while (e < size && entries[e].row == row) {
        const PathEntry& entry = entries[e];
        const std::int32_t node = entry.step >> 1;
        const bool went_left = (entry.step & 1) != 0;
        const std::int32_t f = Single ? static_cast<std::int32_t>(columns[0]) : index.nodes[node].feature;
        if (goes_left<Strict>(index, node, source[f], entry.threshold) == went_left) {
          ++e;  // same way as before: the next node of this path that splits on the group decides
          continue;
        }
        const auto at = static_cast<std::size_t>(e);
        e = tree_end[at];  // whatever the new leaf, this tree is done
        std::int32_t resume = memo[at];
        if constexpr (!Single) {  // a singleton's memo is always resolved
          if (resume == kUnknown) {
            resume = walk_to_group<Strict, Single>(index, index.nodes[node].left + (went_left ? 1 : 0), x, columns);
            const Node& reached = index.nodes[resume];
            if (reached.feature < 0) {  // the new leaf does not depend on the permutation
              scratch.memo_value[at] = reached.value;
              resume = reached.value == leaf[entry.tree] ? kSameLeafValue : kLeaf;
            }
            scratch.memo[at] = resume;
          }
        }
        if (resume == kSameLeafValue) continue;
        if (resume == kLeaf) {
          scratch.changes.emplace_back(entry.tree, memo_value[at]);  // differs from the old leaf value
          continue;
        }
        const double value = walk_from<Strict, Single>(index, resume, x, source, columns);
        if (value != leaf[entry.tree]) scratch.changes.emplace_back(entry.tree, value);
      }
      const auto end_change = static_cast<std::int32_t>(scratch.changes.size());
      if (end_change > first_change) scratch.rows.push_back({row, first_change, end_change});
    }
    resum_rows(ensemble, index, prefix, scratch);
    total += detail::r2_drop(*request.y_test, baseline, scratch.y_perm);
    for (const ChangedRow& cr : scratch.rows) scratch.y_perm[cr.row] = y_hat[cr.row];
  }
  return total / request.repeats;
}

template <class Acc>
double group_score(const ImportanceRequest& request, const TreeEnsemble& ensemble, const TreeIndex& index,
                   const std::vector<Acc>& prefix, std::size_t group, const Vector& y_hat, double baseline,
                   Scratch& scratch) {
  const bool single = request.groups[group].size() == 1;
  if (index.strict_less) {
    return single ? group_score<Acc, true, true>(request, ensemble, index, prefix, group, y_hat, baseline, scratch)
                  : group_score<Acc, true, false>(request, ensemble, index, prefix, group, y_hat, baseline, scratch);
  }
  return single ? group_score<Acc, false, true>(request, ensemble, index, prefix, group, y_hat, baseline, scratch)
                : group_score<Acc, false, false>(request, ensemble, index, prefix, group, y_hat, baseline, scratch);
}

}  // namespace

std::optional<ImportanceResult> tree_permutation_importance(const ImportanceRequest& request,
                                                            const TreeEnsemble& ensemble, const Vector& y_hat) {
  const Matrix& X = *request.X_test;
  BFS_CHECK(y_hat.size() == X.rows());
  constexpr auto kMax = std::numeric_limits<std::int32_t>::max();
  if (X.rows() > kMax || ensemble.trees.size() > static_cast<std::size_t>(kMax)) return std::nullopt;
  TreeIndex index;
  if (!build_index(ensemble, X, y_hat, index, std::max(1, request.threads))) return std::nullopt;

  ImportanceResult result;
  result.method = ImportanceMethod::Trees;
  result.baseline_r2 = r2_score(*request.y_test, y_hat);
  result.scores.assign(request.groups.size(), 0.0);
  const auto groups = static_cast<std::int64_t>(request.groups.size());
#pragma omp parallel num_threads(request.threads > 1 && groups > 1 ? request.threads : 1)
  {
    Scratch scratch;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t g = 0; g < groups; ++g) {
      const auto group = static_cast<std::size_t>(g);
      result.scores[group] =
          index.summation == Summation::Double
              ? group_score(request, ensemble, index, index.prefix_double, group, y_hat, result.baseline_r2, scratch)
              : group_score(request, ensemble, index, index.prefix_float, group, y_hat, result.baseline_r2, scratch);
    }
  }
  return result;
}

}  // namespace bfs

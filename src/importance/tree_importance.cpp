// Exact permutation importance for tree ensembles (paper 000 Algorithm 3; see fast_paths.hpp).
//
// Once per arm: a compact copy of the trees, the leaf value of every (test row, tree) and, per column c, the list of
// (row, tree, node, direction taken) for every node on the row's original path that splits on c, sorted by (row,
// tree, node). A permuted row follows its original path until the first of its group's nodes where its decision
// differs (everything else on the path reads other columns); only from there is it walked down, with the group's
// columns read from the permuted row. Rows whose group values equal the permuted ones (ties) are skipped, and a
// column no test row's path meets has importance exactly 0 without drawing its permutations.
// A row whose leaf values all stay put keeps its prediction; otherwise its prediction is re-summed from its first
// changed tree with the stored prefix sums, in the model's own summation order and precision, which gives the
// permuted prediction bit for bit. The summation is identified by reproducing the unpermuted predictions exactly:
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

/// A node of the arm's compact copy of the ensemble: all trees in one array, children as global indices, one
/// 16-byte record per node so a walk touches one cache line per level (leaf values and NaN directions, rarely
/// needed, live in their own arrays).
struct Node {
  std::int32_t feature;  ///< −1 for a leaf
  float threshold;
  std::int32_t left;
  std::int32_t right;
};

/// A node on a row's original path in one tree that splits on the entry's column: step = 2·node + went_left.
struct PathEntry {
  std::int32_t row;
  std::int32_t tree;
  std::int32_t step;
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
  std::vector<double> value;
  std::vector<std::int32_t> root;    ///< global index of each tree's root
  std::vector<double> leaf;          ///< n × T leaf values, row-major
  std::vector<std::int64_t> offset;  ///< p + 1 offsets into entries
  std::vector<PathEntry> entries;    ///< grouped by column, each sorted by (row, tree, node)
  Summation summation = Summation::Double;
  std::vector<double> prefix_double;  ///< n × T running sums (Double)
  std::vector<float> prefix_float;    ///< n × T running sums (Float32)
};

/// predict_tree()'s decision at one node: NaN follows the default direction, else x < t (strict) or x <= t.
inline bool goes_left(const TreeIndex& index, std::int32_t node, float x) {
  if (std::isnan(x)) return index.default_left[node] != 0;
  const float t = index.nodes[node].threshold;
  return index.strict_less ? x < t : x <= t;
}

/// Walks down from `node` to a leaf, reading the group's columns from `source` (the permuted row) and every other
/// column from `row`.
template <bool Single>
double walk_from(const TreeIndex& index, std::int32_t node, const float* row, const float* source,
                 std::span<const Index> columns) {
  for (;;) {
    const Node& nd = index.nodes[node];
    if (nd.feature < 0) return index.value[node];
    const std::int32_t f = nd.feature;
    bool permuted;
    if constexpr (Single) {
      permuted = f == columns[0];
    } else {
      permuted = std::find(columns.begin(), columns.end(), f) != columns.end();
    }
    node = goes_left(index, node, permuted ? source[f] : row[f]) ? nd.left : nd.right;
  }
}

/// Copies the ensemble into the compact node array.
void flatten(const TreeEnsemble& ensemble, TreeIndex& index) {
  for (const FlatTree& tree : ensemble.trees) {
    const auto base = static_cast<std::int32_t>(index.nodes.size());
    index.root.push_back(base);
    for (std::size_t k = 0; k < tree.feature.size(); ++k) {
      const bool leaf = tree.feature[k] < 0;
      index.nodes.push_back({leaf ? -1 : tree.feature[k], tree.threshold[k], leaf ? -1 : base + tree.left[k],
                             leaf ? -1 : base + tree.right[k]});
      index.default_left.push_back(tree.default_left[k]);
      index.value.push_back(tree.value[k]);
    }
  }
}

/// Walks every (row, tree) once to record the leaf values (when `leaf` is given) and every node of the path under
/// its column: counted when `cursor` is null, written at cursor[column]++ otherwise.
void scan_paths(const TreeIndex& index, const Matrix& X, std::vector<double>* leaf, std::int64_t* count,
                std::int64_t* cursor, PathEntry* entries) {
  const Index n = X.rows(), p = X.cols();
  const std::size_t T = index.T;
  for (Index i = 0; i < n; ++i) {
    const float* row = X.data() + i * p;
    for (std::size_t t = 0; t < T; ++t) {
      std::int32_t node = index.root[t];
      while (index.nodes[node].feature >= 0) {
        const Node& nd = index.nodes[node];
        const bool left = goes_left(index, node, row[nd.feature]);
        if (cursor == nullptr) {
          ++count[nd.feature];
        } else {
          entries[cursor[nd.feature]++] = {static_cast<std::int32_t>(i), static_cast<std::int32_t>(t),
                                           2 * node + (left ? 1 : 0)};
        }
        node = left ? nd.left : nd.right;
      }
      if (leaf != nullptr) (*leaf)[static_cast<std::size_t>(i) * T + t] = index.value[node];
    }
  }
}

/// Builds the index; false when neither summation (or both) reproduces y_hat exactly, or the ensemble is too big.
bool build_index(const TreeEnsemble& ensemble, const Matrix& X, const Vector& y_hat, TreeIndex& index) {
  index.n = X.rows();
  index.p = X.cols();
  index.T = ensemble.trees.size();
  index.strict_less = ensemble.strict_less;
  flatten(ensemble, index);
  if (index.nodes.size() >= (std::size_t{1} << 30)) return false;  // PathEntry::step holds 2·node in an int32
  const Index n = index.n;
  const std::size_t T = index.T;
  index.leaf.resize(static_cast<std::size_t>(n) * T);
  std::vector<std::int64_t> count(static_cast<std::size_t>(index.p), 0);
  scan_paths(index, X, &index.leaf, count.data(), nullptr, nullptr);

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
  for (Index c = 0; c < index.p; ++c) index.offset[c + 1] = index.offset[c] + count[c];
  index.entries.resize(static_cast<std::size_t>(index.offset.back()));
  std::vector<std::int64_t> cursor(index.offset.begin(), index.offset.end() - 1);
  scan_paths(index, X, nullptr, nullptr, cursor.data(), index.entries.data());
  return true;
}

/// The prediction of `row` with its leaf values replaced by `changes` (tree, value), sorted by tree, non-empty:
/// the model's own running sum, resumed after the last unchanged tree before the first change.
template <class Acc>
double resum(const TreeEnsemble& ensemble, const TreeIndex& index, const std::vector<Acc>& prefix, Index row,
             const std::vector<std::pair<std::int32_t, double>>& changes) {
  const std::size_t T = index.T;
  const std::size_t at = static_cast<std::size_t>(row) * T;
  const auto first = static_cast<std::size_t>(changes.front().first);
  Acc acc;
  if (first > 0) {
    acc = prefix[at + first - 1];
  } else if constexpr (std::is_same_v<Acc, float>) {
    acc = static_cast<float>(ensemble.base_score);
  } else {
    acc = 0.0;
  }
  const double* v = index.leaf.data() + at;
  std::size_t c = 0;
  for (std::size_t t = first; t < T; ++t) {
    double value = v[t];
    if (c < changes.size() && static_cast<std::size_t>(changes[c].first) == t) value = changes[c++].second;
    acc += static_cast<Acc>(value);
  }
  if constexpr (std::is_same_v<Acc, float>) {
    return static_cast<double>(acc);
  } else {
    return ensemble.base_score + ensemble.scale * acc;
  }
}

/// Per-thread buffers.
struct Scratch {
  std::vector<PathEntry> merged;
  std::vector<std::pair<std::int32_t, double>> changes;
  Vector y_perm;
};

/// The path entries of a group: the column's own list, or for several columns their union sorted by (row, tree,
/// node), which is path order within a (row, tree) since a node's children have larger ids.
std::span<const PathEntry> group_entries(const TreeIndex& index, std::span<const Index> columns, Scratch& scratch) {
  const auto list = [&](Index c) {
    return std::span<const PathEntry>(index.entries.data() + index.offset[c],
                                      static_cast<std::size_t>(index.offset[c + 1] - index.offset[c]));
  };
  if (columns.size() == 1) return list(columns[0]);
  scratch.merged.clear();
  for (Index c : columns) {
    const auto part = list(c);
    scratch.merged.insert(scratch.merged.end(), part.begin(), part.end());
  }
  std::sort(scratch.merged.begin(), scratch.merged.end(), [](const PathEntry& a, const PathEntry& b) {
    return std::tie(a.row, a.tree, a.step) < std::tie(b.row, b.tree, b.step);
  });
  return scratch.merged;
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
/// first of them where its decision differs, and only from there is it walked down to its new leaf.
template <class Acc, bool Single>
double group_score(const ImportanceRequest& request, const TreeEnsemble& ensemble, const TreeIndex& index,
                   const std::vector<Acc>& prefix, std::size_t group, const Vector& y_hat, double baseline,
                   Scratch& scratch) {
  const std::span<const Index> columns(request.groups[group]);
  const auto entries = group_entries(index, columns, scratch);
  if (entries.empty()) return 0.0;  // no test row's path reads these columns: exactly 0, no permutation needed
  const Matrix& X = *request.X_test;
  const Index p = index.p;
  const std::size_t T = index.T;
  const std::size_t size = entries.size();
  const auto perms = importance_permutations(request, group);
  double total = 0.0;
  for (const auto& perm : perms) {
    scratch.y_perm = y_hat;
    std::size_t e = 0;
    while (e < size) {
      const std::int32_t row = entries[e].row;
      std::size_t row_end = e + 1;
      while (row_end < size && entries[row_end].row == row) ++row_end;
      const float* x = X.data() + static_cast<Index>(row) * p;
      const float* source = X.data() + perm[static_cast<std::size_t>(row)] * p;
      if (same_values(x, source, columns)) {
        e = row_end;
        continue;
      }
      const double* leaf = index.leaf.data() + static_cast<std::size_t>(row) * T;
      scratch.changes.clear();
      while (e < row_end) {
        const std::int32_t t = entries[e].tree;
        for (; e < row_end && entries[e].tree == t; ++e) {
          const std::int32_t node = entries[e].step >> 1;
          const bool went_left = (entries[e].step & 1) != 0;
          const Node& nd = index.nodes[node];
          const bool left = goes_left(index, node, source[nd.feature]);
          if (left == went_left) continue;
          const double value = walk_from<Single>(index, left ? nd.left : nd.right, x, source, columns);
          if (value != leaf[t]) scratch.changes.emplace_back(t, value);
          while (e < row_end && entries[e].tree == t) ++e;  // this tree is done
          break;
        }
      }
      if (!scratch.changes.empty()) scratch.y_perm[row] = resum(ensemble, index, prefix, row, scratch.changes);
    }
    total += detail::r2_drop(*request.y_test, baseline, scratch.y_perm);
  }
  return total / request.repeats;
}

template <class Acc>
double group_score(const ImportanceRequest& request, const TreeEnsemble& ensemble, const TreeIndex& index,
                   const std::vector<Acc>& prefix, std::size_t group, const Vector& y_hat, double baseline,
                   Scratch& scratch) {
  return request.groups[group].size() == 1
             ? group_score<Acc, true>(request, ensemble, index, prefix, group, y_hat, baseline, scratch)
             : group_score<Acc, false>(request, ensemble, index, prefix, group, y_hat, baseline, scratch);
}

}  // namespace

std::optional<ImportanceResult> tree_permutation_importance(const ImportanceRequest& request,
                                                            const TreeEnsemble& ensemble, const Vector& y_hat) {
  const Matrix& X = *request.X_test;
  BFS_CHECK(y_hat.size() == X.rows());
  constexpr auto kMax = std::numeric_limits<std::int32_t>::max();
  if (X.rows() > kMax || ensemble.trees.size() > static_cast<std::size_t>(kMax)) return std::nullopt;
  TreeIndex index;
  if (!build_index(ensemble, X, y_hat, index)) return std::nullopt;

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

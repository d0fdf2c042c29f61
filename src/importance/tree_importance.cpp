// Exact permutation importance for tree ensembles ([Wu Alg. 3]; see fast_paths.hpp).
//
// Once per arm: a compact copy of the trees, the leaf value of every (test row, tree) and, per column c, the list of
// (row, tree, node, direction taken) for every node on the row's original path that splits on c, sorted by (row,
// tree, node), with where each row's entries start. A permuted row follows its original path until the first of its
// group's nodes where its decision differs (everything else on the path reads other columns); only from there is it
// walked down, with the group's columns read from the permuted row. The part of that walk which reads only the row's
// own columns (down to a leaf or to the next node on the group) does not depend on the permutation: for single
// columns it is done once per entry while the index is built (tree by tree, so a tree's nodes stay in cache), and
// when it stops at another node on the column, both ways on from that node are resolved too; for groups it is done
// on an entry's first flip, and remembered. The index's storage is reused from one call to the next on a thread.
// For a single column the entries where a row's decision differs are found 4 at a time without branches (a bit mask
// per 64 entries) and only those are visited. Rows whose group values equal the permuted ones (ties) are skipped, and
// a column no test row's path meets has importance exactly 0 without drawing its permutations.
// A row whose leaf values all stay put keeps its prediction; otherwise its prediction is re-summed from its first
// changed tree with the stored prefix sums, in the model's own summation order and precision (several rows side by
// side over a per-thread copy of the leaf values holding the permuted ones, which changes no rounding), which gives
// the permuted prediction bit for bit. The summation and link are identified by reproducing the unpermuted
// predictions exactly:
//  - Double: link(base_score + scale·(Σ_t tree_t in double, in tree order)), as predict_ensemble (random forest,
//    regressor or classifier: both keep the identity link);
//  - Float32: float(base_score) then += float(tree_t) in tree order, as XGBoost's CPU predictor (gbm), then for a
//    logistic ensemble (binary:logistic) XGBoost's own float32 sigmoid 1/(1 + expf(−m)) (common::Sigmoid, see
//    xgboost_sigmoid in tree_ensemble.hpp), so the permuted probabilities are XGBoost's bits too.
// When neither (or, ambiguously, both) reproduces every baseline prediction the caller takes the general path.

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
#include "importance/detail/tree_index.hpp"
#include "importance/fast_paths.hpp"
#include "importance/metrics.hpp"

namespace bfs {

namespace {

using namespace detail::tree_index;

/// A row whose permuted prediction must be re-summed: its first tree whose leaf value changed.
struct ChangedRow {
  std::int32_t row;
  std::int32_t first_tree;
};

/// Per-thread buffers.
struct Scratch {
  std::vector<PathEntry> merged;
  std::vector<std::int32_t> merged_tree_end;
  /// TreeIndex::memo for a group of several columns (the walk stops at any of them), filled when an entry first
  /// flips; kUnknown before.
  std::vector<std::int32_t> memo;
  std::vector<double> memo_value;
  /// This thread's copy of TreeIndex::leaf: a repeat writes its permuted leaf values into it (at most one per (row,
  /// tree), listed in `touched` as row·T + tree) and restores them from the index afterwards.
  std::vector<double> leaf;
  std::vector<std::int32_t> touched;
  std::int64_t touched_count = 0;
  std::vector<ChangedRow> rows;
  std::vector<double> zeros;  ///< T zeros: the lanes of a short batch
  Vector y_perm;

  void prepare(const TreeIndex& index) {
    if (leaf.size() != index.leaf.size()) {
      leaf = index.leaf;
      touched.resize(index.leaf.size());  // one write per (row, tree) at most in a repeat
    }
    if (zeros.size() != index.T) zeros.assign(index.T, 0.0);
    rows.reserve(static_cast<std::size_t>(index.n));
    touched_count = 0;
  }
  /// Undoes a repeat's writes into `leaf`.
  void restore(const TreeIndex& index) {
    for (std::int64_t k = 0; k < touched_count; ++k) leaf[touched[k]] = index.leaf[touched[k]];
    touched_count = 0;
  }
};

/// The permuted predictions of the changed rows: each row's permuted leaf values (Scratch::leaf) added up in the
/// model's own order and precision from just after the last tree unchanged in every row of a batch (the stored
/// running sum up to there is what the same additions would give). kBatch rows are summed side by side: the
/// additions of one row form a dependency chain, and interleaving rows hides its latency.
template <class Acc>
void resum_rows(const TreeEnsemble& ensemble, const TreeIndex& index, const std::vector<Acc>& prefix,
                Scratch& scratch) {
  constexpr std::size_t kBatch = 8;
  const std::size_t T = index.T;
  const auto& rows = scratch.rows;
  for (std::size_t r0 = 0; r0 < rows.size(); r0 += kBatch) {
    const std::size_t k = std::min(kBatch, rows.size() - r0);
    std::size_t t0 = T;
    for (std::size_t j = 0; j < k; ++j) t0 = std::min(t0, static_cast<std::size_t>(rows[r0 + j].first_tree));
    Acc acc[kBatch];
    const double* lane[kBatch];
    for (std::size_t j = 0; j < kBatch; ++j) {
      if (j >= k) {
        lane[j] = scratch.zeros.data();
        acc[j] = Acc(0);
        continue;
      }
      const std::size_t at = static_cast<std::size_t>(rows[r0 + j].row) * T;
      lane[j] = scratch.leaf.data() + at;
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
        y = finish_float(ensemble, acc[j]);
      } else {
        y = finish_double(ensemble, acc[j]);
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

/// One repeat of a single column c: the permuted leaf values of every row, written into Scratch::leaf, and the
/// changed rows. A row's entries are those of [row_start[i], row_start[i + 1]); with v the permuted value, the
/// entries where the decision differs are found 64 at a time without a branch ((v ≤ t) ≠ went_left, or < for
/// strict), and only those are visited, each the first of its (row, tree) run: after it, the run's remaining
/// entries are masked out (tree_end). The new leaf value is written whether or not it differs (restore() undoes it),
/// so the only branch left per visited entry is whether the memo ends at a leaf or at a node to walk on from.
template <bool Strict>
void single_changes(const TreeIndex& index, const Matrix& X, Index c, const std::vector<std::int64_t>& perm,
                    std::span<const PathEntry> entries, std::span<const std::int32_t> tree_end,
                    const std::int32_t* memo, const double* memo_value, Scratch& scratch) {
  const Index n = index.n, p = index.p;
  const std::size_t T = index.T;
  const std::span<const Index> columns(&c, 1);
  const std::int32_t* row_start = index.row_start.data() + c * (n + 1);
  const float* flip_threshold = index.flip_threshold.data() + index.offset[c];
  const std::int32_t* flip_left = index.flip_left.data() + index.offset[c];
  const std::int32_t* resume_next = index.resume_next.data() + 2 * index.offset[c];
  const double* resume_value = index.resume_value.data() + 2 * index.offset[c];
  std::int32_t* touched = scratch.touched.data();
  std::int64_t count = scratch.touched_count;
  for (Index i = 0; i < n; ++i) {
    const std::int32_t begin = row_start[i], end = row_start[i + 1];
    if (begin == end) continue;
    const float* x = X.data() + i * p;
    const float* source = X.data() + perm[static_cast<std::size_t>(i)] * p;
    const float v = source[c];
    if (v == x[c] || (std::isnan(v) && std::isnan(x[c]))) continue;  // same value: every path is unchanged
    const std::size_t row_at = static_cast<std::size_t>(i) * T;
    const double* leaf = index.leaf.data() + row_at;
    double* new_leaf = scratch.leaf.data() + row_at;
    auto first_tree = static_cast<std::int32_t>(T);  // first tree whose leaf value changed
    const bool v_nan = std::isnan(v);
    std::int32_t skip = begin;  // entries before it are in runs already handled
    for (std::int32_t c0 = begin; c0 < end; c0 += 64) {
      const std::int32_t c1 = std::min(end, c0 + 64);
      if (skip >= c1) continue;
      std::uint64_t mask = 0;
      if (!v_nan) [[likely]] {
#if defined(__SSE2__)
        // 4 entries at a time: (v ≤ t) xor went_left, one bit each; reads up to 3 entries past c1 (padding, or the
        // next column's), whose bits are cleared below
        const __m128 vv = _mm_set1_ps(v);
        for (std::int32_t k = c0; k < c1; k += 4) {
          const __m128 t = _mm_loadu_ps(flip_threshold + k);
          const __m128 left = Strict ? _mm_cmplt_ps(vv, t) : _mm_cmple_ps(vv, t);
          const __m128 flip =
              _mm_xor_ps(left, _mm_castsi128_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(flip_left + k))));
          mask |= static_cast<std::uint64_t>(_mm_movemask_ps(flip)) << (k - c0);
        }
        if (c1 - c0 < 64) mask &= (std::uint64_t{1} << (c1 - c0)) - 1;
#else
        for (std::int32_t k = c0; k < c1; ++k) {
          const bool left = Strict ? v < flip_threshold[k] : v <= flip_threshold[k];
          mask |= static_cast<std::uint64_t>(left != (flip_left[k] != 0)) << (k - c0);
        }
#endif
      } else {
        for (std::int32_t k = c0; k < c1; ++k) {
          const PathEntry& entry = entries[k];
          const bool left = goes_left<Strict>(index, entry.step >> 1, v, entry.threshold);
          mask |= static_cast<std::uint64_t>(left != ((entry.step & 1) != 0)) << (k - c0);
        }
      }
      if (skip > c0) mask &= ~std::uint64_t{0} << (skip - c0);
      while (mask != 0) {
        const std::int32_t k = c0 + std::countr_zero(mask);
        const auto at = static_cast<std::size_t>(k);
        const std::int32_t tree = entries[at].tree;
        const std::int32_t resume = memo[at];
        // kLeaf and kSameLeafValue both carry the new leaf's value in memo_value
        double value = memo_value[at];
        if (resume >= 0) {  // the memo stops at a node r on the column: v decides there, then resume_next
          const std::size_t slot =
              2 * at + (goes_left<Strict>(index, resume, v, index.nodes[resume].threshold) ? 0 : 1);
          const std::int32_t next = resume_next[slot];
          value = next >= 0 ? walk_from<Strict, true>(index, next, x, source, columns) : resume_value[slot];
        }
        new_leaf[tree] = value;
        touched[count++] = static_cast<std::int32_t>(row_at) + tree;
        // first_tree = min(first_tree, tree) when the value changed, without a branch (T is past every tree)
        const auto same = static_cast<std::int32_t>(value == leaf[tree]);
        first_tree = std::min(first_tree, tree + same * static_cast<std::int32_t>(T));
        skip = tree_end[at];  // whatever the new leaf, this tree is done
        mask = skip >= c1 ? 0 : mask & (~std::uint64_t{0} << (skip - c0));
      }
    }
    if (first_tree < static_cast<std::int32_t>(T)) scratch.rows.push_back({static_cast<std::int32_t>(i), first_tree});
  }
  scratch.touched_count = count;
}

/// The B metric drops of one group (into `drops`, left at 0 when no test row's path reads the group). For each affected
/// row and tree, the nodes of the original path that split on the group are checked in path order; the permuted row
/// follows the original path until the first of them where its decision differs, and only from there is it walked down
/// to its new leaf. The part of that walk that reads only the row's own columns is done once per entry and remembered
/// (memo) for later repeats.
template <class Acc, bool Strict, bool Single>
void group_drops(const ImportanceRequest& request, const TreeEnsemble& ensemble, const TreeIndex& index,
                 const std::vector<Acc>& prefix, std::size_t group, const Vector& y_hat, double baseline,
                 Scratch& scratch, std::span<double> drops) {
  const std::span<const Index> columns(request.groups[group]);
  const auto [entries, tree_end] = group_entries(index, columns, scratch);
  if (entries.empty()) return;  // no test row's path reads these columns: exactly 0, no permutation needed
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
  scratch.prepare(index);
  for (std::size_t b = 0; b < perms.size(); ++b) {
    const auto& perm = perms[b];
    scratch.rows.clear();
    if constexpr (Single) {
      single_changes<Strict>(index, X, columns[0], perm, entries, tree_end, memo, memo_value, scratch);
    } else {
      std::int32_t e = 0;
      while (e < size) {
        const std::int32_t row = entries[e].row;
        const float* x = X.data() + static_cast<Index>(row) * p;
        const float* source = X.data() + perm[static_cast<std::size_t>(row)] * p;
        if (same_values(x, source, columns)) {
          while (e < size && entries[e].row == row) ++e;
          continue;
        }
        const std::size_t row_at = static_cast<std::size_t>(row) * T;
        const double* leaf = index.leaf.data() + row_at;
        auto first_tree = static_cast<std::int32_t>(T);
        while (e < size && entries[e].row == row) {
          const PathEntry& entry = entries[e];
          const std::int32_t node = entry.step >> 1;
          const bool went_left = (entry.step & 1) != 0;
          const std::int32_t f = index.nodes[node].feature;
          if (goes_left<Strict>(index, node, source[f], entry.threshold) == went_left) {
            ++e;  // same way as before: the next node of this path that splits on the group decides
            continue;
          }
          const auto at = static_cast<std::size_t>(e);
          e = tree_end[at];  // whatever the new leaf, this tree is done
          std::int32_t resume = scratch.memo[at];
          if (resume == kUnknown) {
            resume = walk_to_group<Strict, false>(index, index.nodes[node].left + (went_left ? 1 : 0), x, columns);
            const Node& reached = index.nodes[resume];
            if (reached.feature < 0) {  // the new leaf does not depend on the permutation
              scratch.memo_value[at] = reached.value;
              resume = reached.value == leaf[entry.tree] ? kSameLeafValue : kLeaf;
            }
            scratch.memo[at] = resume;
          }
          if (resume == kSameLeafValue) continue;
          const double value =
              resume == kLeaf ? memo_value[at] : walk_from<Strict, false>(index, resume, x, source, columns);
          if (value == leaf[entry.tree]) continue;
          scratch.leaf[row_at + entry.tree] = value;
          scratch.touched[scratch.touched_count++] = static_cast<std::int32_t>(row_at) + entry.tree;
          first_tree = std::min(first_tree, entry.tree);
        }
        if (first_tree < static_cast<std::int32_t>(T)) scratch.rows.push_back({row, first_tree});
      }
    }
    resum_rows(ensemble, index, prefix, scratch);
    scratch.restore(index);
    drops[b] = detail::metric_drop(request, baseline, scratch.y_perm);
    for (const ChangedRow& cr : scratch.rows) scratch.y_perm[cr.row] = y_hat[cr.row];
  }
}

template <class Acc>
void group_drops(const ImportanceRequest& request, const TreeEnsemble& ensemble, const TreeIndex& index,
                 const std::vector<Acc>& prefix, std::size_t group, const Vector& y_hat, double baseline,
                 Scratch& scratch, std::span<double> drops) {
  const bool single = request.groups[group].size() == 1;
  if (index.strict_less) {
    if (single) {
      group_drops<Acc, true, true>(request, ensemble, index, prefix, group, y_hat, baseline, scratch, drops);
    } else {
      group_drops<Acc, true, false>(request, ensemble, index, prefix, group, y_hat, baseline, scratch, drops);
    }
  } else if (single) {
    group_drops<Acc, false, true>(request, ensemble, index, prefix, group, y_hat, baseline, scratch, drops);
  } else {
    group_drops<Acc, false, false>(request, ensemble, index, prefix, group, y_hat, baseline, scratch, drops);
  }
}

}  // namespace

std::optional<ImportanceResult> tree_permutation_importance(const ImportanceRequest& request,
                                                            const TreeEnsemble& ensemble, const Vector& y_hat) {
  const Matrix& X = *request.X_test;
  BFS_CHECK(y_hat.size() == X.rows());
  constexpr auto kMax = std::numeric_limits<std::int32_t>::max();
  if (X.rows() > kMax || ensemble.trees.size() > static_cast<std::size_t>(kMax)) return std::nullopt;
  thread_local TreeIndex kept;  // storage reused across calls, see kKeepIndexBytes
  TreeIndex& index = kept;
  struct Release {  // drops the storage of an unusually large index on every way out
    TreeIndex& index;
    ~Release() {
      if (index.bytes() > kKeepIndexBytes) index = TreeIndex{};
    }
  } release{index};
  if (!build_index(ensemble, X, y_hat, index, std::max(1, request.threads))) return std::nullopt;

  ImportanceResult result = unscored_result(request, y_hat, ImportanceMethod::Trees);
  const auto groups = static_cast<std::int64_t>(request.groups.size());
#pragma omp parallel num_threads(request.threads > 1 && groups > 1 ? request.threads : 1)
  {
    Scratch scratch;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t g = 0; g < groups; ++g) {
      const auto group = static_cast<std::size_t>(g);
      const std::span<double> drops = result.drops_of(group, request.repeats);
      if (index.summation == Summation::Double) {
        group_drops(request, ensemble, index, index.prefix_double, group, y_hat, result.baseline, scratch, drops);
      } else {
        group_drops(request, ensemble, index, index.prefix_float, group, y_hat, result.baseline, scratch, drops);
      }
    }
  }
  finish_scores(result, request.repeats);
  return result;
}

}  // namespace bfs

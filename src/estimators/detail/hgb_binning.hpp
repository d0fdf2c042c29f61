#pragma once
// Binning for the histogram gradient boosting (hgb.cpp): each column's values become small integer codes, so a tree
// is grown from per-code gradient sums instead of sorted values (LightGBM; scikit-learn's _BinMapper).
//
// Edges follow scikit-learn 1.2's _find_binning_thresholds: with at most max_bin distinct (non-NaN) values the edges
// are the midpoints between consecutive distinct values; otherwise they are the max_bin − 1 percentiles at
// 100·k/max_bin, k = 1 … max_bin − 1, of the column, NumPy's "midpoint" rule ((a[⌊i⌋] + a[⌈i⌉]) / 2 at position
// i = q·(n − 1)). Duplicate edges are kept (empty bins), as scikit-learn does. A value's code is the number of edges
// strictly below it, so x <= edges[b] ⇔ code(x) <= b: a split "code <= b" is the split "x <= edges[b]" of a
// FlatTree with strict_less = false. The midpoints are computed in double and rounded down to float, which keeps
// that equivalence for float data (no float lies between the rounded edge and the exact midpoint). NaN gets the
// code right after the last value code (nan_code), so histograms index by code without a branch.
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"

namespace bfs::hgb {

/// Column-major codes of some rows of a matrix, with each column's edges.
struct BinnedColumns {
  Index rows = 0;
  std::vector<std::uint8_t> codes;        ///< codes[c · rows + r]
  std::vector<std::vector<float>> edges;  ///< per column, ascending (duplicates possible)

  Index cols() const { return static_cast<Index>(edges.size()); }
  const std::uint8_t* column(Index c) const { return codes.data() + c * rows; }
  /// Value codes are 0 … value_bins − 1; NaN is value_bins.
  int value_bins(Index c) const { return static_cast<int>(edges[static_cast<std::size_t>(c)].size()) + 1; }
  int nan_code(Index c) const { return value_bins(c); }
};

/// The edges of one column from its non-NaN values, sorted ascending in place. max_bin in [2, 255].
std::vector<float> bin_edges(std::span<float> sorted_values, int max_bin);

/// The code of x under edges (NaN → edges.size() + 1).
std::uint8_t code_of(float x, const std::vector<float>& edges);

/// Edges and codes of the rows `rows` of X (all of X's columns, codes in the order of `rows`). Columns are
/// independent: `threads` only splits the work.
BinnedColumns bin_rows(const Matrix& X, std::span<const Index> rows, int max_bin, int threads);

/// The codes of `rows` (repeats allowed) and `columns` of binned data, with those columns' edges: an arm's share of a
/// period binned once (hgb's PreparedData).
BinnedColumns select_binned(const BinnedColumns& binned, std::span<const Index> rows,
                            std::span<const FeatureId> columns);

}  // namespace bfs::hgb

#pragma once
// Shared helpers for flat-array tree ensembles (estimator.hpp's FlatTree / TreeEnsemble): batch prediction, a
// compact binary encoding, and structural checks. The random forest stores its model in this form directly; the
// GBM converts XGBoost's trees into it for the importance fast paths (DESIGN §4).
#include <cstdint>
#include <string>
#include <string_view>

#include "estimators/estimator.hpp"

namespace bfs {

/// base_score + scale · Σ_t tree_t(x) for every row of X. Trees are summed in order in double, so the result is
/// the same number as summing predict_tree() by hand in that order. Rows are split over `threads` OpenMP threads
/// (each row's value does not depend on it).
Vector predict_ensemble(const TreeEnsemble& ensemble, const Matrix& X, int threads = 1);


/// Number of nodes reachable from the root, the depth (root only = 0) and the leaf count of one tree.
struct TreeShape {
  std::int64_t nodes = 0;
  int depth = 0;
  std::int64_t leaves = 0;
};
TreeShape tree_shape(const FlatTree& tree);

/// Throws InputError(`what`: ...) unless every tree is well formed: equal array lengths, children in range and
/// after their parent (no cycles), features in [0, num_features).
void validate_ensemble(const TreeEnsemble& ensemble, Index num_features, std::string_view what);

/// Appends a little-endian binary encoding of the ensemble to out (exact floats/doubles, so predictions restore
/// bit-identically).
void append_ensemble(const TreeEnsemble& ensemble, std::string& out);
/// Reads what append_ensemble wrote from the front of bytes and advances bytes past it; InputError(`what`: ...)
/// on truncated or malformed input.
TreeEnsemble read_ensemble(std::string_view& bytes, std::string_view what);

}  // namespace bfs

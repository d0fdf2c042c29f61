#pragma once
// Shared helpers for flat-array tree ensembles (estimator.hpp's FlatTree / TreeEnsemble): batch prediction, a
// compact binary encoding, and structural checks. The random forest stores its model in this form directly; the
// GBM converts XGBoost's trees into it for the importance fast paths (docs/design.md §3).
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "estimators/estimator.hpp"

namespace bfs {

/// The ensemble's inverse link on a margin in double: the margin itself, or σ(m) = 1/(1 + e^−m).
inline double apply_link(Link link, double margin) {
  return link == Link::Logistic ? 1.0 / (1.0 + std::exp(-margin)) : margin;
}

/// XGBoost 1.7's common::Sigmoid (src/common/math.h: 1.0f / (1.0f + expf(-x)), all in float32), which
/// binary:logistic's PredTransform applies to the float32 margin. With the same libm expf this reproduces XGBoost's
/// probabilities bit for bit (checked against the booster's own predictions by the gbm tests and by the tree fast
/// path before it is used).
inline float xgboost_sigmoid(float margin) {
  return 1.0f / (1.0f + std::exp(-margin));
}

/// link(base_score + scale · Σ_t tree_t(x)) for every row of X (apply_link). Trees are summed in order in double,
/// so the result is the same number as summing predict_tree() by hand in that order. Rows are split over `threads`
/// OpenMP threads (each row's value does not depend on it). XGBoost sums in float32 instead (gbm.cpp): its
/// predictions differ from this in the last float bits.
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
/// bit-identically). The link is not encoded: the owner records its task and sets the link on reading.
void append_ensemble(const TreeEnsemble& ensemble, std::string& out);
/// Reads what append_ensemble wrote from the front of bytes and advances bytes past it; InputError(`what`: ...)
/// on truncated or malformed input.
TreeEnsemble read_ensemble(std::string_view& bytes, std::string_view what);

/// The serialized form of the tree estimators (random_forest, hgb): a magic naming the estimator and its task, the
/// model's column count (int64) and append_ensemble's bytes. Magics differ per task, so a model is never restored
/// under the other task.
struct TreeModelMagics {
  std::string_view regression;
  std::string_view binary;
  std::string_view of(Task task) const { return task == Task::Binary ? binary : regression; }
};
std::string encode_tree_model(std::string_view magic, Index num_features, const TreeEnsemble& ensemble);

struct DecodedTreeModel {
  TreeEnsemble ensemble;
  Index num_features = 0;
};
/// Reads encode_tree_model's bytes for an estimator of `task`; InputError(`what`: ...) naming what is wrong (the
/// other task's model, another estimator's bytes, truncation, trailing bytes, a malformed ensemble). The link is
/// left as read (identity); the caller sets its own.
DecodedTreeModel decode_tree_model(std::string_view bytes, const TreeModelMagics& magics, Task task,
                                   std::string_view what);

}  // namespace bfs

#pragma once
// Out-of-sample metrics.
#include "core/types.hpp"

namespace bfs {

/// Coefficient of determination R² = 1 − SSE/SST with SST about the mean of y (scikit-learn's r2_score).
/// A constant y (SST = 0) gives 1 for a perfect prediction and 0 otherwise, as scikit-learn does.
double r2_score(const Vector& y, const Vector& y_hat);
/// Same, on the segment [offset, offset + y.size()) of a stacked prediction vector.
double r2_score(const Vector& y, const Vector& y_hat, Index offset);

}  // namespace bfs

#pragma once
// Shared aliases: the data matrix layout (row-major float, docs/design.md §4) and feature-id containers.
#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace bfs {

/// Design matrix: rows are observations, columns features. Row-major float as in the HDF5 schema (docs/design.md §4),
/// so one observation (and one HDF5 row chunk) is contiguous.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
/// Targets, predictions and any per-row double quantity.
using Vector = Eigen::VectorXd;
using Index = Eigen::Index;

/// Column index of a feature in the full data set (0-based).
using FeatureId = std::int32_t;
/// A super-arm: feature ids, sorted ascending, without duplicates.
using FeatureSet = std::vector<FeatureId>;

}  // namespace bfs

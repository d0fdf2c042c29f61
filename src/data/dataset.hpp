#pragma once
// In-memory data set and the checks every reader applies (docs/design.md §4). Readers live in hdf5_io / csv_reader;
// data sources for the methods (offline, panels read one period at a time, simulated batches) in source.hpp.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "data/feature_layout.hpp"

namespace bfs {

struct Dataset {
  Matrix X;  ///< n × columns, row-major float; NaN = a missing numeric cell (feature_layout.hpp)
  Vector y;  ///< n
  std::vector<std::string> feature_names;  ///< p (one name per feature, not per column)
  /// The columns of each feature; one column each unless some feature is categorical.
  FeatureLayout layout;
  /// Missing cells per feature (empty = none counted, e.g. simulated data).
  std::vector<std::int64_t> missing;
  /// Rows the reader dropped because their target was missing.
  std::int64_t rows_without_target = 0;
  /// Row ranges of the periods: period k is rows [period_offsets[k], period_offsets[k+1]). Empty = one period.
  std::vector<std::int64_t> period_offsets;
  /// Label of each period (e.g. 201001 for a month); empty when there are no periods.
  std::vector<std::int32_t> period_labels;
  /// Indices of the truly relevant features (simulations); has_truth says whether it is known.
  std::vector<FeatureId> truth;
  bool has_truth = false;
  /// Where the data came from, for error messages ("data.h5", "simulate:friedman1").
  std::string origin;

  Index rows() const { return X.rows(); }
  Index cols() const { return X.cols(); }
  /// p: the number of features (= cols() unless a feature is categorical).
  Index features() const { return layout.features(X.cols()); }
  int num_periods() const { return period_offsets.empty() ? 1 : static_cast<int>(period_offsets.size()) - 1; }
};

/// Throws InputError naming `origin` for: p = 0, n = 0, y size ≠ n, feature_names size ≠ p (features, not
/// columns), a layout that does not fit X (offsets from 0 to cols() ascending, one level name per indicator column),
/// missing counts not one per feature, ±Inf in X (with row and column name; NaN is a missing cell), NaN/Inf in y,
/// bad period offsets, truth indices out of range.
void validate_dataset(const Dataset& data);
/// Truth indices: each in [0, p) and none repeated (a repeat would be counted twice in power and Hamming
/// distance). `what` starts the message ("data.h5: /truth").
void check_truth(std::span<const FeatureId> truth, Index p, const std::string& what);
/// The value rules of validate_dataset alone, which every reader applies to each block it reads: no ±Inf in X (as
/// float; NaN is missing), no NaN/Inf in y, and y within the arithmetic (check_target_scale). Rows are reported as
/// first_row + i (so a block read from the middle of a file names the file's row); rows are 0-based in messages.
void check_finite(const Dataset& data, Index first_row = 0);
/// The target rule every method shares: the sum of y's squares is a finite double, and y's variance is 0 (a
/// constant target, which each method reports in its own terms) or at least the smallest normal double. Outside
/// it every R² is NaN or 0/0. InputError naming `origin`, the row of the largest |y| and the rescaling to do.
void check_target_scale(const Vector& y, const std::string& origin, Index first_row = 0);
/// The same, the row of y[i] named by `place(i)` ("line 31" for a CSV file).
void check_target_scale(const Vector& y, const std::string& origin, const std::function<std::string(Index)>& place);

/// The period offsets of a period label per row (an HDF5 file's /period, the library API's periods): a period
/// starts where the label changes. InputError "<origin>: <what> is not sorted at row i" when a label decreases.
std::vector<std::int64_t> offsets_of_sorted_periods(std::span<const std::int32_t> period, const std::string& origin,
                                                    const std::string& what);

/// Dense copy of X[rows, cols] — the training/test matrix of one arm.
Matrix gather(const Matrix& X, std::span<const Index> rows, std::span<const FeatureId> cols);
/// y[rows].
Vector gather(const Vector& y, std::span<const Index> rows);

/// Default feature names x1..xp (1-based, as in the papers).
std::vector<std::string> default_feature_names(Index p);

}  // namespace bfs

#pragma once
// The data as the neighbour-based methods read it (FIRST's neighbourhoods [FIRST eq. 10], FUSE's kNN reward
// [FUSE eq. 10]): X copied from a Dataset into column-major doubles, so that a distance on a few columns walks
// contiguous memory, and standardised in place when the method's key asks for it.
#include <cstddef>
#include <span>
#include <vector>

#include "data/dataset.hpp"

namespace bfs::methods {

/// Column j is values[j · rows, (j + 1) · rows).
struct ColumnMajor {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> values;
  std::size_t imputed = 0;  ///< missing cells column_major replaced by their column's mean
  std::span<const double> column(std::size_t j) const { return {values.data() + j * rows, rows}; }
};

/// X of `data` as doubles, column-major. A missing cell (NaN, data/dataset.hpp) becomes the mean of its column's
/// present values over the data's rows (summed in row order; 0 for a column with none): a distance has no value for
/// a NaN, and the mean adds nothing to a distance on that column beyond the row's other columns. The rows are the
/// ones the method reads (FIRST and FUSE read every row of the data set), so no row outside them informs the fill.
/// With data.missing = "error" the data layer has refused missing cells before this.
ColumnMajor column_major(const Dataset& data);

/// Centres each column and scales it by its sample sd (divisor rows − 1; sums in row order); a constant column, or
/// any column of fewer than two rows, becomes 0. Returns the number of such columns. FIRST's R package does this by
/// default (the paper is silent); FUSE standardises on the training rows [FUSE §7.1].
std::size_t standardise(ColumnMajor& x);

}  // namespace bfs::methods

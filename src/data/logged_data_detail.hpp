#pragma once
// Helpers shared by the logged-data files (logged_data.cpp, logged_data_csv.cpp, logged_data_hdf5.cpp).
#include <string>
#include <vector>

#include "data/logged_data.hpp"

namespace bfs::detail {

/// Checks a column block of a log (column-major, `count` columns from `first`, header.rows values each): Inf is an
/// InputError, and so is a categorical value that is not a code (an integer >= 0, below the label count when the
/// labels are known). Names header.origin, the column and the 0-based row.
void check_logged_values(const LoggedHeader& header, const float* block, Index first, Index count);

/// Sorts labels for codes: numerically when every label is a finite number ("2" before "10"), else byte-wise.
void sort_labels(std::vector<std::string>& labels);

/// "a, b, c" for messages (at most `most` entries, then ", ...").
std::string join_labels(const std::vector<std::string>& labels, std::size_t most = 10);

}  // namespace bfs::detail

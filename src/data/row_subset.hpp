#pragma once
// A data set or a log restricted to some of its rows (stability selection's half-samples, docs/stability.md): every
// property that is not per row — feature names, the layout of categorical features and their levels, the truth, the
// origin, a log's arms and categorical flags — is kept as it is; the per-row ones are taken at the rows, and the
// periods are the original periods that keep rows. Pure: no stream, no file.
#include <memory>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "data/dataset.hpp"
#include "data/logged_data.hpp"

namespace bfs {

/// `data` at `rows` (ascending, distinct, in [0, rows())): X, y and the missing counts (a numeric feature's NaN
/// cells, a categorical one's rows at its level "missing") of those rows; period k of the subset holds the chosen
/// rows of period k, and a period left without rows is refused (InternalError: the caller draws within periods).
/// rows_without_target is 0: the dropped rows are not among any subset's.
Dataset subset_rows(const Dataset& data, std::span<const Index> rows);

/// The rows of a log as a log held in memory: `x` is every column of `header`'s log, column-major (LoggedSource::
/// columns(0, cols)); the result holds header's columns at `rows` (ascending, distinct), with their arms and rewards.
/// InputError (from check_logged_header) when the subset is not a log: fewer than 2 rows, or an arm without rows.
std::unique_ptr<LoggedSource> subset_log_rows(const LoggedHeader& header, std::span<const float> x,
                                              std::span<const Index> rows);

}  // namespace bfs

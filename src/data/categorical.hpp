#pragma once
// Categorical columns of a table (docs/design.md §4, feature_layout.hpp): their levels, pooled and checked, and the
// indicator columns of X they become. One rule for a CSV text column, a CSV column named in data.categorical and an
// HDF5 column flagged in /categorical, so a table gives the same features whichever file holds it:
//   * levels sorted (numerically when every label is a number, else as text), so codes do not follow the row order;
//   * a level seen in fewer than min_level_count rows pools into one level "other" (last but "missing");
//   * a missing cell is a level of its own, "missing" (last; never pooled);
//   * more than max_levels levels is an error naming the column (a date or an id column is caught here);
//   * one 0/1 indicator column per level, contiguous, in level order.
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "data/dataset.hpp"

namespace bfs {

/// The [data] keys that shape a table's features (data/ sits beside config/, so they come as this struct).
struct TableRules {
  std::int64_t min_level_count = 10;  ///< data.min_level_count
  std::int64_t max_levels = 64;       ///< data.max_levels
  bool refuse_missing = false;        ///< data.missing = "error": any missing cell is an InputError
};

/// How one raw column (a number, or the code of a label, per row; NaN = missing) becomes columns of X.
struct ColumnCoding {
  std::vector<std::int32_t> level_of_code;  ///< categorical: the level of each raw code; empty = numeric
  std::int32_t missing_level = -1;          ///< the level of a missing cell (-1: the column has none missing)
  std::vector<std::string> levels;          ///< categorical: level names in column order; empty = numeric
  bool categorical() const { return !levels.empty(); }
};

/// The coding of a categorical column whose raw codes stand for `labels` (distinct), code c seen in counts[c] rows,
/// `missing` rows missing. `origin` and `column` name it in the errors: more than rules.max_levels levels after
/// pooling, or more than max_levels distinct labels none of which is frequent enough to keep (an id or a date).
ColumnCoding code_levels(const std::vector<std::string>& labels, const std::vector<std::int64_t>& counts,
                         std::int64_t missing, const TableRules& rules, const std::string& origin,
                         const std::string& column);

/// The layout of raw columns coded as `codings`: empty (one column each) when none is categorical.
FeatureLayout layout_of(const std::vector<ColumnCoding>& codings);

/// X of a raw row-major block (codes in the categorical columns, NaN = missing): numeric columns copied as they
/// are, each categorical one expanded into its indicators. A raw block without categorical columns is returned as
/// it is, so numeric tables keep their exact values. InternalError for a code outside the coding (readers check
/// codes before coding them).
Matrix expand_columns(Matrix raw, const std::vector<ColumnCoding>& codings, const FeatureLayout& layout);

/// Missing cells (NaN) of each raw column.
std::vector<std::int64_t> count_missing(const Matrix& raw);

/// The rows of each code 0..labels-1 in raw column `column` (NaN cells skipped): what code_levels takes for a table
/// whose categorical columns hold codes (the library API's in-memory tables). InputError naming `origin`, the row and
/// the column for a cell that is not one of the codes.
std::vector<std::int64_t> count_codes(const Matrix& raw, Index column, std::size_t labels, const std::string& origin,
                                      const std::string& name);

/// InputError when every one of the `rows` cells of column `name` is missing (`missing` = rows), naming `origin` and
/// the column; `advice` says how to leave it out (a CSV: data.exclude; in-memory data: drop the column).
void refuse_empty_column(std::int64_t missing, Index rows, const std::string& name, const std::string& origin,
                         const std::string& advice);

/// InputError for the first column with a missing cell, naming `origin`, the column and its count: what
/// data.missing = "error" asks for.
void refuse_missing(const std::vector<std::int64_t>& missing, const std::vector<std::string>& names,
                    const std::string& origin);

}  // namespace bfs

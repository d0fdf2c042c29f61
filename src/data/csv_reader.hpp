#pragma once
// CSV input: a header row, one target column chosen by name, the features every other column (or a subset by name,
// less data.exclude). A cell in na_values is missing; a column with a non-missing cell that is not a number, or named
// in data.categorical, is categorical (data/categorical.hpp); a row whose target is missing is dropped.
#include <string>
#include <vector>

#include "data/categorical.hpp"
#include "data/dataset.hpp"
#include "data/labels.hpp"

namespace bfs {

/// pandas' default NA tokens (read_csv's na_values), the empty cell included: the default of data.na_values.
std::vector<std::string> default_na_values();

/// The [data] keys a CSV table is read with.
struct CsvOptions {
  std::vector<std::string> features;                         ///< data.features (empty = every column but the target)
  std::vector<std::string> exclude;                          ///< data.exclude: columns that are not features
  std::vector<std::string> categorical;                      ///< data.categorical: numeric columns read as categorical
  std::vector<std::string> na_values = default_na_values();  ///< data.na_values (compared after unquoting)
  TableRules rules;
  /// data.task / data.positive_label: a binary target is mapped to 0/1 here (a text label column can only be
  /// mapped here), so the returned y is 0/1 and needs no positive_label afterwards.
  LabelSpec labels;
};

/// Reads `path`. Errors (InputError) name the file, line and column: missing file, missing target or feature
/// column, ragged rows, a number out of range, ±Inf, NaN not in na_values, a column all missing, a categorical
/// column with too many levels, a text target of a regression, no rows.
Dataset read_csv(const std::string& path, const std::string& target, const CsvOptions& options);
/// The same with the defaults of every other key.
Dataset read_csv(const std::string& path, const std::string& target, const std::vector<std::string>& features = {});

}  // namespace bfs

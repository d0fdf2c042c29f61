#pragma once
// The features of a data set and their columns of X (docs/design.md §4). A numeric feature is one column; a
// categorical feature is one indicator column per level, contiguous, and stays one feature: one arm of the bandit,
// one factor of FIRST, one feature of FUSE, one row of every output. Missing numeric cells are NaN in X; a
// categorical feature has no NaN (missing is a level of its own).
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace bfs {

struct FeatureLayout {
  /// Feature f's columns are [offsets[f], offsets[f+1]). Empty: one column per feature (every data set that has
  /// no categorical feature, so numeric data keeps its exact behaviour).
  std::vector<Index> offsets;
  /// Level names of each feature, in column order (empty = a numeric feature). Empty when offsets is.
  std::vector<std::vector<std::string>> levels;

  bool one_column_each() const { return offsets.empty(); }
  /// The number of features given the number of columns of X.
  Index features(Index columns) const { return one_column_each() ? columns : static_cast<Index>(offsets.size()) - 1; }
  Index column_begin(FeatureId f) const { return one_column_each() ? f : offsets[static_cast<std::size_t>(f)]; }
  Index column_end(FeatureId f) const { return one_column_each() ? f + 1 : offsets[static_cast<std::size_t>(f) + 1]; }
  bool is_categorical(FeatureId f) const { return !one_column_each() && !levels[static_cast<std::size_t>(f)].empty(); }
  /// The columns of `features`, in the order given, each feature's columns ascending.
  std::vector<FeatureId> columns_of(std::span<const FeatureId> features) const;
  /// The feature of each column (size = columns).
  std::vector<FeatureId> feature_of_columns(Index columns) const;
  /// Appends `count` numeric features (noise columns, knockoffs) after the existing `columns` columns.
  void append_numeric(Index columns, Index count);
};

}  // namespace bfs

#include "data/feature_layout.hpp"

namespace bfs {

std::vector<FeatureId> FeatureLayout::columns_of(std::span<const FeatureId> features) const {
  std::vector<FeatureId> columns;
  columns.reserve(features.size());
  for (const FeatureId f : features)
    for (Index c = column_begin(f); c < column_end(f); ++c) columns.push_back(static_cast<FeatureId>(c));
  return columns;
}

std::vector<FeatureId> FeatureLayout::feature_of_columns(Index columns) const {
  std::vector<FeatureId> feature(static_cast<std::size_t>(columns));
  const Index p = features(columns);
  for (Index f = 0; f < p; ++f)
    for (Index c = column_begin(static_cast<FeatureId>(f)); c < column_end(static_cast<FeatureId>(f)); ++c)
      feature[static_cast<std::size_t>(c)] = static_cast<FeatureId>(f);
  return feature;
}

void FeatureLayout::append_numeric(Index columns, Index count) {
  if (one_column_each()) return;
  for (Index i = 1; i <= count; ++i) {
    offsets.push_back(columns + i);
    levels.emplace_back();
  }
}

}  // namespace bfs

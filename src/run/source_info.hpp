#pragma once
// What a run knows of its data without loading any period, and the data fingerprint a checkpoint must match.
#include <string>
#include <vector>

#include "core/types.hpp"
#include "data/source.hpp"

namespace bfs {

struct SourceInfo {
  std::string description;
  std::vector<std::string> feature_names;
  int periods = 1;
  FeatureSet truth;
  bool has_truth = false;
  std::vector<std::int64_t> missing;  ///< per feature (DataSource::missing; empty = not counted)
  std::int64_t rows_without_target = 0;
  std::string fingerprint;  ///< description, shape and a hash of the names: refuses checkpoints of other data
};

/// `online`: the run walks the source's periods (otherwise it is one period).
SourceInfo describe_source(const DataSource& source, bool online);

}  // namespace bfs

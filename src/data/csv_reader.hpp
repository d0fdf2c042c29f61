#pragma once
// CSV input: a header row, one target column chosen by name, optionally a subset of feature columns by name.
#include <string>
#include <vector>

#include "data/dataset.hpp"

namespace bfs {

/// Reads `path`. Errors (InputError) name the file, line and column: missing file, missing target or feature
/// column, ragged rows, non-numeric cells, NaN/Inf, no rows. Empty `features` = every column but the target.
Dataset read_csv(const std::string& path, const std::string& target, const std::vector<std::string>& features = {});

}  // namespace bfs

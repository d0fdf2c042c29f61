#pragma once
// The counts every score of [CMAB §2] is a function of: per bin b and arm i, the rows with reward 0 and with
// reward 1 (N_{b,i} = their sum, P_{b,i} = ones / N_{b,i}). The last bin is the missing (NaN) bin, empty when the
// feature has no NaN, so result.h5's /cmab/cells has one layout for every feature.
#include <cstdint>
#include <span>
#include <vector>

#include "methods/cmab/binning.hpp"

namespace bfs::cmab {

/// Rows with reward 0 / 1 per (bin, arm); bins = value_bins + 1 (the last = the missing bin).
struct CellCounts {
  int bins = 0, arms = 0;
  std::vector<std::int64_t> count;  ///< [bins][arms][2] row-major
  std::int64_t at(int bin, int arm, int reward) const {
    return count[(static_cast<std::size_t>(bin) * static_cast<std::size_t>(arms) + static_cast<std::size_t>(arm)) * 2 +
                 static_cast<std::size_t>(reward)];
  }
};

/// Counts the rows of each (bin, arm, reward). `arm` holds codes in [0, arms), `reward` 0 or 1 (the data layer
/// validated both; a violation here is an internal error).
CellCounts count_cells(const FeatureBins& bins, std::span<const std::int32_t> arm, int arms,
                       std::span<const std::uint8_t> reward);

}  // namespace bfs::cmab

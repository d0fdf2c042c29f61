#include "methods/cmab/cell_counts.hpp"

#include "core/error.hpp"

namespace bfs::cmab {

CellCounts count_cells(const FeatureBins& bins, std::span<const std::int32_t> arm, int arms,
                       std::span<const std::uint8_t> reward) {
  BFS_CHECK(arms >= 1, "arms = ", arms);
  BFS_CHECK(arm.size() == bins.bin.size() && reward.size() == bins.bin.size(), "rows: bins ", bins.bin.size(),
            ", arms ", arm.size(), ", rewards ", reward.size());
  CellCounts cells;
  cells.bins = bins.value_bins + 1;
  cells.arms = arms;
  cells.count.assign(static_cast<std::size_t>(cells.bins) * static_cast<std::size_t>(arms) * 2, 0);
  for (std::size_t row = 0; row < bins.bin.size(); ++row) {
    const std::int32_t b = bins.bin[row], a = arm[row];
    BFS_CHECK(b >= 0 && b < cells.bins && a >= 0 && a < arms && reward[row] <= 1, "row ", row, ": bin ", b, ", arm ", a,
              ", reward ", int{reward[row]});
    ++cells.count[(static_cast<std::size_t>(b) * static_cast<std::size_t>(arms) + static_cast<std::size_t>(a)) * 2 +
                  reward[row]];
  }
  return cells;
}

}  // namespace bfs::cmab

#include "methods/fuse/shadows.hpp"

#include <string>
#include <utility>

#include "core/error.hpp"
#include "methods/common/shadow_rule.hpp"

namespace bfs::fuse {

void append_shadows(TrainingSet& set, FeatureLayout& layout, const std::vector<FeatureId>& sources, std::uint64_t seed,
                    std::int64_t copies, std::int64_t first_copy) {
  if (sources.empty()) return;
  BFS_CHECK(copies >= 1, "shadow copies ", copies);
  const std::size_t rows = set.rows;
  const auto columns = static_cast<Index>(set.cols);
  const Index p = layout.features(columns);
  std::size_t added = 0;
  for (const FeatureId f : sources) added += static_cast<std::size_t>(layout.column_end(f) - layout.column_begin(f));
  added *= static_cast<std::size_t>(copies);
  std::vector<double> values(rows * (set.cols + added));
  std::copy(set.values.begin(), set.values.end(), values.begin());
  std::size_t at = set.cols;
  for (std::int64_t copy = first_copy; copy < first_copy + copies; ++copy) {
    for (const FeatureId f : sources) {
      BFS_CHECK(f >= 0 && f < p, "shadow source ", f, " of ", p);
      const std::vector<std::int64_t> perm = methods::shadow_rows(static_cast<std::int64_t>(rows), seed, f, copy);
      for (Index c = layout.column_begin(f); c < layout.column_end(f); ++c, ++at) {
        const std::span<const double> source = set.column(static_cast<std::size_t>(c));
        double* out = values.data() + at * rows;
        for (std::size_t r = 0; r < rows; ++r) out[r] = source[static_cast<std::size_t>(perm[r])];
      }
      if (!layout.one_column_each()) {
        layout.offsets.push_back(layout.offsets.back() + (layout.column_end(f) - layout.column_begin(f)));
        std::vector<std::string> levels = layout.levels[static_cast<std::size_t>(f)];  // a copy: push_back may move
        layout.levels.push_back(std::move(levels));
      }
    }
  }
  set.values = std::move(values);
  set.cols += added;
}

}  // namespace bfs::fuse

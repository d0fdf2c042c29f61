#pragma once
// FUSE's select = "shadow" (docs/fuse.md, "Selection by signal"): the shadows enter the search as features. Shadow j
// copies feature sources[j] of the training set L — all its columns, already standardised, with the rows shuffled by
// methods::shadow_rows (one shuffle for all the columns of a categorical feature) — and becomes feature p + j, so the
// tree, the random phase and the kNN reward treat it exactly as a feature of the data, and its g-RAVE (eq. 6) is the
// score of a feature without signal. Why in the search and not after it: g-RAVE is a mean over the search's final
// sets, so a feature the search never plays has none; scoring shadows "exactly like the real features" means
// letting them be played (Boruta's shadows are fitted beside the real features the same way).
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "data/feature_layout.hpp"
#include "methods/fuse/reward.hpp"
#include "methods/fuse/tree.hpp"

namespace bfs::fuse {

/// Appends `copies` shadows of each of `sources` (feature ids of `layout`, ascending) to `set` and `layout`: set gains
/// their columns after its own, layout their features after p, copy 0 of every source first, then copy 1, ... (a
/// categorical source's shadow keeps its levels). Copy c of feature f is shuffled by methods::shadow_rows(…, f, c),
/// for c = first_copy, …, first_copy + copies − 1 (each search its own copies: searches.hpp).
void append_shadows(TrainingSet& set, FeatureLayout& layout, const std::vector<FeatureId>& sources, std::uint64_t seed,
                    std::int64_t copies = 1, std::int64_t first_copy = 0);

/// The most-visited path up to its first shadow (a feature id ≥ p): the path of the data's features.
inline std::vector<PathStep> path_before_shadows(std::vector<PathStep> path, std::int32_t p) {
  std::size_t keep = 0;
  while (keep < path.size() && path[keep].feature < p) ++keep;
  path.resize(keep);
  return path;
}

}  // namespace bfs::fuse

#pragma once
// FUSE with R searches (docs/fuse.md, "Selection by signal"): Boruta's repeated runs [Kursa & Rudnicki 2010] at the
// cost of one search. The T iterations are shared among R independent searches, search c drawing from the streams
// (seed, iteration within the search, c, ·) with its own shadows (copies c·k, …, c·k + k − 1); a feature is selected
// when its g-RAVE beats its search's shadow threshold in every search. One search commits to a few features without
// signal, and sharing final sets with the real ones lifts their g-RAVE past the shadows' maximum (docs/fuse.md:
// make_classification 13/20 runs within the target with one search); another search commits to others.
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "methods/fuse/fuse_params.hpp"

namespace bfs::fuse {

/// R: method.searches, or when it is 0 (the default) 2 with select = "shadow" and 1 otherwise.
std::int64_t search_count(const FuseParams& params);

/// Search c's share of T iterations: ⌊T/R⌋, and one more for each of the first T mod R searches.
std::uint64_t search_iterations(std::uint64_t total, std::uint64_t searches, std::uint64_t c);

/// Whether `done` iterations (the searches run one after another) end a whole round of `batch` descents: a round
/// never spans two searches, and a search's last round may be short.
bool ends_whole_round(std::uint64_t done, std::uint64_t total, std::uint64_t searches, std::uint64_t batch);

/// The features 0..p−1 whose score is strictly above its search's threshold in every search (scores[c] holds search
/// c's scores, at least p of them; a NaN score is never above), ascending.
std::vector<FeatureId> above_in_every_search(const std::vector<std::vector<double>>& scores,
                                             std::span<const double> thresholds, std::size_t p);

/// Each feature's mean score over the searches (the first p of each).
std::vector<double> mean_over_searches(const std::vector<std::vector<double>>& scores, std::size_t p);

}  // namespace bfs::fuse

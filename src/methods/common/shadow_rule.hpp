#pragma once
// Selection by signal, not a fixed k, for the methods whose score has no null of its own (FUSE's g-RAVE, cmab-scores'
// HIE/HDD): the shadow rule of Boruta [Kursa & Rudnicki 2010]. Each of S features gets a shadow, a copy of it with
// the rows shuffled (all its columns with one shuffle, so a categorical shadow stays a valid one-hot block), scored in
// the same run exactly as the real features are; a feature is selected when its score beats the shadows' maximum, or
// the `quantile` of their scores (numpy's default "linear" quantile, type 7). A shadow keeps its source's marginal
// law and loses any link to the target, so the shadows' scores are draws of a feature's score under no signal.
//
// Which features get a shadow: all of them (Boruta's one per feature) when S = p; S < p features drawn uniformly from
// the stream (seed, 0, 0, Shadow, kShadowSourceStream). Feature f's row shuffle is the stream (seed, 0, 0, Shadow, f):
// keyed by the feature id, never by rank, thread or wave, so the shadows are the same at any rank and thread count.
// Shadows never appear in the outputs; only the threshold does.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace bfs::methods {

/// The stream that picks which features get a shadow when S < p (above every feature id).
inline constexpr std::uint64_t kShadowSourceStream = std::uint64_t{1} << 40;
/// The default S (key `shadows = 0`): one shadow per feature up to this many, then this many features drawn. The
/// threshold is then the maximum of 1000 null scores, not p; a feature's chance to beat it by luck is at most 1/1001
/// (exchangeable null scores), so a larger S buys little and costs a scored copy per feature.
inline constexpr std::int64_t kDefaultShadowCap = 1000;

/// S for the key value `shadows` (0 = the default, min(p, kDefaultShadowCap)). InputError naming method.shadows
/// when shadows > p (a feature has at most one shadow).
std::int64_t shadow_count(std::int64_t shadows, std::int64_t p, const std::string& origin);

/// The features that get a shadow, ascending: all p when count = p, else `count` drawn uniformly.
std::vector<FeatureId> shadow_sources(std::int64_t p, std::int64_t count, std::uint64_t seed);

/// Feature f's shadow rows: at row r the shadow holds the source's value at row perm[r].
std::vector<std::int64_t> shadow_rows(std::int64_t rows, std::uint64_t seed, FeatureId feature);

/// The threshold: the `quantile` (in (0, 1]) of the shadows' scores, linear interpolation between order statistics
/// (type 7; quantile 1 = the maximum). NaN scores count as −∞. Needs at least one shadow.
double shadow_threshold(std::span<const double> shadow_scores, double quantile);

/// The features whose score is strictly above `threshold`, ascending (a NaN score is never selected).
std::vector<FeatureId> select_above(std::span<const double> scores, double threshold);

}  // namespace bfs::methods

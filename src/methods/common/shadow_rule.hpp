#pragma once
// Selection by signal, not a fixed k, for the methods whose score has no null of its own (FUSE's g-RAVE, cmab-scores'
// HIE/HDD): Boruta's shadows [Kursa & Rudnicki 2010] with a permutation p-value and a bound on the expected number
// of false selections. Each of the features with shadows gets k shadows (`shadow_copies`), copies of it with the rows
// shuffled (all its columns with one shuffle, so a categorical shadow stays a valid one-hot block), scored in the
// same run exactly as the real features are. A shadow keeps its source's marginal law and loses any link to the
// target, so the S shadows' scores T_1..T_S are draws of a feature's score under no signal.
//
// The rule (docs/fuse.md and docs/cmab.md, "Selection by signal"): feature j's permutation p-value against the pooled
// shadows is p_j = (1 + #{i : T_i ≥ s_j}) / (S + 1) [Phipson & Smyth 2010], and j is selected when p_j ≤ α/p, α =
// `shadow_max_false`: Bonferroni's level, which bounds the expected number of false selections (the per-family error
// rate) by α·m₀/p ≤ α [Gordon et al. 2007] when each null feature's score is exchangeable with the shadows'. Equally:
// j's score must beat the r-th largest shadow score, r = ⌊α(S + 1)/p⌋ (at least 1). With k = 1, r = 1: Boruta's
// maximum, whose m₀/(S + 1) ≈ 1 false selection per run, and a low maximum letting several through, are why
// cmab-scores takes 5 shadows per feature and α = 0.5; FUSE keeps k = 1 (its shadows are features of the search, and
// more of them dilute the real features' g-RAVE: docs/fuse.md). `shadow_quantile` < 1 replaces the rank by the
// quantile of the shadows' scores (numpy's default "linear" quantile, type 7). Whatever the threshold t, the run
// reports the bound it gives: E[V] ≤ p·(1 + #{i : T_i > t}) / (S + 1).
//
// Which features get shadows: all of them when `shadows` = p; fewer drawn uniformly from the stream (seed, 0, 0,
// Shadow, kShadowSourceStream). Copy c of feature f's row shuffle is the stream (seed, 0, c, Shadow, f): keyed by the
// feature and the copy, never by rank, thread or wave, so the shadows are the same at any rank and thread count.
// Shadows never appear in the outputs; only the threshold and its bound do.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "config/key_spec.hpp"
#include "core/types.hpp"
#include "methods/result.hpp"

namespace bfs::methods {

/// The stream that picks which features get a shadow when S < p (above every feature id).
inline constexpr std::uint64_t kShadowSourceStream = std::uint64_t{1} << 40;
/// The default number of features with shadows (key `shadows = 0`): every feature up to this many, then this many
/// drawn (the cost of scoring k copies of every feature of a very wide table; the bound below is then weaker).
inline constexpr std::int64_t kDefaultShadowCap = 1000;
/// cmab-scores' default k (`shadow_copies`): shadows per feature, each its own row shuffle. With α =
/// kDefaultShadowMaxFalse, r = ⌊α(5p + 1)/p⌋ = 2: the second-largest of 5p shadow scores. Scoring a shadow costs
/// what scoring its feature does (the run takes 1.5× the time of one shadow per feature: docs/cmab.md, "Choosing k and
/// α").
inline constexpr std::int64_t kCmabDefaultShadowCopies = 5;
/// FUSE's default k: one shadow per feature. FUSE's shadows are features of the search, and more of them dilute the
/// g-RAVE of the real features (docs/fuse.md, "Selection by signal"); with α = kDefaultShadowMaxFalse the rank is
/// then 1, the shadows' maximum.
inline constexpr std::int64_t kFuseDefaultShadowCopies = 1;
/// The largest k the key takes.
inline constexpr std::int64_t kMaxShadowCopies = 1000;
/// The default α (`shadow_max_false`): at most 0.5 false selections expected per run.
inline constexpr double kDefaultShadowMaxFalse = 0.5;

/// S for the key value `shadows` (0 = the default, min(p, kDefaultShadowCap)). InputError naming method.shadows
/// when shadows > p (a feature has at most one shadow).
std::int64_t shadow_count(std::int64_t shadows, std::int64_t p, const std::string& origin);

/// The features that get a shadow, ascending: all p when count = p, else `count` drawn uniformly.
std::vector<FeatureId> shadow_sources(std::int64_t p, std::int64_t count, std::uint64_t seed);

/// Copy `copy` of feature f's shadow rows: at row r the shadow holds the source's value at row perm[r]. The stream
/// is (seed, 0, copy, Shadow, f): keyed by the feature and the copy alone.
std::vector<std::int64_t> shadow_rows(std::int64_t rows, std::uint64_t seed, FeatureId feature, std::int64_t copy = 0);

/// The threshold: the `quantile` (in (0, 1]) of the shadows' scores, linear interpolation between order statistics
/// (type 7; quantile 1 = the maximum). NaN scores count as −∞. Needs at least one shadow.
double shadow_threshold(std::span<const double> shadow_scores, double quantile);

/// r = ⌊α(S + 1)/p⌋ for α = `max_false`, S shadows and p features, at least 1 (the maximum): the rank of the shadow
/// score a feature must beat so that its p-value is at most α/p. When S + 1 < p/α no rank reaches α, and r = 1 (the
/// bound the run reports is then above α).
std::int64_t shadow_rank(double max_false, std::int64_t shadows, std::int64_t p);

/// The r-th largest of the shadows' scores (r = 1: the maximum; NaN counts as −∞); 1 ≤ r ≤ the shadows.
double shadow_order_threshold(std::span<const double> shadow_scores, std::int64_t rank);

/// The bound on the expected number of false selections among p features of the threshold t: p·(1 + #{T_i > t}) /
/// (S + 1) (each null feature selected with probability at most (1 + #{T_i > t})/(S + 1)).
double shadow_false_bound(std::span<const double> shadow_scores, double threshold, std::int64_t p);

/// The threshold of the rule and what it means: `rank` (0 with a quantile < 1) and the bound on E[V].
struct ShadowThreshold {
  double value = 0.0;
  std::int64_t rank = 0;
  double false_bound = 0.0;
};
/// The rule's threshold for p features: the quantile when `quantile` < 1, else the shadow_rank(max_false)-th largest.
ShadowThreshold shadow_rule(std::span<const double> shadow_scores, std::int64_t p, double quantile, double max_false);

/// The rule's facts (result.h5's attributes of the method's group, run.json): shadows (S, all copies),
/// shadow_copies, shadow_max_false, shadow_quantile, shadow_rank (0 with a quantile below 1), shadow_false_bound and,
/// when `single_threshold`, shadow_threshold (FUSE's several searches each have their own: no single one).
void add_shadow_facts(std::vector<MethodFact>& facts, const ShadowThreshold& threshold, std::int64_t shadows,
                      std::int64_t copies, double quantile, double max_false, bool single_threshold);

/// The threshold in words for the log: "the maximum of S shadows'", "the 2nd largest of S shadows'" or "the
/// quantile 0.9 of S shadows'".
std::string describe_shadow_threshold(const ShadowThreshold& threshold, std::int64_t shadows, double quantile);

/// ConfigError naming method.shadow_quantile and method.shadow_max_false when both are set (a quantile below 1
/// replaces the rank of shadow_max_false, so one of them would be ignored).
void check_shadow_keys(double quantile, double max_false);

/// The features whose score is strictly above `threshold`, ascending (a NaN score is never selected).
std::vector<FeatureId> select_above(std::span<const double> scores, double threshold);

/// The shadow rule's keys (shadows, shadow_copies, shadow_max_false, shadow_quantile), declared once for every method
/// that selects by it; `quantile_text` says which score the quantile is of.
template <class Visitor, class Params>
void visit_shadow_keys(Visitor& v, Params& p, const char* quantile_text) {
  using keyspec::range;
  v("shadows", p.shadows, range(0, 1e9, "features with shadows under select = \"shadow\" (0 = all, at most 1000)"));
  v("shadow_copies", p.shadow_copies,
    range(1, static_cast<double>(kMaxShadowCopies),
          "select = \"shadow\": shadows per feature, each its own row shuffle"));
  v("shadow_max_false", p.shadow_max_false,
    KeySpec{0,
            1e9,
            {},
            "select = \"shadow\": the expected false selections allowed (p-value of the pooled shadows <= this/p)",
            true,
            false});
  v("shadow_quantile", p.shadow_quantile, KeySpec{0, 1, {}, quantile_text, true, false});
}

}  // namespace bfs::methods

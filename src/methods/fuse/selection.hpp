#pragma once
// One FUSE iteration's walk ([FUSE Alg. 1, §4–6.2]), on a Tree (tree.hpp), with every random
// choice drawn from the caller's stream:
//  * while the node has been visited (T_F + pending > 0 — a pending descent counts, so a batch spreads out), pick
//    an action: "discrete" widens the node (⌊T_F^{1/b}⌋ children) and takes its first untried child, else the
//    argmax of UCB1-tuned (eq. 5); "continuous" takes the argmax of eq. 9 over every action (features not in F
//    and f_s). Exact ties in either argmax go to a draw. f_s ends the walk, F is final;
//  * an unvisited node is the node the iteration adds; from it the random phase (§6.2): while u < q^{|F|}
//    (u uniform in [0, 1)), add a uniformly drawn feature not in F — so the walk stops at depth d with probability
//    1 − q^d, and never at ∅.
// Readings: an untried action (no real or pending visit) scores +∞ in eq. 9 (`untried = "first"`, the job's
// default): eq. 9 read literally at t_{F,f} = 0, where its exploration term is +∞, so every untried action is tried
// before any is tried again. `untried = "rave"` is the other reading: its RAVE term (1−β)·ℓ-RAVE + β·g-RAVE,
// or +∞ when c = 0; under it the search becomes a single chain (docs/fuse.md, "Continuous heuristic").
// α = c/(c + t_{F,f}) (0 when c = 0) and β = c_l/(c_l + t_l) with t_l the count of ℓ-RAVE_{F,f}. Pending visits enter
// T_F and t_{F,f} of the exploration term only; an action with pending but no real visits has μ̂ = σ̂² = 0.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "methods/fuse/fuse_params.hpp"
#include "methods/fuse/tree.hpp"

namespace bfs::fuse {

/// The knobs of a descent. A job's come from FuseParams (search_settings); these initialisers are the unit tests'
/// hand-checked values (c_e = 0.01 and untried = rave there, while the job's defaults are 1 and "first").
struct SearchSettings {
  Heuristic heuristic = Heuristic::discrete;
  double widening_b = 2.0;
  double q = 0.999;
  double c_e = 0.01;
  double c = 100.0;
  double c_l = 100.0;
  Untried untried = Untried::rave;
};
SearchSettings search_settings(const FuseParams& params);

/// The exploration term of eq. 5: sqrt(c_e·ln T / t · min(1/4, σ̂² + sqrt(2·ln T / t))); t > 0.
double exploration(double variance, double parent_visits, double visits, double c_e);
/// UCB1-tuned (eq. 5): μ̂ + exploration(σ̂², T_F, t_{F,f}, c_e).
double ucb1_tuned(double mean, double variance, double parent_visits, double visits, double c_e);
/// Eq. 9's score of `feature` (or f_s = p) at `node`; `action` is its entry in node.actions or nullptr.
double continuous_score(const Tree& tree, std::int32_t node, const Action* action, std::int32_t feature,
                        const SearchSettings& settings);
/// The same with the feature's widening score (its RAVE term) already known.
double continuous_score_given(const Tree& tree, std::int32_t node, const Action* action, double rave,
                              const SearchSettings& settings);

/// The discrete choice at a visited node (widens it first); returns the index in node.actions.
std::int32_t select_discrete(Tree& tree, std::int32_t node, std::span<const std::uint8_t> in_set,
                             const SearchSettings& settings, Rng& rng);
/// The continuous choice at a visited node (adds the chosen action if new); returns the index in node.actions.
std::int32_t select_continuous(Tree& tree, std::int32_t node, std::span<const std::uint8_t> in_set,
                               const SearchSettings& settings, Rng& rng);

/// The random phase (§6.2) from the set `features` (marked in `in_set`, size p), extended in place.
void random_phase(double q, std::vector<std::int32_t>& features, std::vector<std::uint8_t>& in_set, Rng& rng);

/// One descent from the root (discrete or continuous): the tree grows (widening, the added node), the statistics do
/// not — back the returned Descent up with its reward (Tree::backup).
Descent descend(Tree& tree, const SearchSettings& settings, Rng& rng);

/// RAND^R's final set: `size` distinct features drawn uniformly from p (all p when size ≥ p), in draw order.
std::vector<std::int32_t> uniform_subset(std::int32_t p, std::int32_t size, Rng& rng);

}  // namespace bfs::fuse

#pragma once
// FUSE's search tree ([FUSE §3–6, Alg. 1]). States are feature subsets F, actions the features
// not in F and the stopping feature f_s, which makes F final (§3). A tree, not the lattice: no transpositions
// (§6.1: the reward of F updates only the nodes of the current path). Features are 0..p−1; f_s is action p.
//
// Statistics (backed up after each iteration with its final set F_t and reward V(F_t)):
//  * T_F (node visits) and per action t_{F,f}, μ̂_{F,f} and σ̂²_{F,f} (Welford; population variance, divisor t, as
//    UCB1-tuned's empirical variance, eq. 5);
//  * ℓ-RAVE_{F,f} (eq. 7): mean of V(F_t) over the iterations through F whose F_t contains f. Only f ∉ F are kept
//    (every F_t through F contains F). For f_s, §5.2's per-level stopping feature f_s^{(|F|)}: the iterations
//    through F whose final set has |F| features, i.e. those that stopped at F;
//  * g-RAVE_f (eq. 6): mean of V(F_t) over every final set containing f; g-RAVE_{f_s^{(d)}} (eq. 8): mean over the
//    final sets of d features (the paper's |F_t| = d + 1 counts f_s);
//  * unseen features score 0 in ℓ- and g-RAVE (Algorithm 1 initialises g-RAVE to 0).
// The node added by an iteration (its first visit) gets T_F and ℓ-RAVE but no action statistics: the random phase
// below it is not part of the tree (Algorithm 1 names no f* there).
//
// Progressive widening (§5.1, §5.3): the paper adds a child when ⌊T_F^b⌋ grows with b < 1, yet §7.1 sets b = 2;
// we read ⌊T_F^{1/b}⌋ children (b = 2 ⇒ ⌊√T_F⌋). Each new child maximises (1−β)·ℓ-RAVE_{F,f} + β·g-RAVE_f over
// the actions not yet children (f_s included, with its level's RAVE), β = c_l / (c_l + t_l) with t_l the count of
// ℓ-RAVE_{F,f} (β = 0 when c_l = 0); ties go to a draw from the caller's stream.
//
// Memory: about one node per iteration (the node it adds), whose ℓ-RAVE holds the features its random phase added; an
// ℓ-RAVE is a sorted vector (features seen below F only), not a dense p-vector, so 2·10⁵ iterations at p = 500 stay
// in the tens of MB rather than 2·10⁵ × 500 entries.
//
// Pending descents (batch B > 1) are virtual visits: they count in T_F and t_{F,f} for widening and exploration only
// (never in μ̂, σ̂² or RAVE), are added before the rewards are known and removed when they are backed up.
#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.hpp"

namespace bfs::fuse {

/// One action of a node: a feature (or f_s) with its child and its reward statistics.
struct Action {
  std::int32_t feature = 0;  ///< 0..p−1, or p for f_s
  std::int32_t child = -1;   ///< the child node (−1 for f_s: F is final)
  std::int64_t visits = 0;   ///< t_{F,f}
  std::int64_t pending = 0;  ///< virtual visits of pending descents
  double mean = 0.0;         ///< μ̂_{F,f}
  double m2 = 0.0;           ///< Welford's sum of squared deviations: σ̂² = m2 / t
  double variance() const { return visits > 0 ? m2 / static_cast<double>(visits) : 0.0; }
  bool operator==(const Action&) const = default;
};

/// A running mean (RAVE entries).
struct RaveStat {
  std::int32_t feature = 0;  ///< 0..p−1, or p for f_s (ℓ-RAVE only)
  std::int64_t count = 0;
  double sum = 0.0;
  double mean() const { return count > 0 ? sum / static_cast<double>(count) : 0.0; }
  bool operator==(const RaveStat&) const = default;
};

/// A node: the subset F reached by adding `feature` to its parent's subset.
struct Node {
  std::int32_t parent = -1;
  std::int32_t feature = -1;    ///< the feature its parent added (−1 at the root)
  std::int32_t depth = 0;       ///< |F|
  std::int64_t visits = 0;      ///< T_F
  std::int64_t pending = 0;     ///< virtual visits of pending descents
  std::vector<Action> actions;  ///< in the order they were added (discrete: the allowed children)
  std::vector<RaveStat> rave;   ///< ℓ-RAVE_{F,·}, sorted by feature
  bool operator==(const Node&) const = default;
};

/// One step of a descent's tree phase: at `node`, the action with index `action` in node.actions.
struct Step {
  std::int32_t node = 0;
  std::int32_t action = 0;
  bool operator==(const Step&) const = default;
};

/// One iteration's walk: the tree phase, the node it added (−1 when f_s ended it inside the tree) and the final set
/// in the order its features were added (tree phase, then random phase).
struct Descent {
  std::vector<Step> steps;
  std::int32_t leaf = -1;
  std::vector<std::int32_t> features;
};

/// ⌊T^{1/b}⌋, exact at perfect powers (T = 0 ⇒ 0).
std::int64_t widening_limit(std::int64_t visits, double b);

/// Everything a Tree holds (for checkpoints: a Tree rebuilt from its state continues bit for bit).
struct TreeState {
  std::int32_t features = 0;              ///< p
  std::vector<Node> nodes;                ///< nodes[0] is the root F = ∅
  std::vector<double> grave_sum;          ///< per feature, eq. 6
  std::vector<std::int64_t> grave_count;  ///< per feature
  std::vector<double> stop_sum;           ///< per level d = 0..p, eq. 8
  std::vector<std::int64_t> stop_count;   ///< per level
  bool operator==(const TreeState&) const = default;
};

class Tree {
 public:
  /// An empty tree (the root F = ∅, unvisited) over p features.
  explicit Tree(std::int32_t features);
  /// A tree from a saved state (sizes checked).
  explicit Tree(TreeState state);
  const TreeState& state() const { return s_; }

  std::int32_t features() const { return s_.features; }
  std::int32_t stop_action() const { return s_.features; }
  std::size_t size() const { return s_.nodes.size(); }
  const Node& node(std::int32_t index) const { return s_.nodes[static_cast<std::size_t>(index)]; }

  /// Adds the action `feature` (and its child node, unless f_s) to `node`; returns its index in node.actions.
  std::int32_t add_action(std::int32_t node, std::int32_t feature);
  /// The index of `feature` in node.actions, or −1.
  std::int32_t find_action(std::int32_t node, std::int32_t feature) const;

  /// ℓ-RAVE_{F,f} and its count t_l (0 and 0 when unseen).
  double lrave(std::int32_t node, std::int32_t feature) const;
  std::int64_t lrave_count(std::int32_t node, std::int32_t feature) const;
  /// g-RAVE_f (eq. 6) of a feature 0..p−1, or g-RAVE_{f_s^{(d)}} (eq. 8) for feature = p and depth d.
  double grave(std::int32_t feature, std::int32_t depth) const;
  std::int64_t grave_count(std::int32_t feature, std::int32_t depth) const;
  /// The per-feature g-RAVE (eq. 6) and counts; the per-level stopping g-RAVE (eq. 8) and counts, d = 0..p.
  const std::vector<double>& grave_sums() const { return s_.grave_sum; }
  const std::vector<std::int64_t>& grave_counts() const { return s_.grave_count; }
  const std::vector<double>& stop_sums() const { return s_.stop_sum; }
  const std::vector<std::int64_t>& stop_counts() const { return s_.stop_count; }

  /// The widening score (1−β)·ℓ-RAVE_{F,f} + β·g-RAVE_f of §5.3.
  double widening_score(std::int32_t node, std::int32_t feature, double c_l) const;
  /// widening_score of every feature and f_s (scores[f], f = 0…p) at `node`, in one pass.
  void widening_scores(std::int32_t node, double c_l, std::vector<double>& scores) const;
  /// Adds children to `node` until it has min(⌊(T_F + pending)^{1/b}⌋, actions available) of them, each the
  /// argmax of widening_score over the actions not yet children; `in_set` marks F. Ties: a draw from `rng`.
  void widen(std::int32_t node, std::span<const std::uint8_t> in_set, double b, double c_l, Rng& rng);

  /// Counts a pending descent as virtual visits on its nodes and actions / removes them again.
  void add_pending(const Descent& descent);
  void remove_pending(const Descent& descent);
  /// Backs up one iteration: T_F, t_{F,f}, μ̂, σ̂² and ℓ-RAVE along the path and at the added node; g-RAVE.
  void backup(const Descent& descent, double reward);
  /// g-RAVE only (eqs. 6 and 8), for a final set found outside the tree (RAND^R).
  void record_final(std::span<const std::int32_t> features, double reward);

  bool operator==(const Tree&) const = default;

 private:
  void add_rave(Node& node, std::int32_t feature, double reward);
  Node& mutable_node(std::int32_t index) { return s_.nodes[static_cast<std::size_t>(index)]; }

  TreeState s_;
};

/// One step of the most-visited path: the feature added, its t_{F,f} and μ̂_{F,f}.
struct PathStep {
  std::int32_t feature = 0;
  std::int64_t visits = 0;
  double mean = 0.0;
};
/// FUSE's selection (§6.3): from the root, the most-visited action (ties: higher μ̂, then lower feature index)
/// until that action is f_s, or the node has no visited action. f_s itself is not a step.
std::vector<PathStep> most_visited_path(const Tree& tree);
/// FUSE^R's ranking (§6.3): features by g-RAVE (eq. 6), highest first; ties: more final sets, then lower index;
/// features in no final set last, by index.
std::vector<std::int32_t> grave_ranking(const Tree& tree);
/// The same ranking of given g-RAVE values and final-set counts (a count of 0: in no final set).
std::vector<std::int32_t> grave_ranking(std::span<const double> grave, std::span<const std::int64_t> counts);

}  // namespace bfs::fuse

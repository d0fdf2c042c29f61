#pragma once
// One tree of the BART sampler (bart.hpp) and the Metropolis–Hastings ratios of its moves, as pure functions so the
// unit tests check them against tests/data/bart_reference.py.
//
// Splits are on cut indices: node (v, c) sends a row left when its value is below cut c of column v, i.e. when the
// row's bin (the number of cuts ≤ x) is ≤ c. A node's range for column v is the interval [L, U] of cut indices its
// ancestors leave available: the root has [0, cuts(v) − 1]; the left child of (v, c) has U = c − 1, the right child
// L = c + 1. A node can split when some column has L ≤ U (the package's cansplit).
//
// Nodes live in a vector and keep their index while they exist (rows are mapped to leaves by index); a death frees
// two slots, which the next birth reuses, lowest first, so the layout is a function of the move sequence alone.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace bfs::bart {

struct Node {
  std::int32_t var = -1;  ///< split column, −1 for a leaf
  std::int32_t cut = 0;   ///< split cut index
  std::int32_t left = -1;
  std::int32_t right = -1;
  std::int32_t parent = -1;
  std::int32_t depth = 0;
  double mu = 0.0;  ///< leaf value
  bool in_use = true;
};

/// [lower, upper] cut indices available to a node for one column (empty when lower > upper).
struct CutRange {
  std::int32_t lower = 0;
  std::int32_t upper = -1;
  bool empty() const { return lower > upper; }
};

class SamplerTree {
 public:
  SamplerTree() { nodes_.push_back(Node{}); }

  const Node& node(std::int32_t id) const { return nodes_[static_cast<std::size_t>(id)]; }
  Node& node(std::int32_t id) { return nodes_[static_cast<std::size_t>(id)]; }
  std::int32_t capacity() const { return static_cast<std::int32_t>(nodes_.size()); }
  bool is_leaf(std::int32_t id) const { return node(id).var < 0; }
  /// An internal node whose two children are leaves (the package's "nog" node: a death candidate).
  bool is_nog(std::int32_t id) const {
    const Node& n = node(id);
    return n.var >= 0 && is_leaf(n.left) && is_leaf(n.right);
  }
  /// The live leaves, and the live nog nodes, in index order (into out, reused; leaves() also returned).
  void leaves(std::vector<std::int32_t>& out) const {
    collect([this](std::int32_t id) { return is_leaf(id); }, out);
  }
  void nogs(std::vector<std::int32_t>& out) const {
    collect([this](std::int32_t id) { return is_nog(id); }, out);
  }
  std::vector<std::int32_t> leaves() const {
    std::vector<std::int32_t> out;
    leaves(out);
    return out;
  }
  std::int32_t size() const {
    return static_cast<std::int32_t>(
        std::count_if(nodes_.begin(), nodes_.end(), [](const Node& n) { return n.in_use; }));
  }

  /// The range of cut indices of column v left to node id (cut_count = the column's number of cuts).
  CutRange range(std::int32_t id, std::int32_t v, std::int32_t cut_count) const {
    CutRange r{0, cut_count - 1};
    for (std::int32_t child = id, parent = node(id).parent; parent >= 0; child = parent, parent = node(parent).parent) {
      const Node& p = node(parent);
      if (p.var != v) continue;
      if (p.left == child)
        r.upper = std::min(r.upper, p.cut - 1);
      else
        r.lower = std::max(r.lower, p.cut + 1);
    }
    return r;
  }

  /// Columns node id can split on (cut_counts[v] = cuts of column v), ascending, into out (reused: the sampler
  /// asks at every step). A column no ancestor splits on keeps its full range.
  void good_vars(std::int32_t id, std::span<const std::int32_t> cut_counts, std::vector<std::int32_t>& out) const {
    out.clear();
    for (std::int32_t v = 0; v < static_cast<std::int32_t>(cut_counts.size()); ++v) {
      const std::int32_t cuts = cut_counts[static_cast<std::size_t>(v)];
      if (cuts > 0 && !range(id, v, cuts).empty()) out.push_back(v);
    }
  }
  /// The package's cansplit: some column has a cut left.
  bool can_split(std::int32_t id, std::span<const std::int32_t> cut_counts) const {
    for (std::int32_t v = 0; v < static_cast<std::int32_t>(cut_counts.size()); ++v) {
      const std::int32_t cuts = cut_counts[static_cast<std::size_t>(v)];
      if (cuts > 0 && !range(id, v, cuts).empty()) return true;
    }
    return false;
  }

  /// Splits leaf id on (v, c); its children are node(id).left and node(id).right.
  void birth(std::int32_t id, std::int32_t v, std::int32_t c, double mu_left, double mu_right) {
    const std::int32_t depth = node(id).depth + 1;
    const std::int32_t l = allocate(Node{-1, 0, -1, -1, id, depth, mu_left, true});
    const std::int32_t r = allocate(Node{-1, 0, -1, -1, id, depth, mu_right, true});
    Node& n = node(id);
    n.var = v;
    n.cut = c;
    n.left = l;
    n.right = r;
  }
  /// Removes the two leaf children of nog node id, which becomes a leaf with value mu.
  void death(std::int32_t id, double mu) {
    Node& n = node(id);
    node(n.left).in_use = false;
    node(n.right).in_use = false;
    n.var = -1;
    n.left = n.right = -1;
    n.mu = mu;
  }

 private:
  template <class Pred>
  void collect(Pred pred, std::vector<std::int32_t>& out) const {
    out.clear();
    for (std::int32_t id = 0; id < capacity(); ++id)
      if (node(id).in_use && pred(id)) out.push_back(id);
  }
  std::int32_t allocate(const Node& n) {
    for (std::int32_t id = 1; id < capacity(); ++id) {
      if (!node(id).in_use) {
        node(id) = n;
        return id;
      }
    }
    nodes_.push_back(n);
    return capacity() - 1;
  }

  std::vector<Node> nodes_;
};

/// Sufficient statistics of the residuals in a proposed pair of leaves.
struct SplitSums {
  double n_left = 0, sum_left = 0, n_right = 0, sum_right = 0;
};

/// log p(r | leaf) with μ ~ N(0, τ²) integrated out, up to the terms −n/2·log(2πσ²) − Σr²/(2σ²) that cancel between
/// a tree and its birth or death proposal (CGM 1998 §3.2; the full form is in bart_reference.py):
/// ½·log(σ² / (σ² + nτ²)) + τ²·(Σr)² / (2σ²·(σ² + nτ²)).
inline double leaf_log_likelihood(double n, double sum, double sigma, double tau) {
  const double s2 = sigma * sigma;
  const double t2 = tau * tau;
  const double k = s2 + n * t2;
  return 0.5 * std::log(s2 / k) + t2 * sum * sum / (2.0 * s2 * k);
}

/// The prior and proposal probabilities of a birth at a leaf (the R package BART's bd(), CGM 1998 §3.1):
/// grow_node = P(leaf splits) = α(1+d)^−β, grow_left/right = the new children's, 0 where they cannot split;
/// death_after = P(death is proposed in the new tree); pick_nog_after = 1 / its nog nodes; pick_bottom = 1 / the
/// splittable leaves now; birth = P(birth is proposed now).
struct BirthProbabilities {
  double grow_node = 0, grow_left = 0, grow_right = 0, death_after = 0, pick_nog_after = 0, pick_bottom = 0, birth = 0;
};
/// The same for a death at a nog node: grow_node its prior split probability, grow_left/right its children's,
/// birth_after = P(birth is proposed in the smaller tree), pick_bottom_after = 1 / its splittable leaves,
/// death = P(death is proposed now), pick_nog = 1 / the nog nodes now.
struct DeathProbabilities {
  double grow_node = 0, grow_left = 0, grow_right = 0, birth_after = 0, pick_bottom_after = 0, death = 0, pick_nog = 0;
};

/// log p(split leaves) − log p(merged leaf): the likelihood part of a birth's ratio (a death's is its negative).
inline double split_log_likelihood(const SplitSums& s, double sigma, double tau) {
  return leaf_log_likelihood(s.n_left, s.sum_left, sigma, tau) +
         leaf_log_likelihood(s.n_right, s.sum_right, sigma, tau) -
         leaf_log_likelihood(s.n_left + s.n_right, s.sum_left + s.sum_right, sigma, tau);
}

/// The tree-prior × proposal part of a birth's log Metropolis–Hastings ratio.
inline double birth_log_prior_ratio(const BirthProbabilities& p) {
  return std::log(p.grow_node * (1.0 - p.grow_left) * (1.0 - p.grow_right) * p.death_after * p.pick_nog_after) -
         std::log((1.0 - p.grow_node) * p.pick_bottom * p.birth);
}
/// The same for a death: the inverse of the birth it undoes.
inline double death_log_prior_ratio(const DeathProbabilities& p) {
  return std::log((1.0 - p.grow_node) * p.birth_after * p.pick_bottom_after) -
         std::log(p.grow_node * (1.0 - p.grow_left) * (1.0 - p.grow_right) * p.death * p.pick_nog);
}

/// The full log Metropolis–Hastings ratios (tree prior × proposal × likelihood).
inline double birth_log_ratio(const BirthProbabilities& p, const SplitSums& s, double sigma, double tau) {
  return birth_log_prior_ratio(p) + split_log_likelihood(s, sigma, tau);
}
inline double death_log_ratio(const DeathProbabilities& p, const SplitSums& s, double sigma, double tau) {
  return death_log_prior_ratio(p) - split_log_likelihood(s, sigma, tau);
}

}  // namespace bfs::bart

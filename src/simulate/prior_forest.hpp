#pragma once
// A sum of regression trees drawn from the BART prior (Chipman, George & McCulloch 2010), the mean function of paper
// 003 §6.1's "Forest Setup" (the `forest` DGP, simulate/dgp.hpp): "we then draw the mean function f0 from a BART prior
// with 200 trees, using only first 5 covariates for splits".
//
// The prior, as BART's software draws it (the paper gives no more detail):
//  * a node at depth d (the root has d = 0) splits with probability alpha (1 + d)^(−beta), alpha = 0.95, beta = 2;
//  * the split variable is uniform among the variables that still have a cut inside the node's range, and the cut
//    uniform among those cuts; a node where no variable has a cut left is a leaf (BART's rule: no split possible);
//  * the cuts of every variable are the grid Φ⁻¹(k / (cuts + 1)), k = 1..cuts (BART's default: 100 equally spaced
//    quantiles of the N(0, 1) marginals the design has); x_v < cut goes left, and a child keeps only the cuts on its
//    side, so no split is empty on the population;
//  * a leaf's value is N(0, leaf_sd²).
// Draw order (one stream, so the forest is a fixed function of it): trees in order; inside a tree depth first, the
// left subtree before the right; at a node that can split, one uniform for the split coin, then if it splits a
// uniform_int for the variable and one for the cut; at a leaf one normal for the value.
#include <cstdint>
#include <vector>

#include "core/rng.hpp"

namespace bfs {

struct PriorTreeNode {
  std::int32_t var = -1;  ///< split variable (0-based); < 0 for a leaf
  std::int32_t left = -1, right = -1;
  double cut = 0.0;    ///< x[var] < cut goes left
  double value = 0.0;  ///< leaf value
};
/// One tree, its nodes in preorder (root first).
using PriorTree = std::vector<PriorTreeNode>;

struct PriorForestSpec {
  int trees = 200;
  int vars = 5;  ///< split variables x1..x_vars
  int cuts = 100;
  double alpha = 0.95;
  double beta = 2.0;
  double leaf_sd = 1.0;
};

/// Draws spec.trees trees from the BART prior with `rng` (in the order the header comment gives).
std::vector<PriorTree> draw_prior_forest(const PriorForestSpec& spec, Rng& rng);
/// Σ over the trees of the value of the leaf x falls in; x holds at least spec.vars values.
double forest_value(const std::vector<PriorTree>& forest, const float* x);
/// Φ⁻¹(u) for u in (0, 1), to double precision (bisection of Φ; used for the few cut values only).
double normal_quantile(double u);

}  // namespace bfs

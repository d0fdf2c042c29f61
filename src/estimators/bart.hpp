#pragma once
// BART (Chipman, George & McCulloch 2010, "BART: Bayesian additive regression trees", AoAS 4:266–298) with the
// DART sparsity prior (Linero 2018, JASA 113:626–636): the R package BART's wbart sampler and defaults, as [TVS]
// ran it (§3.2, §5.1 Fig. 1, §5.2: `sparse = TRUE`). Debian ships no BART, so this is our own code.
//
// Prior (the package's defaults, BartParams):
//   - y is centred; a leaf value μ ~ N(0, τ²), τ = (max y − min y) / (2k√m), k = 2, m trees;
//   - a node at depth d splits with probability α(1 + d)^−β = 0.95(1 + d)^−2; split column uniform among those with
//     a cut left (DART: ~ s, below); cut uniform among the column's cuts left to the node;
//   - σ² ~ νλ/χ²_ν, ν = 3, λ = σ̂²·χ²_ν⁻¹(1 − q)/ν with q = 0.90; σ̂ = the OLS residual standard deviation
//     (R's summary(lm)$sigma, with an intercept, n − rank degrees of freedom) when the columns are fewer than the
//     rows and that leaves a degree of freedom, else sd(y).
// Cuts (`numcut` = 100, the package's usequants = FALSE): equally spaced strictly inside the column's (min, max);
// a column with fewer than numcut distinct values takes the midpoints of consecutive distinct values; a constant
// column has none and is never split on. Cuts are rounded to float (the data's type) before use, so the sampler's
// split decisions and the stored trees' (FlatTree, x < threshold) are the same comparisons.
//
// A sweep (the package's wbart loop): for each tree in order, its residual r = y − (fit of the other trees); one
// birth/death Metropolis–Hastings step with μ integrated out (birth with probability ½, 1 for a lone root, 0 when no
// leaf can split; a birth leaving a child with < 5 rows is rejected, as the package does); with `change_prob` > 0 a
// CGM change step (a nog node's rule redrawn) is proposed instead with that probability (the package has no change
// move; default 0); then every leaf μ is drawn from its conditional. After the trees, σ² | rest.
// Arithmetic (ours, not the package's): a leaf's residual sum is its eight lane sums (rows i ≡ l mod 8, in row
// order) added pairwise (detail/bart_lanes.hpp); the residual moves from tree to tree as r ← (r − μ_this) + μ_next,
// and the forest's fit is y − r + μ_first once a sweep. Mathematically the package's sums; the rounding is ours.
// DART (`sparse`): the split column is drawn from s ~ Dirichlet(θ/p′ + split counts) and θ from its conditional
// with θ/(θ + ρ) ~ Beta(sparse_a, sparse_b), ρ = p′ (dart.cpp), redrawn after every sweep from sweep ⌊M/2⌋ on
// (the package starts at half the burn-in; here all M sweeps play that role). Before that s is uniform.
// One deviation, documented: a drawn column with no cut left at the node is redrawn from s (the package instead
// keeps a degenerate cut, which a later step removes); both propose only splits the prior allows.
//
// predict(): ȳ + the mean over sweeps > burn of the sum of the m trees. split_counts(): per column, the number of
// splits in the last sweep's forest and its mean over sweeps > burn ([TVS eqs. 9–10] read these).
// All draws come from Rng::stream(seed, 0, 0, Fit) (FitOptions::seed is the evaluation's stream key); the sampler
// is sequential, so the thread count cannot change a model.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "config/estimator_config.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "estimators/detail/bart_tree.hpp"
#include "estimators/estimator.hpp"

namespace bfs::bart {

/// Columns reduced to cut indices: cuts[v] ascending floats, bin(v, i) = number of cuts of v that are ≤ x[i, v]
/// (the row goes left at (v, c) when bin ≤ c).
struct BinnedColumns {
  Index rows = 0;
  std::vector<std::vector<float>> cuts;
  std::vector<std::int32_t> cut_counts;
  std::vector<std::uint16_t> bins;  ///< column-major: bins[v * rows + i]
  std::uint16_t bin(std::int32_t v, Index i) const { return bins[static_cast<std::size_t>(v * rows + i)]; }
  const std::uint16_t* column(std::int32_t v) const { return &bins[static_cast<std::size_t>(v * rows)]; }
};

/// The cuts of one column (see the header comment).
std::vector<float> column_cuts(std::span<const float> values, int numcut);
BinnedColumns bin_columns(const Matrix& X, int numcut);

/// τ, σ̂ and λ of the prior for centred targets.
struct Prior {
  double tau = 0.0;
  double sigma_hat = 0.0;
  double lambda = 0.0;
};
double tau_of(const Vector& y, double k, int trees);
double sigma_hat_of(const Matrix& X, const Vector& y);
double lambda_of(double sigma_hat, double nu, double q);

/// DART's state: log s (the split-column probabilities) and θ.
struct DartState {
  std::vector<double> log_s;
  double theta = 1.0;
};
/// log s ~ Dirichlet(θ/p′ + counts), drawn on the log scale (Gamma shapes far below 1 underflow otherwise).
std::vector<double> draw_log_dirichlet(std::span<const double> shapes, Rng& rng);
/// The package's grid for θ: 1 000 values λ_k = k/1001, θ_k = λ_k ρ/(1 − λ_k), with the parts of θ_k's log weight
/// that do not depend on s (log Γ(θ) − p′ log Γ(θ/p′), and the Beta(a, b) log prior of λ), computed once per fit.
struct ThetaGrid {
  std::vector<double> theta, theta_over_p, gamma_part, prior_a_part, prior_b_part;
  mutable std::vector<double> scratch;  ///< draw_theta's weights, kept to spare an allocation per sweep
  ThetaGrid(double a, double b, double rho, std::size_t columns);
};
/// θ | s on the grid: log weight log Γ(θ) − p′ log Γ(θ/p′) + (θ/p′) Σ log s_j + (a − 1) log λ + (b − 1) log(1 − λ).
double draw_theta(std::span<const double> log_s, const ThetaGrid& grid, Rng& rng);

/// Test hooks: `likelihood = false` samples the tree prior alone (the likelihood and the 5-row rule are off) and
/// `on_sweep` sees the forest after each sweep.
struct SamplerOptions {
  bool likelihood = true;
  std::function<void(int sweep, std::span<const SamplerTree> trees)> on_sweep;
};

/// The kept trees in one arena: each tree in preorder from its root (a node's left child is the next node), tree
/// after tree. A fit keeps M·m trees (10⁴ in [TVS]'s runs) and TVS's rewards read only the split counts, so the
/// trees stay here, 16 bytes a node and two allocations in all, and become a TreeEnsemble (six arrays a tree) only
/// when something predicts or serializes (to_flat_trees).
struct KeptTrees {
  struct Node {
    std::int32_t var;    ///< split column, −1 for a leaf
    std::int32_t right;  ///< offset from the tree's root of the right child; −1 for a leaf
    double value;        ///< the cut value (a float, exactly) for a split; the leaf value for a leaf
  };
  std::vector<Node> nodes;
  std::vector<std::size_t> tree_end;  ///< per tree, one past its last node
};
/// Every kept tree as a FlatTree (go left when x < threshold), in the arena's order.
std::vector<FlatTree> to_flat_trees(const KeptTrees& kept);

struct SamplerOutput {
  KeptTrees kept_trees;  ///< the m trees of each sweep > burn, sweep by sweep
  int kept_sweeps = 0;
  std::vector<double> last_splits;  ///< per column, splits in the last sweep's forest
  std::vector<double> mean_splits;  ///< per column, the mean over sweeps > burn
  Vector mean_fit;                  ///< per row, the forest's fit averaged over sweeps > burn (centred scale)
  double last_sigma = 0.0;
};

/// Runs params.sweeps sweeps on centred targets y.
SamplerOutput run_sampler(const BinnedColumns& columns, const Vector& y, const BartParams& params, const Prior& prior,
                          Rng& rng, const SamplerOptions& options = {});

}  // namespace bfs::bart

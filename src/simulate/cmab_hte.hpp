#pragma once
// Synthetic contextual-bandit logs after [CMAB §3.1] (3 arms; 5 features with heterogeneous treatment effects,
// 2 correlational, the rest irrelevant), our own specification (the paper's causalml generator is not in Debian):
//   arm uniform on {arm0, arm1, arm2};  x_j iid N(0, 1), j = 1..p (p >= 10);
//   h_j = (g_j(x_j) − m_j) / s_j, g = x, x², x³, max(x, 0), sin(πx) for j = 1..5, with the exact N(0,1) moments
//     m = 0, 1, 0, 1/√(2π), 0;  s = 1, √2, √15, √(1/2 − 1/(2π)), √((1 − e^{−2π²})/2)
//     (the specification rounds the last two to 0.583819 and 0.707107);
//   η = logit(0.1) + 0.5 x6 − 0.5 x7 + 0.5 (h1 + h2)·[arm1] + 0.5 (h3 + h4 + h5)·[arm2];  reward ~ Bernoulli(expit η).
// truth = x1..x5 (they change which arm wins); correlational = x6, x7 (they move every arm's reward alike).
// η is computed from the float values stored in X, so a reader of the log recomputes it exactly.
//
// Random streams (core/rng.hpp), Rng::stream(seed, round 0, slot, Purpose::Simulate, feature):
//   column j (0-based):  slot 1, feature j — its n values N(0,1) in row order (Rng::normal);
//   arm:                 slot 2, feature 0 — one uniform_int(3) per row, in row order;
//   reward:              slot 3, feature 0 — one uniform per row, in row order: reward = u < expit(η).
// So any column block is generated without the others (columns() draws on demand, deterministically), and the
// header (arms, rewards) needs only x1..x7, drawn row by row from their seven streams side by side: memory is
// O(rows), never the whole of X (n = 10⁶, p = 1000 is 4 GB).
#include <cstdint>
#include <memory>
#include <span>

#include "data/logged_data.hpp"

namespace bfs {

/// The smallest p of the design (5 HTE + 2 correlational + 3 irrelevant features).
inline constexpr Index kCmabHteMinFeatures = 10;

/// A simulated log of n rows and p features: header drawn now, X column blocks on demand. ConfigError naming n or p
/// for p < 10 or n < 2, and when n is so small that an arm drew no rows.
std::unique_ptr<LoggedSource> simulate_cmab_hte(Index n, Index p, std::uint64_t seed);

/// h_j(x) for j = 1..5 (the standardised g_j above); InternalError for another j.
double cmab_hte_h(int j, double x);
/// η of one row: `x` holds at least x1..x7 (7 values), `arm` in {0, 1, 2}.
double cmab_hte_eta(std::span<const float> x, int arm);

}  // namespace bfs

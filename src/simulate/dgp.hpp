#pragma once
// Data-generating processes with known truth. y = f(x) + ε; the columns f does not use are drawn like the others.
// [Wu eqs. 1, 3, 5] and [TVS §6.1] — truly relevant features x1..x5 (truth = {0,..,4}):
//   friedman1 (eq. 1): x ~ U[0,1]^p, f = 10 sin(π x1 x2) + 20 (x3 − 0.5)² + 10 x4 + 5 x5, ε ~ N(0, 1)
//   friedman3 (eq. 3): x ~ U[0,1]^p, f = 0.1 e^{4 x1} + 4 / (1 + e^{−20 (x2 − 0.5)}) + 4 x3 + 3 x4 + 2 x5, ε ~ N(0, 1)
//   liang     (eq. 5): x = (e + z) / 2, z ~ N(0, I_p), e = η·1 with η ~ N(0,1) per row (pairwise corr 0.5),
//                      f = 10 x2 / (1 + x1²) + 5 sin(x3 x4) + 2 x5, ε ~ N(0, 0.5)
//   linear  (003 §6.1): x ~ N(0, Σ), Σ_jk = 0.9^|j−k| (an AR(1) along j), f = x1 + 2x2 + 3x3 − 2x4 − x5, ε ~ N(0, 5)
//   friedman1-corr (003 §6.1, "Friedman Setup ... correlations of roughly 0.3"): x_j = Φ(z_j), z equicorrelated
//                      with ρ = 2 sin(0.3π/6) = 0.31287 (z_j = √ρ η + √(1−ρ) e_j, η shared by the row), which makes the
//                      uniform x_j pairwise Pearson-correlated 0.3; f = friedman1's f; ε ~ N(0, 1), the σ² of the
//                      Friedman design §6.1 refers to ("described earlier"; it is §5.1's, with σ² = 1): §6.1 gives
//                      σ² only for its other designs (linear 5, forest 0.5, liang 0.5)
//   forest  (003 §6.1): x ~ N(0, Σ), Σ_jk = 0.3^|j−k| (an AR(1) along j); f = a sum of 200 trees drawn from the BART
//                      prior splitting on x1..x5 only (simulate/prior_forest.hpp), leaf values N(0, 1/200) (our
//                      scale: f has prior variance 1 at every x; Var_x f is 0.2–0.4 for a drawn f); ε ~ N(0, 0.5).
//                      The trees are a fixed function of the seed, drawn from the stream (seed, 0, 0, Simulate, 2^40),
//                      so every batch, period and rank of a job shares one f (dgp_mean_function gives it); the rows
//                      come from the batch stream.
// [FIRST] (FIRST) §5 eqs. 16–18 — the truth is each design's own set (dgp_truth; 0-based, x1 = column 0):
//   ishigami     (eq. 16): f = sin(2πx1 − π) + 7 sin²(2πx2 − π) + 0.1 (2πx3 − π)⁴ sin(2πx1 − π); truth x1, x2, x3
//   heavy-tailed (eq. 17): f = 2 log(x1² + x2⁴) / (cos x1 + sin x3) + x2² e^{x3} / √(1.1 − x6); truth x1, x2, x3, x6
//   friedman-mod (eq. 18): f = 10 sin(π x1 x7) + 20 (x8 − 0.5)² + 10 x9 + 5 x10 − 20 x9 x10 − 10; truth x1, x7..x10
//   x is §5's Gaussian copula with uniform marginals: z ~ N(0, Σ), Σ_jk = ρ^|j−k| (SimulateSpec::rho, default 0),
//   x_j = Φ(z_j) ∈ [0, 1]. §5 takes U[0, 1] for every marginal G_j, so x is stored on [0, 1] for all three; the
//   Ishigami's [−π, π] is the rescaling 2πx − π inside eq. 16. z is drawn as an AR(1) along j (Σ exactly). ε ~ N(0, 1).
//   ishigami-classic (§3.3): x ~ U[−π, π]^p independent, f = sin x1 + 7 sin² x2 + 0.1 x3⁴ sin x1, ε ~ N(0, 1);
//   truth x1, x2, x3. The paper's design has p = 3 (what `banditfs simulate ishigami-classic` writes unless --p is
//   given); a larger p appends independent U[−π, π] columns that f does not use. It takes no ρ.
// Batch k of a seed is drawn row by row from one stream (seed, k, 0, Simulate): a row's x in column order, then its
// ε; y is computed from the float values stored in X, so dgp_mean(X row) + ε (dgp_mean_function(spec) for forest)
// reproduces y up to double rounding.
//
// Binary (SimulateSpec::binary, data.task = "binary"). friedman1, friedman3, liang, linear, friedman1-corr, forest:
// y ~ Bernoulli(Φ((f − m) / s)), m and s the mean and population standard deviation of f over the batch's own rows.
// Standardising per batch puts these DGPs on one scale (class balance ≈ 1/2, P(y = 1) increasing in f) without a
// per-DGP constant; the price is that a row's P(y = 1) depends on its batch, which is harmless for a batch of hundreds
// of rows. s = 0 (e.g. n = 1) is a ConfigError. The [FIRST] designs follow §6.1 instead, "Y = Bernoulli(Φ(f*(X)))"
// (an unnumbered display; f* is eq. 16, 17 or 18): Φ of f itself, neither centred nor scaled (eq. 18's −10 is the
// paper's own centring), so P(y = 1) = Φ(f(x)) exactly, whatever the batch.
// Either way the batch draws X (and the regression ε, unused) exactly as the regression batch does, then one uniform
// per row, in row order, after all of X: X of a binary batch is bit-identical to X of the regression batch of the
// same seed. The truth is the regression truth.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/job_config.hpp"  // Dgp: the DGP names, declared once
#include "data/dataset.hpp"
#include "data/source.hpp"

namespace bfs {

struct SimulateSpec {
  Dgp dgp = Dgp::Friedman1;  ///< an (X, y) design: one of xy_dgps()
  Index n = 300;
  Index p = 1000;
  std::uint64_t seed = 0;
  bool binary = false;  ///< 0/1 labels from Φ of f (standardised or not: see the header comment)
  double rho = 0.0;     ///< copula correlation, Σ_jk = ρ^|j−k|, in [0, 1); only where dgp_uses_rho (else 0)
};

/// The known (X, y) DGPs (config's Dgp: data.dgp and `banditfs simulate`), [FIRST]'s four designs last; not
/// cmab-hte, which simulates contextual-bandit logs (simulate/cmab_hte.hpp).
std::vector<Dgp> xy_dgps();
/// Their names, in the same order.
std::vector<std::string> dgp_names();
/// The DGP named `name` (Dgp's table, cmab-hte included); ConfigError "data.dgp = "x" is not a known DGP (known:
/// the (X, y) names)" otherwise.
Dgp dgp_from_name(const std::string& name);
/// The truly relevant features of a DGP, 0-based (x1 = 0), ascending.
std::vector<FeatureId> dgp_truth(Dgp dgp);
/// True for the Gaussian-copula designs that take SimulateSpec::rho (ishigami, heavy-tailed, friedman-mod).
bool dgp_uses_rho(Dgp dgp);
/// f(x) of a DGP for one row (x needs dgp_truth().back() + 1 values). Throws ConfigError for forest, whose f depends
/// on the seed (use dgp_mean_function).
double dgp_mean(Dgp dgp, std::span<const float> x);
/// f of spec's DGP (any, forest included: it holds the trees drawn from spec.seed) as a function of one row, which
/// needs dgp_truth().back() + 1 values. Build it once: forest's trees are drawn when it is made.
std::function<double(std::span<const float>)> dgp_mean_function(const SimulateSpec& spec);
/// Variance of ε of a DGP (friedman1, friedman3: 1; liang 0.5; linear 5; friedman1-corr 1, forest 0.5; 1 for the
/// [FIRST] designs).
double dgp_noise_variance(Dgp dgp);
/// One batch: batch k is drawn from the stream (seed, k) so batches are fresh and reproducible. Throws ConfigError
/// naming data.dgp / data.p / rho when the DGP is cmab-hte, p is below its largest true feature, or ρ is not finite
/// in [0, 1) (or not 0 for a DGP that does not use it).
Dataset simulate(const SimulateSpec& spec, int batch = 0);
/// `periods` fresh batches stacked with period_offsets (what `banditfs simulate --periods` writes).
Dataset simulate_periods(const SimulateSpec& spec, int periods);
/// What `banditfs simulate` writes: one batch (periods = 1) or `periods` batches stacked with period_offsets;
/// spec.binary gives 0/1 labels. CLI-free so the CLI's flags only fill the spec.
Dataset simulate_dataset(const SimulateSpec& spec, int periods);
/// A source that draws batch k on demand (online: one batch per period; offline: batch 0). A binary spec checks
/// that each loaded batch holds both classes (data/labels.hpp), so a tiny n fails with a message, not in a fit.
std::unique_ptr<DataSource> make_simulated_source(const SimulateSpec& spec, int periods, bool online,
                                                  std::int64_t noise_features);

/// Refuses a simulation whose X (rows × cols float32 values) would not fit in this machine's memory, before any
/// allocation: InputError naming `keys` (e.g. "--n, --p, --periods" or "data.n, data.p"), the size asked for and
/// the memory it would need (a bad_alloc deep inside would say neither).
void check_simulation_fits(std::int64_t rows, std::int64_t cols, const std::string& keys);

}  // namespace bfs

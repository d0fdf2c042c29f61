#pragma once
// Data-generating processes with known truth (paper 000 eqs. 1, 3, 5; paper 003 §6.1). y = f(x) + ε, the truly
// relevant features are always x1..x5 (truth = {0,..,4}), the other p − 5 columns are drawn like them but unused:
//   friedman1 (eq. 1): x ~ U[0,1]^p, f = 10 sin(π x1 x2) + 20 (x3 − 0.5)² + 10 x4 + 5 x5, ε ~ N(0, 1)
//   friedman3 (eq. 3): x ~ U[0,1]^p, f = 0.1 e^{4 x1} + 4 / (1 + e^{−20 (x2 − 0.5)}) + 4 x3 + 3 x4 + 2 x5, ε ~ N(0, 1)
//   liang     (eq. 5): x = (e + z) / 2, z ~ N(0, I_p), e = η·1 with η ~ N(0,1) per row (pairwise corr 0.5),
//                      f = 10 x2 / (1 + x1²) + 5 sin(x3 x4) + 2 x5, ε ~ N(0, 0.5)
//   linear  (003 §6.1): x ~ N(0, Σ), Σ_jk = 0.9^|j−k| (an AR(1) along j), f = x1 + 2x2 + 3x3 − 2x4 − x5, ε ~ N(0, 5)
// Batch k of a seed is drawn row by row from one stream (seed, k, 0, Simulate); y is computed from the float values
// stored in X, so dgp_mean(X row) + ε reproduces y up to double rounding.
//
// Binary (SimulateSpec::binary, data.task = "binary"): y ~ Bernoulli(Φ((f − m) / s)), m and s the mean and
// population standard deviation of f over the batch's own rows. Standardising per batch puts every DGP on one scale
// (class balance ≈ 1/2, P(y = 1) increasing in f) without a per-DGP constant; the price is that a row's P(y = 1)
// depends on its batch, which is harmless for a batch of hundreds of rows. s = 0 (e.g. n = 1) is a ConfigError.
// The batch draws X (and the regression ε, unused) exactly as the regression batch does, then one uniform per row,
// in row order, after all of X: X of a binary batch is bit-identical to X of the regression batch of the same seed.
// The truth is unchanged (x1..x5).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/job_config.hpp"  // Dgp: the DGP names, declared once
#include "data/dataset.hpp"
#include "data/source.hpp"

namespace bfs {

struct SimulateSpec {
  std::string dgp = "friedman1";  ///< friedman1 | friedman3 | liang | linear
  Index n = 300;
  Index p = 1000;
  std::uint64_t seed = 0;
  bool binary = false;  ///< 0/1 labels from Φ of the standardised f (see the header comment)
};

/// Names of the known DGPs.
std::vector<std::string> dgp_names();
/// f(x) of a DGP for one row (x1..x5 are used). Throws ConfigError for an unknown DGP.
double dgp_mean(const std::string& dgp, std::span<const float> x);
/// Variance of ε of a DGP (1, 1, 0.5, 5).
double dgp_noise_variance(const std::string& dgp);
/// One batch: batch k is drawn from the stream (seed, k) so batches are fresh and reproducible.
/// Throws ConfigError naming data.dgp / data.p when the DGP is unknown or p is below its number of true features.
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

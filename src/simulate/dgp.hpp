#pragma once
// Data-generating processes with known truth (paper 000 eqs. 1, 3, 5; paper 003 §6.1).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.hpp"
#include "data/source.hpp"

namespace bfs {

struct SimulateSpec {
  std::string dgp = "friedman1";  ///< friedman1 | friedman3 | liang | linear
  Index n = 300;
  Index p = 1000;
  std::uint64_t seed = 0;
};

/// Names of the known DGPs.
std::vector<std::string> dgp_names();
/// One batch: batch k is drawn from the stream (seed, k) so batches are fresh and reproducible.
/// Throws ConfigError naming data.dgp / data.p when the DGP is unknown or p is below its number of true features.
Dataset simulate(const SimulateSpec& spec, int batch = 0);
/// `periods` fresh batches stacked with period_offsets (what `banditfs simulate --periods` writes).
Dataset simulate_periods(const SimulateSpec& spec, int periods);
/// A source that draws batch k on demand (online: one batch per period; offline: batch 0).
std::unique_ptr<DataSource> make_simulated_source(const SimulateSpec& spec, int periods, bool online,
                                                  std::int64_t noise_features);

}  // namespace bfs

#pragma once
// The pure parts of stability selection with complementary pairs [ShahSamworth §2] (docs/stability.md): the
// half-samples, the seeds of the 2B runs, the selection threshold and the error bounds. The driver that runs a method
// on each half is src/stability/; the summary of the runs is stability_summary.hpp.
//
// Halves. Pair b splits the rows of each period (the whole data set offline, a log's rows for cmab-scores) by one
// uniformly random permutation of that period's m rows, drawn from the stream (seed, b, period, Stability, 0): the
// first ⌊m/2⌋ permuted rows are half A, the next ⌊m/2⌋ half B (with m odd, one row sits out of pair b). Both
// halves are returned ascending, so a half keeps the rows' order (and an online run its periods).
//
// Seeds. Run i of the 2B (i = 2b for half A of pair b, 2b + 1 for half B) runs the method with the seed
// Rng::stream(seed, i, 0, Stability, 1).next_u64() >> 1 (63 bits, a valid run.seed): a fresh stream per run, never
// shared with the splits.
//
// Bounds (V = the number of noise features selected, p features, q = the mean size of the runs' selections, θ = q/p):
//   [MeinshausenBuhlmann Thm 1]: E[V] ≤ q² / ((2π_thr − 1) p), for π_thr in (1/2, 1]. Assumes the noise features'
//     selection indicators are exchangeable and the method is no worse than random guessing. [ShahSamworth Thm 1]
//     shows it holds for complementary pairs without the exchangeability of the half-sample selections.
//   [ShahSamworth §3.3, eq. 8 / Thm 3] under unimodality of the simultaneous selection frequencies, as the R package
//     stabs computes it (sampling.type = "SS", assumption = "unimodal"): E[V] ≤ q² / (p · C(π_thr, B)) with
//       C = 2 (2π_thr − 1 − 1/(2B))                    for π_thr ≤ 3/4,
//       C = (1 + 1/B) / (4 (1 − π_thr + 1/(2B)))       for π_thr > 3/4,
//     defined for π_thr ≥ 1/2 + min(θ², 1/(2B) + 3θ²/4) (stabs refuses smaller thresholds); NaN outside that range
//     and where C ≤ 0.
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"

namespace bfs {

struct HalfPair {
  std::vector<Index> first, second;  ///< disjoint, ascending, equal size
};

/// Pair b's halves of rows [0, rows) cut into periods by `period_offsets` (empty = one period; else offsets from 0 to
/// rows, ascending). Each period needs at least 2 rows (InternalError else: the driver checks the data first).
HalfPair complementary_halves(std::span<const std::int64_t> period_offsets, Index rows, std::uint64_t seed,
                              std::int64_t pair);

/// The seed of run i (0 ≤ i < 2B) of stability selection with run seed `seed`.
std::uint64_t stability_run_seed(std::uint64_t seed, std::int64_t run);

/// [MeinshausenBuhlmann Thm 1]'s bound q² / ((2π − 1) p); NaN unless π in (1/2, 1] and p ≥ 1.
double bound_meinshausen_buhlmann(double q, std::int64_t p, double threshold);
/// [ShahSamworth]'s bound under unimodality, as stabs computes it (header); NaN where it is not defined.
double bound_shah_samworth_unimodal(double q, std::int64_t p, double threshold, std::int64_t pairs);
/// The π_thr at which [MeinshausenBuhlmann Thm 1]'s bound equals `max_false`: (1 + q²/(p · max_false)) / 2, at most
/// 1 (where the bound stays above max_false: the run reports the bound it has). 1 when q = 0 (no run selects).
double threshold_for_max_false(double q, std::int64_t p, double max_false);

/// Waves. The 2B runs go through the Executor in waves, and its ranks meet once per wave: each meeting waits for the
/// wave's slowest worker (rank × thread), so waves of one run per worker lose a share of every run's spread to
/// waiting, which longer waves average out. A wave gives each worker about kWaveSeconds of runs — short enough that
/// progress is reported and a stop request is seen within seconds.
constexpr double kWaveSeconds = 5.0;
constexpr std::int64_t kMaxRunsPerWorker = 64;

/// Runs per worker that fill kWaveSeconds, after a wave of `runs_per_worker` runs per worker took `seconds`: in
/// [1, kMaxRunsPerWorker].
std::int64_t runs_per_worker_for(double seconds, std::int64_t runs_per_worker);

/// The runs of the wave that starts after `done` of `total`: `runs_per_worker` for each of `workers`, at least one
/// per worker (fewer only at the end), and ending no later than the first multiple of `checkpoint_every` (> 0) at or
/// after that minimum, where the checkpoint is written.
std::int64_t wave_size(std::int64_t done, std::int64_t total, std::int64_t workers, std::int64_t runs_per_worker,
                       std::int64_t checkpoint_every);

}  // namespace bfs

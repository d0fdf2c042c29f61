#include "run/stability_selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace bfs {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint64_t kSplitStream = 0;
constexpr std::uint64_t kSeedStream = 1;

}  // namespace

HalfPair complementary_halves(std::span<const std::int64_t> period_offsets, Index rows, std::uint64_t seed,
                              std::int64_t pair) {
  std::vector<std::int64_t> offsets(period_offsets.begin(), period_offsets.end());
  if (offsets.empty()) offsets = {0, static_cast<std::int64_t>(rows)};
  BFS_CHECK(offsets.front() == 0 && offsets.back() == rows, "period offsets do not cover the ", rows, " rows");
  HalfPair halves;
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
    const std::int64_t begin = offsets[k], m = offsets[k + 1] - begin;
    BFS_CHECK(m >= 2, "period ", k, " has ", m, " rows; a half-sample needs at least 2");
    Rng rng = Rng::stream(seed, static_cast<std::uint64_t>(pair), k, Purpose::Stability, kSplitStream);
    const std::vector<std::int64_t> perm = rng.permutation(m);
    const std::int64_t half = m / 2;
    for (std::int64_t i = 0; i < half; ++i) halves.first.push_back(begin + perm[static_cast<std::size_t>(i)]);
    for (std::int64_t i = half; i < 2 * half; ++i) halves.second.push_back(begin + perm[static_cast<std::size_t>(i)]);
  }
  // Within a period the permutation's order is random; periods come in order, so one sort per half suffices.
  std::sort(halves.first.begin(), halves.first.end());
  std::sort(halves.second.begin(), halves.second.end());
  return halves;
}

std::uint64_t stability_run_seed(std::uint64_t seed, std::int64_t run) {
  // 63 bits: a valid run.seed (the schema's integers are TOML's signed 64-bit ones), so the run's job text is one.
  return Rng::stream(seed, static_cast<std::uint64_t>(run), 0, Purpose::Stability, kSeedStream).next_u64() >> 1;
}

double bound_meinshausen_buhlmann(double q, std::int64_t p, double threshold) {
  if (!(threshold > 0.5 && threshold <= 1.0) || p < 1) return kNaN;
  return q * q / ((2.0 * threshold - 1.0) * static_cast<double>(p));
}

double bound_shah_samworth_unimodal(double q, std::int64_t p, double threshold, std::int64_t pairs) {
  if (p < 1 || pairs < 1 || !(threshold <= 1.0)) return kNaN;
  const double theta = q / static_cast<double>(p), B = static_cast<double>(pairs);
  double c = 0.0;
  if (threshold <= 0.75) {
    if (threshold < 0.5 + std::min(theta * theta, 1.0 / (2.0 * B) + 0.75 * theta * theta)) return kNaN;
    c = 2.0 * (2.0 * threshold - 1.0 - 1.0 / (2.0 * B));
  } else {
    c = (1.0 + 1.0 / B) / (4.0 * (1.0 - threshold + 1.0 / (2.0 * B)));
  }
  if (!(c > 0.0)) return kNaN;
  return q * q / static_cast<double>(p) / c;
}

double threshold_for_max_false(double q, std::int64_t p, double max_false) {
  BFS_CHECK(p >= 1 && max_false > 0.0, "threshold_for_max_false with p = ", p, ", max_false = ", max_false);
  if (!(q > 0.0)) return 1.0;
  return std::min(1.0, 0.5 * (1.0 + q * q / (static_cast<double>(p) * max_false)));
}

std::int64_t runs_per_worker_for(double seconds, std::int64_t runs_per_worker) {
  const double per_run = seconds / static_cast<double>(std::max<std::int64_t>(1, runs_per_worker));
  if (!(per_run > 0.0)) return kMaxRunsPerWorker;  // a clock too coarse to see the wave
  const double fit = std::floor(kWaveSeconds / per_run);
  return fit >= static_cast<double>(kMaxRunsPerWorker) ? kMaxRunsPerWorker
                                                       : std::max<std::int64_t>(1, static_cast<std::int64_t>(fit));
}

std::int64_t wave_size(std::int64_t done, std::int64_t total, std::int64_t workers, std::int64_t runs_per_worker,
                       std::int64_t checkpoint_every) {
  const std::int64_t least = done + workers;
  std::int64_t end = done + workers * std::max<std::int64_t>(1, runs_per_worker);
  if (checkpoint_every > 0)
    end = std::min(end, std::max(least, (least + checkpoint_every - 1) / checkpoint_every * checkpoint_every));
  return std::min(end, total) - done;
}

}  // namespace bfs

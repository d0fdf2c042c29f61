// The CPU cost of loading one month of the empirical study on one thread — drawing its
// 5 000 noise columns (append_noise_features) and binning all its columns for hgb (bin_rows) — min of 3.
//   scripts/bench/build_bench.sh scripts/bench/load_month.cpp /tmp/load_month && /tmp/load_month [LANES]
// LANES caps the noise kernel's vector width: 8 (AVX-512, the default), 4 (AVX2) or 0 (portable).
// The hash covers every code and edge and every seventh value, so two builds can be checked for the same numbers.
#include <omp.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "data/dataset.hpp"
#include "core/detail/normal_lanes.hpp"
#include "data/source.hpp"
#include "estimators/detail/hgb_binning.hpp"

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

int main(int argc, char** argv) {
  using namespace bfs;
  omp_set_num_threads(1);
  if (argc > 1) detail::set_vector_normals_limit(std::atoi(argv[1]));
  constexpr Index kRows = 5000, kDataColumns = 168, kNoise = 5000;
  double noise_seconds = 1e9, bin_seconds = 1e9;
  std::uint64_t hash = 0;
  for (int rep = 0; rep < 3; ++rep) {
    Dataset d;
    d.X = Matrix(kRows, kDataColumns);
    for (Index i = 0; i < kRows * kDataColumns; ++i) d.X.data()[i] = static_cast<float>(i % 977) * 0.1f;
    const double t0 = now();
    append_noise_features(d, kNoise, 1, 3, 0);
    const double t1 = now();
    std::vector<Index> all(kRows);
    std::iota(all.begin(), all.end(), Index{0});
    const auto binned = hgb::bin_rows(d.X, all, 255, 1);
    const double t2 = now();
    noise_seconds = std::min(noise_seconds, t1 - t0);
    bin_seconds = std::min(bin_seconds, t2 - t1);
    hash = 0;
    for (auto code : binned.codes) hash = hash * 1000003 + code;
    for (const auto& edges : binned.edges)
      for (float f : edges) hash = hash * 31 + std::bit_cast<std::uint32_t>(f);
    for (Index i = 0; i < d.X.size(); i += 7) hash = hash * 17 + std::bit_cast<std::uint32_t>(d.X.data()[i]);
  }
  std::printf("noise %.3f s (%d lanes)  binning %.3f s  (one thread, min of 3)  hash %016llx\n", noise_seconds,
              detail::vector_normals_width(), bin_seconds, static_cast<unsigned long long>(hash));
}

// Speed of one BART fit (estimators/bart.hpp) against the default gbm on the same arm, for
// scripts/bench/bart_speed.sh: BART with m trees and M sweeps (defaults 10 and 1 000, the paper 003 §5 settings,
// DART on) fitted once on n × p friedman1 data, then make_gbm(GbmParams{}) on the same rows. Prints the fit seconds,
// BART's sweeps per second and its split counts (to set beside scripts/bench/bart_peer.py's).
//
//   scripts/bench/build_bench.sh scripts/bench/bart_bench.cpp bart_bench [BUILD=build]
//   ./bart_bench DATA.bin [trees] [sweeps] [threads]    # DATA.bin from bart_peer.py --save-data
//   ./bart_bench - [trees] [sweeps] [threads] [n] [p] [change_prob] [burn] [fit-only]   # friedman1 drawn here
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/rng.hpp"
#include "estimators/estimator.hpp"

using namespace bfs;

namespace {

struct Data {
  Matrix X;
  Vector y;
};

/// n, p as int64, X float32 row-major, y float64 (little-endian, bart_peer.py --save-data).
Data read_raw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::int64_t n = 0, p = 0;
  in.read(reinterpret_cast<char*>(&n), sizeof(n));
  in.read(reinterpret_cast<char*>(&p), sizeof(p));
  if (!in || n <= 0 || p <= 0) throw std::runtime_error(path + ": bad header");
  Data d{Matrix(n, p), Vector(n)};
  std::vector<float> row(static_cast<std::size_t>(p));
  for (Index i = 0; i < n; ++i) {
    in.read(reinterpret_cast<char*>(row.data()), static_cast<std::streamsize>(row.size() * sizeof(float)));
    for (Index j = 0; j < p; ++j) d.X(i, j) = row[static_cast<std::size_t>(j)];
  }
  in.read(reinterpret_cast<char*>(d.y.data()), static_cast<std::streamsize>(n * sizeof(double)));
  if (!in) throw std::runtime_error(path + ": truncated");
  return d;
}

Data friedman1(Index n, Index p) {
  Rng rng(42);
  Data d{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) d.X(i, j) = static_cast<float>(rng.uniform());
    const auto x = [&](int j) { return static_cast<double>(d.X(i, j)); };
    d.y[i] = 10 * std::sin(std::numbers::pi * x(0) * x(1)) + 20 * (x(2) - 0.5) * (x(2) - 0.5) + 10 * x(3) + 5 * x(4) +
             rng.normal();
  }
  return d;
}

template <class F>
double seconds_of(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string source = argc > 1 ? argv[1] : "-";
  const int trees = argc > 2 ? std::atoi(argv[2]) : 10;
  const int sweeps = argc > 3 ? std::atoi(argv[3]) : 1000;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  const Data d = source == "-" ? friedman1(argc > 5 ? std::atol(argv[5]) : 1000, argc > 6 ? std::atol(argv[6]) : 20)
                               : read_raw(source);
  FitOptions options;
  options.seed = 1;
  options.threads = threads;

  BartParams bart;
  bart.n_estimators = trees;
  bart.sweeps = sweeps;
  if (argc > 7) bart.change_prob = std::atof(argv[7]);
  if (argc > 8) bart.burn = std::atoi(argv[8]);
  std::unique_ptr<Model> model;
  const double bart_seconds = seconds_of([&] { model = make_bart(bart)->fit(d.X, d.y, options); });
  const bool fit_only = argc > 9 && std::string(argv[9]) == "fit-only";  // for instruction counts of the fit alone
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a of the serialized model: any changed draw or sum shows
  for (const unsigned char c : model->serialize()) hash = (hash ^ c) * 1099511628211ull;
  std::printf("bart_model_fingerprint %016llx\n", static_cast<unsigned long long>(hash));
  if (fit_only) return 0;
  const Vector fit = model->predict(d.X);
  const double r2 = 1.0 - (d.y - fit).squaredNorm() / (d.y.array() - d.y.mean()).square().sum();
  std::printf("data n=%ld p=%ld; bart trees=%d sweeps=%d (DART on), threads=%d\n", static_cast<long>(d.X.rows()),
              static_cast<long>(d.X.cols()), trees, sweeps, threads);
  std::printf("bart_fit_seconds %.4f\n", bart_seconds);
  std::printf("bart_sweeps_per_second %.2f\n", sweeps / bart_seconds);
  std::printf("bart_in_sample_r2 %.4f\n", r2);
  const SplitCounts* counts = model->split_counts();
  std::printf("last_splits");
  for (double c : counts->last) std::printf(" %g", c);
  std::printf("\nmean_splits");
  for (double c : counts->mean) std::printf(" %.17g", c);
  std::printf("\n");

  std::unique_ptr<Model> gbm;
  const double gbm_seconds = seconds_of([&] { gbm = make_gbm(GbmParams{})->fit(d.X, d.y, options); });
  std::printf("gbm_fit_seconds %.4f\n", gbm_seconds);
  std::printf("bart_over_gbm %.1f\n", bart_seconds / gbm_seconds);
  return 0;
}

// Micro-benchmark of one evaluation's random-forest fit and tree importance at friedman1 scale (docs/performance.md,
// "The random forest's fit"): 300 rows split 240/60, the 240 training rows bootstrapped (as an offline evaluation
// does), p columns. Prints min-of-N seconds and an FNV hash of the serialized forest and of the scores, so that two
// builds can be checked for identical trees and identical importances.
//
//   g++ -O3 -DNDEBUG -std=c++20 -fopenmp -I src -isystem /usr/include/eigen3 scripts/bench/tree_bench.cpp \
//       BUILD/src/importance/libbanditfs_importance.a BUILD/src/estimators/libbanditfs_estimators.a \
//       BUILD/src/config/libbanditfs_config.a BUILD/src/core/libbanditfs_core.a -lxgboost -o tree_bench
//   ./tree_bench P REPEATS [estimator=rf|gbm] [threads] [importance repeats, default REPEATS]
// (e.g. `perf stat -e cycles:u ./tree_bench 43 1 rf 1 300` counts cycles spent almost only in importance, which
// a loaded machine disturbs far less than wall time)
#include <chrono>
#include <memory>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>

#include "core/rng.hpp"
#include "estimators/estimator.hpp"
#include "importance/permutation.hpp"

using namespace bfs;

static std::uint64_t fnv(const void* data, std::size_t size, std::uint64_t h = 1469598103934665603ull) {
  const auto* b = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

int main(int argc, char** argv) {
  const Index p = argc > 1 ? std::atol(argv[1]) : 43;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::string est = argc > 3 ? argv[3] : "rf";
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  const int imp_reps = argc > 5 ? std::atoi(argv[5]) : reps;
  const Index n = 300, n_train = 240, n_test = 60;
  Rng rng(42);
  Matrix X(n, p);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) X(i, j) = static_cast<float>(rng.uniform());
    const auto x = [&](int j) { return static_cast<double>(X(i, j)); };
    y[i] = 10 * std::sin(std::numbers::pi * x(0) * x(1)) + 20 * (x(2) - 0.5) * (x(2) - 0.5) + 10 * x(3) + 5 * x(4) +
           rng.normal();
  }
  Matrix Xtr(n_train, p), Xte(n_test, p);
  Vector ytr(n_train), yte(n_test);
  for (Index i = 0; i < n_train; ++i) {
    const auto r = static_cast<Index>(rng.uniform_int(n_train));
    Xtr.row(i) = X.row(r);
    ytr[i] = y[r];
  }
  Xte = X.bottomRows(n_test);
  yte = y.tail(n_test);

  EstimatorConfig config;
  config.name = est == "gbm" ? EstimatorName::Gbm : EstimatorName::RandomForest;
  const auto estimator = make_estimator(config);
  double best_fit = 1e30, best_imp = 1e30;
  std::uint64_t model_hash = 0, score_hash = 0;
  std::unique_ptr<Model> model;
  for (int r = 0; r < reps; ++r) {  // fits, then importances of the last fit: min of `reps` each
    const auto t0 = std::chrono::steady_clock::now();
    model = estimator->fit(Xtr, ytr, FitOptions{7, threads});
    best_fit = std::min(best_fit, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const std::string bytes = model->serialize();
  model_hash = fnv(bytes.data(), bytes.size());
  for (int r = 0; r < imp_reps; ++r) {
    ImportanceRequest request;
    request.model = model.get();
    request.X_test = &Xte;
    request.y_test = &yte;
    request.groups = singleton_groups(p);
    for (Index j = 0; j < p; ++j) request.stream_ids.push_back(static_cast<std::uint64_t>(j));
    request.repeats = 10;
    request.seed = 5;
    request.threads = threads;
    const auto t0 = std::chrono::steady_clock::now();
    const auto result = permutation_importance(request);
    best_imp = std::min(best_imp, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    score_hash = fnv(result.scores.data(), result.scores.size() * sizeof(double));
  }
  std::printf("%s p=%ld threads=%d fit %.2f ms importance %.2f ms ratio %.1f%% model %016lx scores %016lx\n",
              est.c_str(), static_cast<long>(p), threads, best_fit * 1e3, best_imp * 1e3, 100 * best_imp / best_fit,
              static_cast<unsigned long>(model_hash), static_cast<unsigned long>(score_hash));
}

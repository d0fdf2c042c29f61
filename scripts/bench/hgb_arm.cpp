// One arm's fit at asset scale (docs/performance.md, "hgb: histogram gradient boosting"), for hgb_arm.py: reads rows ×
// cols float32 X and float64 y (raw little-endian files written by hgb_arm.py), fits `hgb` or `gbm` on the first
// n_train rows with the paper's settings (200 trees, 50 leaves, depth 10, 20 rows per leaf, L2 0.01, learning rate
// 0.05, all columns, no early stopping) on one thread, and prints the fit seconds and the test R² on the remaining
// rows.
//   scripts/bench/build_bench.sh scripts/bench/hgb_arm.cpp /tmp/hgb_arm
//   /tmp/hgb_arm hgb|gbm X.f32 y.f64 ROWS COLS N_TRAIN [THREADS=1] [study]
// "study" switches to the empirical study's settings (jobs/empirical/gkx_2010_2019*.toml): half the columns per
// tree and early stopping on a 10% hold-out (10 rounds).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "estimators/estimator.hpp"

using namespace bfs;

namespace {

template <class T>
void read_raw(const char* path, T* out, std::size_t count) {
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(count * sizeof(T)));
  if (!in) {
    std::fprintf(stderr, "cannot read %zu values from %s\n", count, path);
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s hgb|gbm X.f32 y.f64 ROWS COLS N_TRAIN [THREADS]\n", argv[0]);
    return 2;
  }
  const std::string which = argv[1];
  const Index rows = std::atol(argv[4]), cols = std::atol(argv[5]), n_train = std::atol(argv[6]);
  const int threads = argc > 7 ? std::atoi(argv[7]) : 1;
  const bool study = argc > 8 && std::string(argv[8]) == "study";
  const double colsample = study ? 0.5 : 1.0, validation = study ? 0.1 : 0.0;
  Matrix X(rows, cols);
  Vector y(rows);
  read_raw(argv[2], X.data(), static_cast<std::size_t>(rows * cols));
  read_raw(argv[3], y.data(), static_cast<std::size_t>(rows));
  const Matrix X_train = X.topRows(n_train), X_test = X.bottomRows(rows - n_train);
  const Vector y_train = y.head(n_train), y_test = y.tail(rows - n_train);

  std::unique_ptr<Estimator> estimator;
  if (which == "hgb") {
    HgbParams p;
    p.learning_rate = 0.05;
    p.n_estimators = 200;
    p.max_leaves = 50;
    p.max_depth = 10;
    p.min_samples_leaf = 20;
    p.lambda = 0.01;
    p.colsample = colsample;
    p.validation_fraction = validation;
    estimator = make_hgb(p);
  } else {
    GbmParams p;
    p.learning_rate = 0.05;
    p.n_estimators = 200;
    p.max_leaves = 50;
    p.max_depth = 10;
    p.min_child_weight = 20.0;
    p.lambda = 0.01;
    p.colsample = colsample;
    p.validation_fraction = validation;
    estimator = make_gbm(p);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto model = estimator->fit(X_train, y_train, FitOptions{1, threads});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Vector pred = model->predict(X_test);
  const double mean = y_test.mean();
  const double r2 = 1.0 - (y_test - pred).squaredNorm() / (y_test.array() - mean).square().sum();
  std::printf("%s fit_seconds %.3f test_r2 %.5f trees %zu\n", which.c_str(), seconds, r2, model->trees()->trees.size());
  return 0;
}

// Out-of-sample R² of banditfs's own gbm on the characteristics of a gkx-like panel (docs/empirical-study.md,
// "Calibration against banditfs's own gbm"): for one month, 4 random 80/20 splits (the bandit's make_split), the gbm
// fitted on the first NCOLS columns (168 = the 94 characteristics + 74 sic2 dummies, no noise) with the given
// hyper-parameters, early stopping as configured by default (10% validation, 10 rounds); prints each split's R² and the
// mean. Used to choose simulate gkx-like's default signal scale (docs/empirical-study.md, "Calibration against
// banditfs's gbm").
//
// Build against a build tree (libraries of `cmake --build build`):
//   B=build; g++ -O2 -std=c++20 -fopenmp -I src -isystem /usr/include/eigen3 -I /usr/include/hdf5/serial \
//     scripts/bench/gkx_gbm_r2.cpp -o gkx_gbm_r2 -L$B/src/methods -L$B/src/run -L$B/src/importance \
//     -L$B/src/estimators -L$B/src/data -L$B/src/simulate -L$B/src/config -L$B/src/core -lbanditfs_methods \
//     -lbanditfs_run -lbanditfs_importance -lbanditfs_estimators -lbanditfs_data -lbanditfs_simulate \
//     -lbanditfs_config -lbanditfs_core -lxgboost \
//     -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5 -lspdlog -lfmt
// Run: PANEL=panel.h5 OMP_WAIT_POLICY=passive ./gkx_gbm_r2 PERIOD NCOLS LR LEAVES MIN_CHILD_WEIGHT COLSAMPLE
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "data/source.hpp"
#include "estimators/estimator.hpp"
#include "importance/metrics.hpp"
#include "methods/bandit/split.hpp"
using namespace bfs;
int main(int argc, char** argv) {
  auto src = make_hdf5_source(std::getenv("PANEL"), true, 5000, 1);
  int period = atoi(argv[1]);
  int ncols = atoi(argv[2]);
  Dataset d = src->load_period(period);
  FeatureSet arm;
  for (int j = 0; j < ncols; ++j) arm.push_back(j);
  SplitSettings ss;
  ss.shuffle = true;
  double sum = 0;
  int reps = 4;
  for (int r = 0; r < reps; ++r) {
    auto sp = make_split(d.rows(), ss, 7, r + 1, 0);
    Matrix X = gather(d.X, sp.train, arm);
    Vector y = gather(d.y, sp.train);
    Matrix Xt = gather(d.X, sp.test, arm);
    Vector yt = gather(d.y, sp.test);
    GbmParams p;
    p.learning_rate = atof(argv[3]);
    p.n_estimators = 200;
    p.max_leaves = atoi(argv[4]);
    p.max_depth = 10;
    p.min_child_weight = atof(argv[5]);
    p.lambda = 0.01;
    p.colsample = atof(argv[6]);
    auto m = make_gbm(p)->fit(X, y, FitOptions{(std::uint64_t)r + 5, 2});
    double r2 = r2_score(yt, m->predict(Xt));
    sum += r2;
    std::printf("  rep %d trees %zu R2 %.4f%%\n", r, m->trees()->trees.size(), 100 * r2);
  }
  std::printf("period %d cols %d lr %s leaves %s mcw %s col %s: mean R2 %.4f%%\n", period, ncols, argv[3], argv[4],
              argv[5], argv[6], 100 * sum / reps);
}

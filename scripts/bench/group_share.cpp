// The compute one member of a fit group does (docs/scaling.md, "The model for 4–64 members"), measured on one core
// without MPI: fits with a stand-in FitGroup of size m whose collectives cost nothing (member 0 of m; allgather returns
// m copies of member 0's bytes, allreduce leaves member 0's sums). The fit then does exactly member 0's share of the
// work plus everything every member repeats, so its time is T_member(m); the collectives are modelled apart
// (group_fit.py). The models it grows are not the group's (copies of member 0's trees or splits): only the time is
// meaningful.
//   scripts/bench/build_bench.sh scripts/bench/group_share.cpp /tmp/group_share
//   /tmp/group_share random_forest ROWS COLS 1,2,4,5,10,20,25,50,100 [REPEATS=3]
//   /tmp/group_share hgb ROWS COLS 1,2,4,8,16,32,64 [REPEATS=3]
// Data: friedman1 (10 sin(π x1 x2) + 20 (x3 − ½)² + 10 x4 + 5 x5 + N(0,1)) on COLS uniform columns. Settings: the
// scaling jobs' (jobs/scaling/synthetic_rf.toml: 100 trees, depth 10; synthetic_hgb.toml: 200 trees, 50 leaves,
// depth 10, 20 rows per leaf, L2 0.01, learning rate 0.05; no early stopping here, so every m grows 200 trees).
// random_forest needs m to divide its 100 trees (m copies of member 0's share must make 100). Prints one JSON line
// per m.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "estimators/estimator.hpp"

using namespace bfs;

namespace {

class Member0 final : public FitGroup {
 public:
  explicit Member0(int size) : size_(size) {}
  int rank() const override { return 0; }
  int size() const override { return size_; }
  void allreduce_sum(std::span<std::int64_t>) const override {}
  std::vector<std::string> allgather(const std::string& bytes) const override {
    return std::vector<std::string>(static_cast<std::size_t>(size_), bytes);
  }

 private:
  int size_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s random_forest|hgb ROWS COLS [MEMBERS] [REPEATS]\n", argv[0]);
    return 2;
  }
  const std::string which = argv[1];
  const Index rows = std::atol(argv[2]), cols = std::atol(argv[3]);
  std::vector<int> members;
  std::stringstream list(argc > 4 ? argv[4] : "1,2,4,8,16,32,64");
  for (std::string item; std::getline(list, item, ',');) members.push_back(std::atoi(item.c_str()));
  const int repeats = argc > 5 ? std::atoi(argv[5]) : 3;

  Rng rng = Rng::stream(1, 0, 0, Purpose::Fit);
  Matrix X(rows, cols);
  Vector y(rows);
  for (Index i = 0; i < rows; ++i) {
    for (Index j = 0; j < cols; ++j) X(i, j) = static_cast<float>(rng.uniform());
    const auto x = [&](Index j) { return static_cast<double>(X(i, j)); };
    y[i] = 10.0 * std::sin(M_PI * x(0) * x(1)) + 20.0 * (x(2) - 0.5) * (x(2) - 0.5) + 10.0 * x(3) + 5.0 * x(4) +
           rng.normal();
  }
  std::unique_ptr<Estimator> estimator;
  if (which == "hgb") {
    HgbParams p;
    p.n_estimators = 200;
    p.max_leaves = 50;
    p.max_depth = 10;
    p.min_samples_leaf = 20;
    p.lambda = 0.01;
    p.learning_rate = 0.05;
    p.validation_fraction = 0.0;  // all 200 trees whatever the columns member 0 scans
    estimator = make_hgb(p);
  } else {
    RandomForestParams p;
    p.n_estimators = 100;
    p.max_depth = 10;
    estimator = make_random_forest(p);
  }
  for (int m : members) {
    Member0 group(m);
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const auto model = estimator->fit(X, y, FitOptions{5, 1, {}, &group});
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::printf("{\"estimator\": \"%s\", \"rows\": %ld, \"cols\": %ld, \"members\": %d, \"member_seconds\": %.5f}\n",
                which.c_str(), static_cast<long>(rows), static_cast<long>(cols), m, best);
    std::fflush(stdout);
  }
}

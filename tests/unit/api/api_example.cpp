// Feature importance for data held in memory, in-process (docs/api.md).
#include <iostream>
#include <random>

#include "api/banditfs.hpp"

int main() {
  namespace api = bfs::api;
  const std::int64_t n = 300, p = 10;  // y depends on x1 and x2 only
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> X(n * p);  // row-major: X[i * p + j]
  std::vector<double> y(n);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < p; ++j) X[i * p + j] = uniform(gen);
    y[i] = 3.0 * X[i * p] + 2.0 * X[i * p + 1] * X[i * p + 1];
  }
  const api::Job job = api::Job::parse("[bandit]\niterations = 30\n", {"run.seed=7", "run.threads=2"});
  api::ArraysView arrays;  // borrowed; Data::from copies them once
  arrays.X = X.data(), arrays.rows = n, arrays.cols = p, arrays.y = y.data();
  const api::Data data = api::Data::from(arrays);
  api::RunOptions options;
  options.on_progress = [](const api::Progress& r) { std::cerr << "round " << r.round << "\r"; };
  const bfs::MethodResult result = api::run(job, &data, options);
  for (const bfs::FeatureId f : result.selected) std::cout << result.feature_names[f] << " selected\n";
  return result.rank[0] <= 2 && result.rank[1] <= 2 ? 0 : 1;  // x1 and x2 rank first
}

#pragma once
// A plausible result of the method "bandit", shared by the result.h5 tests and the tests of the reports written from
// a result (summary.csv, run.json, inspect, the plotting script).
#include <cstdint>
#include <string>
#include <vector>

#include "methods/result.hpp"

namespace bfs::test {

/// A plausible result of a method "bandit" with p features: two feature columns (alpha float64, count int32), a 2-D
/// float32 table, a 2-D int64 table, a subgroup with two datasets and a fact, strings, and facts of every type.
inline MethodResult make_method_result(int p, int iterations, bool known) {
  MethodResult r;
  r.method = "bandit";
  r.version = "0.1.0";
  r.task = "regression";
  r.data_origin = "simulate:friedman1";
  r.job_text = "[method]\nname = \"bandit\"\n";
  r.seed = 18446744073709551557ULL;  // needs all 64 bits
  r.ranks = 4;
  r.threads = 2;
  r.iterations = iterations;
  r.stop_reason = "fixed iterations";
  r.importance_meaning = "posterior mean";
  std::vector<double> alpha;
  std::vector<std::int32_t> count;
  for (int k = 0; k < p; ++k) {
    r.feature_names.push_back(k == 1 ? "x,1 \"quoted\"" : "x" + std::to_string(k));
    r.importance.push_back(k % 3 == 0 ? 0.9 - 0.01 * k : 0.1 + 0.001 * k);
    alpha.push_back(1.0 + 0.5 * k);
    count.push_back(10 * k);
  }
  rank_by_importance(r);
  for (int k = 0; k < p; ++k)
    if (r.importance[k] >= 0.5) r.selected.push_back(k);
  for (int t = 0; t < iterations; ++t)
    for (int k = 0; k < p; ++k) r.trajectory.push_back(static_cast<float>((t * 31 + k * 7) % 100) / 100.0f);
  if (known) {
    r.truth = {0, 2};
    r.metrics = {true, 0.25, 0.5, 3, iterations / 2};
  }
  r.timings = {{"wall_seconds", 12.5}, {"fit_seconds", 8.25}, {"importance_seconds", 3.0}, {"bytes_sent", 1024.0}};
  r.datasets.push_back({"alpha", alpha, {}});
  r.datasets.push_back({"count", count, {}});
  r.datasets.push_back({"table", std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f}, {3, 2}});
  r.datasets.push_back({"pairs", std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2}});
  r.datasets.push_back({"labels", std::vector<std::string>{"one", "two", ""}, {}});
  r.datasets.push_back({"evaluations/test_score", std::vector<double>{0.5, 0.25, -1.0}, {}});
  r.datasets.push_back({"evaluations/deep/arm_size", std::vector<std::int32_t>{3, 4, 5}, {}});
  r.facts = {{"policy", std::string("ttts")},
             {"estimator", std::string("random_forest")},
             {"noise_variance", 0.25},
             {"num_evaluations", std::int64_t{3}},
             {"evaluations/metric", std::string("r2")},
             {"tuning/chosen", std::int64_t{-2}}};
  r.feature_columns = {"alpha", "count"};
  r.manifest_json = R"({"num_evaluations": 24, "tuning": {"period": 0}})";
  return r;
}

}  // namespace bfs::test

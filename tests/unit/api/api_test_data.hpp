#pragma once
// Data for the API's tests, made here (not by simulate/): Friedman's first function of five uniform features plus
// noise features, y = 10 sin(π x1 x2) + 20 (x3 − ½)² + 10 x4 + 5 x5 + N(0, 1), or 1{f > 14} for a binary target.
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "api/banditfs.hpp"
#include "data/dataset.hpp"

namespace bfs::test {

inline Dataset friedman_data(std::int64_t n, std::int64_t p, bool binary, std::uint32_t seed = 5) {
  if (p < 5) throw std::invalid_argument("friedman_data: Friedman's function reads x1..x5, so p >= 5");
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::normal_distribution<double> noise(0.0, 1.0);
  Dataset data;
  data.origin = "in-memory data";
  data.X.resize(n, p);
  data.y.resize(n);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < p; ++j) data.X(i, j) = uniform(gen);
    const auto x = [&](int j) { return static_cast<double>(data.X(i, j)); };
    const double f =
        10 * std::sin(std::numbers::pi * x(0) * x(1)) + 20 * (x(2) - 0.5) * (x(2) - 0.5) + 10 * x(3) + 5 * x(4);
    data.y[i] = binary ? (f > 14.0 ? 1.0 : 0.0) : f + noise(gen);
  }
  data.feature_names = default_feature_names(p);
  data.truth = {0, 1, 2, 3, 4};
  data.has_truth = true;
  return data;
}

/// A contextual-bandit log: x uniform on [0, 1], three arms served in turn, and a reward whose rate depends on the
/// arm through x1 and x2 (the features whose effect differs by arm). X row-major as the API takes it.
struct TestLog {
  std::vector<float> X;  ///< rows × cols, row-major
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int32_t> arm;
  std::vector<double> reward;
};

inline TestLog friedman_log(std::int64_t n, std::int64_t p, std::uint32_t seed = 7) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  TestLog log{std::vector<float>(static_cast<std::size_t>(n * p)), n, p, {}, {}};
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < p; ++j) log.X[static_cast<std::size_t>(i * p + j)] = uniform(gen);
    const auto arm = static_cast<std::int32_t>(i % 3);
    const float* x = log.X.data() + i * p;
    const double rate = arm == 0 ? 0.3 : arm == 1 ? 0.2 + 0.6 * x[0] : 0.8 - 0.6 * x[1];
    log.arm.push_back(arm);
    log.reward.push_back(uniform(gen) < rate ? 1.0 : 0.0);
  }
  return log;
}

/// The API's view of `log` (its X, arms and rewards; the caller may point `reward` elsewhere).
inline api::LogView log_view(const TestLog& log, std::vector<std::string> arm_labels) {
  api::LogView view;
  view.X = log.X.data();
  view.rows = log.rows;
  view.cols = log.cols;
  view.arm = log.arm.data();
  view.arm_labels = std::move(arm_labels);
  view.reward = log.reward.data();
  return view;
}

}  // namespace bfs::test

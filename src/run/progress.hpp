#pragma once
// The progress record a method hands its caller after each unit of work (the CLI prints it as a progress line).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace bfs {

/// Called after every round with (round, total rounds, result-so-far facts) — for progress lines.
struct RoundReport {
  std::int32_t round = 0;
  std::int32_t total_rounds = 0;
  std::int32_t period = 0;
  std::string_view metric = "r2";  ///< the name of test_score's metric
  std::size_t selected = 0;
  double test_score = 0.0;
  std::size_t arm_size = 0;
};

using RoundCallback = std::function<void(const RoundReport&)>;

}  // namespace bfs

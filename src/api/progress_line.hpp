#pragma once
// The progress line (docs/design.md §6): the unit and its count, percent, rate, ETA, the method's progress quantity
// and its selected count, at a bounded rate. The command line prints it to stderr; the Python front end writes it to
// sys.stderr; both take it from here, so they print the same line.
#include <chrono>
#include <optional>
#include <string>

#include "run/progress.hpp"

namespace bfs::api {

class ProgressLine {
 public:
  /// A line at most every `min_seconds` (run.progress_seconds) and at the method's last report (RoundReport::last).
  explicit ProgressLine(double min_seconds);
  /// The line for `report` when one is due, else nullopt. Rates count the rounds this process ran.
  std::optional<std::string> operator()(const RoundReport& report);

 private:
  using Clock = std::chrono::steady_clock;
  double min_seconds_;
  Clock::time_point start_;
  Clock::time_point last_;
  int base_round_ = -1;          ///< the first round reported (rates count the rounds after it)
  Clock::time_point base_time_;  ///< when it was reported
};

}  // namespace bfs::api

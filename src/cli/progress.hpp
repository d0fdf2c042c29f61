#pragma once
// Progress lines (docs/design.md §6): iteration, rate, ETA, the method's progress quantity and selected count, to
// stderr at a bounded rate. A terminal gets one live line rewritten in place; a batch log (not a TTY) gets plain lines.
#include <chrono>
#include <cstdio>

#include "run/progress.hpp"

namespace bfs {

class ProgressPrinter {
 public:
  /// A line at most every `min_seconds` and at the method's last report (RoundReport::last); `silent` (--quiet, ranks
  /// other than 0): never.
  ProgressPrinter(double min_seconds, bool silent);
  void operator()(const RoundReport& report);
  /// Ends the live line on a terminal.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  double min_seconds_;
  bool silent_;
  bool tty_;
  bool printed_ = false;
  Clock::time_point start_;
  Clock::time_point last_;
  int base_round_ = -1;          ///< the first round reported (rates count the rounds after it)
  Clock::time_point base_time_;  ///< when it was reported
};

}  // namespace bfs

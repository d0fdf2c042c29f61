#pragma once
// Progress lines on stderr (docs/design.md §6): api::ProgressLine's line at its bounded rate. A terminal gets one live
// line rewritten in place; a batch log (not a TTY) gets plain lines.
#include "api/progress_line.hpp"

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
  api::ProgressLine line_;
  bool silent_;
  bool tty_;
  bool printed_ = false;
};

}  // namespace bfs

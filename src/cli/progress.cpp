#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace bfs {

ProgressPrinter::ProgressPrinter(double min_seconds, bool silent)
    : line_(min_seconds), silent_(silent), tty_(isatty(STDERR_FILENO) != 0) {}

void ProgressPrinter::operator()(const RoundReport& report) {
  if (silent_) return;
  const auto line = line_(report);
  if (!line) return;
  std::fprintf(stderr, "%s%s%s", tty_ ? "\r" : "", line->c_str(), tty_ ? "\033[K" : "\n");
  std::fflush(stderr);
  printed_ = true;
}

void ProgressPrinter::finish() {
  if (tty_ && printed_) std::fprintf(stderr, "\n");
}

}  // namespace bfs

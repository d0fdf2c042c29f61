#include "cli/progress.hpp"

#include <unistd.h>

namespace bfs {

ProgressPrinter::ProgressPrinter(double min_seconds, bool silent)
    : min_seconds_(min_seconds),
      silent_(silent),
      tty_(isatty(STDERR_FILENO) != 0),
      start_(Clock::now()),
      last_(start_) {}

void ProgressPrinter::operator()(const RoundReport& report) {
  if (silent_) return;
  const auto now = Clock::now();
  // The rate counts the rounds this process ran: a resumed run starts at round k > 1, and before its first round a
  // run may tune for minutes, so the rate is taken from the first reported round on (the first line: since start).
  if (base_round_ < 0) {
    base_round_ = report.round;
    base_time_ = now;
  }
  const bool last_round = report.round == report.total_rounds;
  if (!last_round && std::chrono::duration<double>(now - last_).count() < min_seconds_) return;
  last_ = now;
  const int rounds = report.round > base_round_ ? report.round - base_round_ : 1;
  const double elapsed =
      std::chrono::duration<double>(now - (report.round > base_round_ ? base_time_ : start_)).count();
  const double rate = elapsed > 0 ? rounds / elapsed : 0.0;
  const double eta = rate > 0 ? (report.total_rounds - report.round) / rate : 0.0;
  std::fprintf(stderr, "%siteration %d/%d (%.0f%%)  %.2f it/s  ETA %.0fs  period %d  |S| %zu  %s %.3f  selected %zu%s",
               tty_ ? "\r" : "", report.round, report.total_rounds, 100.0 * report.round / report.total_rounds, rate,
               eta, report.period, report.arm_size, std::string(report.metric).c_str(), report.test_score,
               report.selected, tty_ ? "\033[K" : "\n");
  std::fflush(stderr);
  printed_ = true;
}

void ProgressPrinter::finish() {
  if (tty_ && printed_) std::fprintf(stderr, "\n");
}

}  // namespace bfs

#include "api/progress_line.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace bfs::api {

namespace {

/// printf-style text appended to `line`.
[[gnu::format(printf, 2, 3)]] void append(std::string& line, const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (n > 0) line.append(buffer, std::min(static_cast<std::size_t>(n), sizeof buffer - 1));
}

}  // namespace

ProgressLine::ProgressLine(double min_seconds) : min_seconds_(min_seconds), start_(Clock::now()), last_(start_) {}

std::optional<std::string> ProgressLine::operator()(const RoundReport& report) {
  const auto now = Clock::now();
  // The rate counts the rounds this process ran: a resumed run starts at round k > 1, and before its first round a
  // run may tune for minutes, so the rate is taken from the first reported round on (the first line: since start).
  if (base_round_ < 0) {
    base_round_ = report.round;
    base_time_ = now;
  }
  if (!report.last && std::chrono::duration<double>(now - last_).count() < min_seconds_) return std::nullopt;
  last_ = now;
  const int rounds = report.round > base_round_ ? report.round - base_round_ : 1;
  const double elapsed =
      std::chrono::duration<double>(now - (report.round > base_round_ ? base_time_ : start_)).count();
  const double rate = elapsed > 0 ? rounds / elapsed : 0.0;
  const double eta = rate > 0 ? (report.total_rounds - report.round) / rate : 0.0;
  std::string line;
  const auto unit = static_cast<int>(report.unit.size());
  append(line, "%.*s %d/%d (%.0f%%)  %.2f/s  ETA %.0fs", unit, report.unit.data(), report.round, report.total_rounds,
         100.0 * report.round / report.total_rounds, rate, eta);
  if (report.period >= 0) append(line, "  period %d", report.period);
  if (report.set_size) append(line, "  |S| %zu", *report.set_size);
  append(line, "  %.*s %.3f", static_cast<int>(report.label.size()), report.label.data(), report.value);
  if (report.selected) append(line, "  selected %zu", *report.selected);
  return line;
}

}  // namespace bfs::api

#pragma once
// The run context passed by reference instead of global state (docs/design.md §9).
#include <spdlog/logger.h>

#include <cstdint>
#include <memory>

namespace bfs {

struct Context {
  std::uint64_t seed = 0;
  /// Threads an estimator or the importance pass may use. Results never depend on it (docs/design.md §1).
  int threads = 1;
  std::shared_ptr<spdlog::logger> log;
};

/// A logger writing to stderr and, optionally, appending to a file (a run directory's log keeps every run).
std::shared_ptr<spdlog::logger> make_logger(const std::string& name, const std::string& file_path = "");

/// `message` at error level in the logger's file only, for an error the caller prints on stderr itself.
void log_error_to_file_only(spdlog::logger& log, const std::string& message);

}  // namespace bfs

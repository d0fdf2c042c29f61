#pragma once
// Phase timings (run.json's `timings`): seconds on the steady clock, which never jumps with the system time.
#include <chrono>

namespace bfs {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace bfs

#include "methods/bandit/period_prefetcher.hpp"

#include <chrono>
#include <system_error>

#include "core/stopwatch.hpp"
#include "estimators/missing.hpp"

namespace bfs {

PeriodPrefetcher::~PeriodPrefetcher() {
  discard_pending();
}

PeriodPrefetcher::Loaded PeriodPrefetcher::load(int period) {
  const auto start = SteadyClock::now();
  Loaded loaded;
  loaded.data = source_.load_period(period);
  loaded.has_missing = has_missing(loaded.data.X);
  if (preparer_ != nullptr) loaded.prepared = preparer_->prepare(loaded.data.X, threads_);
  loaded.seconds = seconds_since(start);
  return loaded;
}

void PeriodPrefetcher::discard_pending() noexcept {
  if (!pending_.valid()) return;
  pending_.wait();
  pending_ = {};  // drops the rows, or the exception of a period nobody needs
  pending_period_ = -1;
}

const Dataset& PeriodPrefetcher::get(int period, int next) {
  const auto start = SteadyClock::now();
  Loaded loaded;
  if (pending_.valid() && pending_period_ == period) {
    pending_period_ = -1;
    loaded = pending_.get();  // rethrows the background load's exception as it was thrown
  } else {
    // Not the prefetched period (the first get, or a caller off the schedule): nothing runs after the discard, so
    // this thread may use the source. The old rows go first: a synchronous load never holds two periods.
    discard_pending();
    current_ = Dataset{};
    current_prepared_.reset();
    current_has_missing_ = false;
    current_period_ = -1;
    loaded = load(period);
  }
  current_ = std::move(loaded.data);  // frees the previous period before the next one is started
  current_prepared_ = std::move(loaded.prepared);
  current_has_missing_ = loaded.has_missing;
  current_period_ = period;
  last_load_seconds_ = loaded.seconds;
  last_wait_seconds_ = seconds_since(start);
  if (next >= 0 && next != period) {
    try {
      pending_ = std::async(std::launch::async, [this, next] { return load(next); });
      pending_period_ = next;
    } catch (const std::system_error&) {
      // No thread to be had (a process at its thread limit): get(next) then loads it on this thread, as before.
      pending_period_ = -1;
    }
  }
  return current_;
}

}  // namespace bfs

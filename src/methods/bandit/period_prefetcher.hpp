#pragma once
// Loads the next period of an online run on a background thread while the current period's rounds run: at
// the study's scale a month is an HDF5 read plus 25 M noise draws, 16-22% of the wall time if done between the
// rounds. The loaded data is source.load_period(k)'s, whichever thread ran it: every noise entry comes
// from its own stream (seed, period, row, Noise, column), never from a thread id, so results are bit-identical.
//
// Threading contract:
//  - the source is used by one thread at a time: once a prefetcher is made, only it calls source.load_period, and
//    it waits for a background load before it starts another. The caller must not call the source (not even
//    describe(): cache it) while the prefetcher lives.
//  - HDF5 (Debian's build is not thread-safe) is serialised, not avoided: the background load's reads and the main
//    thread's checkpoint writes and reads (methods/bandit/run_result_h5.hpp) all hold the one process-wide
//    detail::hdf5_mutex() (data/detail/h5_read.hpp), as every reader of data/ does. A checkpoint may thus wait for
//    the HDF5 read of a prefetch (a fraction of a second), never for its noise columns, drawn outside the lock.
//  - exceptions of a background load are rethrown by the get() that needs that period, unchanged (same type and
//    message as a direct load); a load that is never needed (the run stopped early) is discarded silently.
//  - the destructor waits for a running load (at most one period's load; a load cannot be cut short), so an early
//    exit or an exception on the main thread never leaves a thread running or calls std::terminate.
#include <future>
#include <memory>

#include "data/source.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

class PeriodPrefetcher {
 public:
  /// With `preparer`, each loaded period is also passed through preparer->prepare(X, threads) on the loading thread
  /// (hgb bins every column of the period there, off the rounds' critical path); current_prepared() returns it.
  /// `threads` is the run's: where a load outlasts the rounds (late months, small arms) the rounds wait with their
  /// threads idle, and the binning uses them (10% of the run waiting with one binning
  /// thread, 3% with the run's two). The prepared data does not depend on it.
  explicit PeriodPrefetcher(DataSource& source, const Estimator* preparer = nullptr, int threads = 1)
      : source_(source), preparer_(preparer), threads_(threads) {}
  ~PeriodPrefetcher();
  PeriodPrefetcher(const PeriodPrefetcher&) = delete;
  PeriodPrefetcher& operator=(const PeriodPrefetcher&) = delete;
  PeriodPrefetcher(PeriodPrefetcher&&) = delete;
  PeriodPrefetcher& operator=(PeriodPrefetcher&&) = delete;

  /// The rows of `period` (source.load_period(period)): the background load's when it is loading that period
  /// (waiting for it), otherwise loaded now on this thread. Then, when `next` >= 0 and differs from `period`,
  /// starts loading `next` in the background. The previous period's rows are freed before that, so at most one
  /// period besides the current one is in memory. The reference stays valid until the next get().
  const Dataset& get(int period, int next = -1);

  /// The period get() returned last, -1 before the first (or after a failed get()).
  int current_period() const { return current_period_; }
  /// get()'s rows of current_period().
  const Dataset& current() const { return current_; }
  /// The preparer's work on current() (nullptr without a preparer, or when it prepares nothing).
  const PreparedData* current_prepared() const { return current_prepared_.get(); }
  /// Whether current().X has a missing cell, scanned once on the loading thread (FitOptions::data_has_missing).
  bool current_has_missing() const { return current_has_missing_; }
  /// Seconds the last get() blocked its caller: the data phase as the rounds see it (0 when the prefetch was done).
  double last_wait_seconds() const { return last_wait_seconds_; }
  /// Seconds source.load_period took for the period the last get() returned, on whichever thread ran it.
  double last_load_seconds() const { return last_load_seconds_; }

 private:
  struct Loaded {
    Dataset data;
    std::shared_ptr<const PreparedData> prepared;
    bool has_missing = false;
    double seconds = 0.0;
  };
  Loaded load(int period);
  /// Waits for the running background load, if any, and discards it (and its exception).
  void discard_pending() noexcept;

  DataSource& source_;
  const Estimator* preparer_;
  int threads_;
  Dataset current_;
  std::shared_ptr<const PreparedData> current_prepared_;
  bool current_has_missing_ = false;
  int current_period_ = -1;
  std::future<Loaded> pending_;
  int pending_period_ = -1;
  double last_wait_seconds_ = 0.0;
  double last_load_seconds_ = 0.0;
};

}  // namespace bfs

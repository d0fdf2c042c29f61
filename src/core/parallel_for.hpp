#pragma once
// The one thread pool of banditfs (modelled on XGBoost's common::ParallelFor): parallel_for(n, threads, body) runs
// body(0) … body(n − 1), each exactly once, on min(threads, n) threads — the calling thread and threads − 1 started
// for the call and joined before it returns (blocking joins; nobody spins). Indices are handed out dynamically, so
// a body must write only its own slot: then neither the thread count nor the timing changes a result. Every body
// runs even when another one throws; the exception of the lowest failing index is then rethrown, whatever the
// timing. The thread count is the caller's share of Context::threads (an Executor's, or a tuning fold's).
//
// How this pool and OpenMP share the run's threads: the pool's threads are plain std::threads, and OpenMP never
// sees them as a team. A body that calls OpenMP code (an XGBoost fit, the importance passes, HGB's histograms) opens
// its own OpenMP team inside its pool thread, of the size it passes (num_threads / nthread). The caller divides
// Context::threads between the two levels — w pool threads, each body given max(1, Context::threads / w) for
// OpenMP (tuning's grid points do this; the Executor's tasks — FIRST's estimates, FUSE's rewards, cmab-scores'
// features — open no OpenMP team, so they take one thread each) — and the two levels together never ask for more
// than Context::threads. OpenMP's own pool (libgomp) then keeps one set of idle workers per pool thread
// that opened a team; they wait in the OpenMP runtime (OMP_WAIT_POLICY), not in this pool.
#include <cstddef>
#include <functional>
#include <vector>

namespace bfs {

/// Runs body(i) for every i in [0, n) on up to `threads` threads (fewer than 1 counts as 1); returns when all are
/// done. Rethrows the lowest failing index's exception after every body ran.
void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t)>& body);

/// parallel_for that keeps each body's return value: result[i] = body(i), in index order.
template <class Result, class Body>
std::vector<Result> parallel_map(std::size_t n, int threads, const Body& body) {
  std::vector<Result> results(n);
  parallel_for(n, threads, [&](std::size_t i) { results[i] = body(i); });
  return results;
}

}  // namespace bfs

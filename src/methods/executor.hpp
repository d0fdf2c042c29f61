#pragma once
// The Executor (docs/design.md §3) for methods that are many independent evaluations (FIRST's forward-step
// candidates, NANNE's leave-one-out estimates, ...): map(n, task) returns the n results in task order, on every
// rank. LocalExecutor runs the tasks on threads; under MPI (src/dist/, dist::MpiExecutor) each rank takes a
// contiguous block of tasks — on its own threads — and the blocks are allgathered. A task must draw its random
// numbers from streams keyed by the task index (core/rng.hpp), never by rank or thread, so the results do not
// depend on the rank or thread count. Methods never include MPI; only rank 0 writes files.
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace bfs {

/// The half-open range [begin, end) of tasks that `rank` of `ranks` evaluates: contiguous blocks whose sizes differ
/// by at most one, the larger ones first.
std::pair<std::size_t, std::size_t> task_block(std::size_t n, int rank, int ranks);

class Executor {
 public:
  /// A task returns any number of doubles (a score, a row of estimates); they travel between ranks as bytes.
  using Task = std::function<std::vector<double>(std::size_t index)>;
  virtual ~Executor() = default;
  /// Runs tasks 0..n−1; returns their results in task order on every rank. An exception of a task is rethrown
  /// (the lowest failing index's) on the rank that ran it.
  virtual std::vector<std::vector<double>> map(std::size_t n, const Task& task) = 0;
  /// This process's share of n tasks (all of them locally).
  virtual std::pair<std::size_t, std::size_t> block(std::size_t n) const = 0;
  virtual int threads() const = 0;
};

/// Runs the tasks [begin, end) on `threads` threads of core/parallel_for (dynamic assignment: the order of completion
/// never matters, each result lands in its slot). Used by LocalExecutor and by each rank of the MPI executor.
std::vector<std::vector<double>> run_tasks(std::size_t begin, std::size_t end, const Executor::Task& task, int threads);

class LocalExecutor final : public Executor {
 public:
  explicit LocalExecutor(int threads) : threads_(threads < 1 ? 1 : threads) {}
  std::vector<std::vector<double>> map(std::size_t n, const Task& task) override {
    return run_tasks(0, n, task, threads_);
  }
  std::pair<std::size_t, std::size_t> block(std::size_t n) const override { return {0, n}; }
  int threads() const override { return threads_; }

 private:
  int threads_;
};

}  // namespace bfs

#include "methods/executor.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "core/share.hpp"

namespace bfs {

std::pair<std::size_t, std::size_t> task_block(std::size_t n, int rank, int ranks) {
  return contiguous_share(n, rank, ranks);
}

std::vector<std::vector<double>> run_tasks(std::size_t begin, std::size_t end, const Executor::Task& task,
                                           int threads) {
  const std::size_t n = end > begin ? end - begin : 0;
  std::vector<std::vector<double>> results(n);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        results[i] = task(begin + i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const auto count =
      static_cast<std::size_t>(std::clamp<long long>(threads, 1, static_cast<long long>(std::max<std::size_t>(n, 1))));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < count; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
  return results;
}

}  // namespace bfs

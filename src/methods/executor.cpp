#include "methods/executor.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace bfs {

std::pair<std::size_t, std::size_t> task_block(std::size_t n, int rank, int ranks) {
  const auto k = static_cast<std::size_t>(std::max(1, ranks));
  const auto r = static_cast<std::size_t>(std::clamp(rank, 0, static_cast<int>(k) - 1));
  const std::size_t base = n / k, extra = n % k;
  const std::size_t begin = r * base + std::min(r, extra);
  return {begin, begin + base + (r < extra ? 1 : 0)};
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

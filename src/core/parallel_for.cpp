#include "core/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace bfs {

void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t)>& body) {
  if (n == 0) return;
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        body(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), n);
  std::vector<std::thread> pool;
  pool.reserve(count - 1);
  for (std::size_t t = 1; t < count; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace bfs

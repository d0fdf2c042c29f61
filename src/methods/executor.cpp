#include "methods/executor.hpp"

#include "core/parallel_for.hpp"
#include "core/share.hpp"

namespace bfs {

std::pair<std::size_t, std::size_t> task_block(std::size_t n, int rank, int ranks) {
  return contiguous_share(n, rank, ranks);
}

std::vector<std::vector<double>> run_tasks(std::size_t begin, std::size_t end, const Executor::Task& task,
                                           int threads) {
  const std::size_t n = end > begin ? end - begin : 0;
  return parallel_map<std::vector<double>>(n, threads, [&](std::size_t i) { return task(begin + i); });
}

}  // namespace bfs

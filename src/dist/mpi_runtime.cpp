// The MPI side of methods/comm.hpp and methods/executor.hpp: MpiComm moves byte strings over a Boost.MPI
// communicator; MpiExecutor runs this rank's contiguous block of tasks on its threads and allgathers every block,
// so map() returns all results in task order on every rank. A failed task fails the map on every rank (no rank is
// left waiting in a collective): the rank that ran it rethrows the task's exception, the others throw an Error
// naming that rank.
#include <boost/mpi/communicator.hpp>
#include <cstring>
#include <exception>

#include "core/error.hpp"
#include "dist/detail/comm.hpp"
#include "dist/runtime.hpp"

namespace bfs::dist {
namespace {

class MpiComm final : public Comm {
 public:
  explicit MpiComm(boost::mpi::communicator comm) : comm_(std::move(comm)) {}
  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }
  std::string broadcast(std::string bytes, int root) const override {
    return detail::broadcast_bytes(comm_, std::move(bytes), root);
  }
  std::vector<std::string> gather(const std::string& bytes, int root) const override {
    return detail::gather_bytes(comm_, bytes, root);
  }
  std::vector<std::string> allgather(const std::string& bytes) const override {
    return detail::allgather_bytes(comm_, bytes);
  }
  void allreduce_sum(std::span<std::int64_t> values) const override { detail::allreduce_sum(comm_, values); }
  std::unique_ptr<Comm> split(int colour) const override { return std::make_unique<MpiComm>(comm_.split(colour)); }

 private:
  boost::mpi::communicator comm_;
};

/// A block's results as bytes: a status byte (0 = ok, 1 = a task failed), the result count, then each result's
/// length and doubles.
std::string encode_block(const std::vector<std::vector<double>>& results, bool failed) {
  std::string bytes(1, failed ? '\1' : '\0');
  auto put = [&](const void* data, std::size_t size) { bytes.append(static_cast<const char*>(data), size); };
  const std::uint64_t count = results.size();
  put(&count, sizeof count);
  for (const auto& result : results) {
    const std::uint64_t length = result.size();
    put(&length, sizeof length);
    put(result.data(), length * sizeof(double));
  }
  return bytes;
}

void decode_block(const std::string& bytes, std::vector<std::vector<double>>& out) {
  std::size_t offset = 1;
  auto take = [&](void* data, std::size_t size) {
    BFS_CHECK(offset + size <= bytes.size());
    std::memcpy(data, bytes.data() + offset, size);
    offset += size;
  };
  std::uint64_t count = 0;
  take(&count, sizeof count);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t length = 0;
    take(&length, sizeof length);
    std::vector<double> result(length);
    take(result.data(), length * sizeof(double));
    out.push_back(std::move(result));
  }
}

class MpiExecutor final : public Executor {
 public:
  MpiExecutor(const MpiComm& comm, int threads) : comm_(comm), threads_(threads < 1 ? 1 : threads) {}

  std::vector<std::vector<double>> map(std::size_t n, const Task& task) override {
    const auto [begin, end] = block(n);
    std::vector<std::vector<double>> mine;
    std::exception_ptr error;
    try {
      mine = run_tasks(begin, end, task, threads_);
    } catch (...) {
      error = std::current_exception();
    }
    const std::vector<std::string> blocks = comm_.allgather(encode_block(mine, error != nullptr));
    if (error) std::rethrow_exception(error);
    std::vector<std::vector<double>> all;
    all.reserve(n);
    for (std::size_t r = 0; r < blocks.size(); ++r) {
      if (blocks[r].empty() || blocks[r][0] != '\0')
        throw Error("a task of rank " + std::to_string(r) + " failed (its error is reported by that rank)");
      decode_block(blocks[r], all);
    }
    BFS_CHECK(all.size() == n);
    return all;
  }
  std::pair<std::size_t, std::size_t> block(std::size_t n) const override {
    return task_block(n, comm_.rank(), comm_.size());
  }
  int threads() const override { return threads_; }

 private:
  const MpiComm& comm_;
  int threads_;
};

/// The runtime's communicator must outlive its executor: both are owned by the Runtime, comm first.
class OwnedMpiExecutor final : public Executor {
 public:
  OwnedMpiExecutor(std::shared_ptr<MpiComm> comm, int threads) : comm_(std::move(comm)), inner_(*comm_, threads) {}
  std::vector<std::vector<double>> map(std::size_t n, const Task& task) override { return inner_.map(n, task); }
  std::pair<std::size_t, std::size_t> block(std::size_t n) const override { return inner_.block(n); }
  int threads() const override { return inner_.threads(); }

 private:
  std::shared_ptr<MpiComm> comm_;
  MpiExecutor inner_;
};

}  // namespace

Runtime make_runtime(const Session& session, int threads) {
  Runtime runtime;
  if (!session.uses_mpi()) {
    runtime.comm = std::make_unique<SoloComm>();
    runtime.executor = std::make_unique<LocalExecutor>(threads);
    return runtime;
  }
  runtime.comm = std::make_unique<MpiComm>(detail::world(session));
  // The executor has its own duplicate of the world, so its collectives never interleave with the method's.
  runtime.executor = std::make_unique<OwnedMpiExecutor>(
      std::make_shared<MpiComm>(boost::mpi::communicator(detail::world(session), boost::mpi::comm_duplicate)), threads);
  return runtime;
}

}  // namespace bfs::dist

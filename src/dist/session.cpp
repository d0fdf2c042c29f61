#include "dist/session.hpp"

#include <mpi.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <cstdint>
#include <cstdlib>

#include "core/error.hpp"
#include "dist/detail/comm.hpp"

namespace bfs::dist {

struct Session::Impl {
  // abort_on_exception = false: main() reports the error itself, then calls Session::abort.
  Impl(int& argc, char**& argv) : environment(argc, argv, false) {}
  boost::mpi::environment environment;
  boost::mpi::communicator world;
};

Session::Session(int& argc, char**& argv) {
  if (!launched_by_mpi()) return;
  impl_ = std::make_unique<Impl>(argc, argv);
  rank_ = impl_->world.rank();
  size_ = impl_->world.size();
}

Session::~Session() = default;

void Session::abort(int code) const {
  if (impl_) impl_->environment.abort(code);
  std::exit(code);
}

namespace detail {

boost::mpi::communicator& world(const Session& session) {
  BFS_CHECK(session.impl_ != nullptr);
  return session.impl_->world;
}

std::string broadcast_bytes(const boost::mpi::communicator& comm, std::string bytes, int root) {
  std::uint64_t size = bytes.size();
  boost::mpi::broadcast(comm, size, root);
  bytes.resize(size);
  if (size > 0) boost::mpi::broadcast(comm, bytes.data(), static_cast<int>(size), root);
  return bytes;
}

std::vector<std::string> gather_bytes(const boost::mpi::communicator& comm, const std::string& bytes, int root) {
  const int size = static_cast<int>(bytes.size());
  std::vector<int> sizes;
  boost::mpi::gather(comm, size, sizes, root);
  if (comm.rank() != root) {
    boost::mpi::gatherv(comm, bytes.data(), size, root);
    return {};
  }
  std::size_t total = 0;
  for (int s : sizes) total += static_cast<std::size_t>(s);
  std::string all(total, '\0');
  boost::mpi::gatherv(comm, bytes.data(), size, all.data(), sizes, root);
  std::vector<std::string> out;
  std::size_t offset = 0;
  for (int s : sizes) {
    out.emplace_back(all.substr(offset, static_cast<std::size_t>(s)));
    offset += static_cast<std::size_t>(s);
  }
  return out;
}

std::vector<std::string> allgather_bytes(const boost::mpi::communicator& comm, const std::string& bytes) {
  const int size = static_cast<int>(bytes.size());
  std::vector<int> sizes;
  boost::mpi::all_gather(comm, size, sizes);
  std::size_t total = 0;
  for (int s : sizes) total += static_cast<std::size_t>(s);
  std::string all(total, '\0');
  std::vector<int> displacements(sizes.size(), 0);
  for (std::size_t r = 1; r < sizes.size(); ++r) displacements[r] = displacements[r - 1] + sizes[r - 1];
  MPI_Allgatherv(bytes.data(), size, MPI_CHAR, all.data(), sizes.data(), displacements.data(), MPI_CHAR, comm);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < sizes.size(); ++r)
    out.emplace_back(all.substr(static_cast<std::size_t>(displacements[r]), static_cast<std::size_t>(sizes[r])));
  return out;
}

void allreduce_sum(const boost::mpi::communicator& comm, std::span<std::int64_t> values) {
  BFS_CHECK(values.size() <= static_cast<std::size_t>(INT32_MAX), "allreduce of ", values.size(), " values");
  if (values.empty()) return;
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_SUM, comm);
}

}  // namespace detail

}  // namespace bfs::dist

#pragma once
// The MPI session of one banditfs process (MPI lives only in src/dist/: docs/architecture.md). MPI is initialised only
// when the process was started by an MPI launcher (mpirun / mpiexec / srun with PMIx), so a plain `banditfs run` on a
// laptop or a login node never touches MPI. This header includes no MPI header: the CLI uses it as is.
#include <cstdlib>
#include <memory>
#include <string>

namespace boost::mpi {
class communicator;
}

namespace bfs::dist {

class Session;
namespace detail {
boost::mpi::communicator& world(const Session& session);
}

/// True when the environment says an MPI launcher started this process (Open MPI or PMIx variables).
inline bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

class Session {
 public:
  /// Initialises MPI when launched_by_mpi(); otherwise a one-rank session without MPI.
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool uses_mpi() const { return impl_ != nullptr; }
  /// Ends every rank of the job at once with `code` (MPI_Abort); never returns. Without MPI: std::exit.
  [[noreturn]] void abort(int code) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int rank_ = 0;
  int size_ = 1;
  friend boost::mpi::communicator& detail::world(const Session& session);
};

}  // namespace bfs::dist

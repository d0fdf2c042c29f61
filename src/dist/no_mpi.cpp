// Built instead of session.cpp and mpi_runtime.cpp when BANDITFS_WITH_MPI=OFF: one rank, a SoloComm and a
// LocalExecutor. A launch by mpirun/srun with several tasks is refused rather than run K independent copies into
// one directory.
#include <cstdlib>

#include "core/error.hpp"
#include "dist/runtime.hpp"

namespace bfs::dist {

struct Session::Impl {};

Session::Session(int&, char**&) {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size == nullptr) size = std::getenv("SLURM_NTASKS");
  if (launched_by_mpi() && size != nullptr && std::atoi(size) > 1)
    throw ConfigError("this banditfs was built without MPI (BANDITFS_WITH_MPI=OFF) but launched with " +
                      std::string(size) + " tasks; rebuild with MPI or run one task");
}
Session::~Session() = default;
void Session::abort(int code) const {
  std::exit(code);
}

Runtime make_runtime(const Session&, int threads) {
  Runtime runtime;
  runtime.comm = std::make_unique<SoloComm>();
  runtime.executor = std::make_unique<LocalExecutor>(threads);
  return runtime;
}

}  // namespace bfs::dist

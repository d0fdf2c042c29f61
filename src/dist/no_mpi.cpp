// Built instead of session.cpp and distributed_runner.cpp when BANDITFS_WITH_MPI=OFF: one rank, the local engine.
// A launch by mpirun/srun with several tasks is refused rather than run K independent copies into one directory.
#include <cstdlib>

#include "core/error.hpp"
#include "dist/distributed_runner.hpp"

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
void Session::abort(int code) const { std::exit(code); }

std::optional<RunResult> run_job(const Session&, const JobConfig& job, const std::string& job_text, Context& context,
                                 const RunControl& control, const RoundCallback& on_round) {
  return run_local(job, job_text, context, control, on_round);
}

}  // namespace bfs::dist

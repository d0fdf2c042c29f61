#pragma once
// What a method runs on: the job's communicator and executor, built from the session. Under MPI the
// communicator moves bytes over Boost.MPI and the executor gives each rank a contiguous block of tasks, run on its
// threads, then allgathers; without MPI they are SoloComm and LocalExecutor. No MPI header here, and no method is
// named: the CLI passes these to whatever method the job names.
#include <memory>

#include "dist/session.hpp"
#include "methods/comm.hpp"
#include "methods/executor.hpp"

namespace bfs::dist {

struct Runtime {
  std::unique_ptr<Comm> comm;
  std::unique_ptr<Executor> executor;
};

/// `threads` per rank (≥ 1).
Runtime make_runtime(const Session& session, int threads);

}  // namespace bfs::dist

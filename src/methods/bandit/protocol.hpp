#pragma once
// The bandit's distributed job (docs/design.md §2), on the Comm of methods/comm.hpp (MPI stays in src/dist/):
// rank 0 is the coordinator — it runs the same round driver as the local runner (methods/bandit/round_driver.hpp) with
// an evaluator that broadcasts each round's super-arms and gathers the rewards; ranks 1..K−1 form groups
// (methods/bandit/partitioning.hpp), one super-arm in flight per group. In a group the leader fits the base estimator
// on its copy of the period's rows and broadcasts the serialized model with a cost-balanced partition of the arm's
// importance groups; every member scores its block (exact fast paths included) and turns it into 0/1 rewards, which
// go to rank 0 as bit vectors. Every random draw derives from (seed, round, slot, purpose, feature), so the result
// is bit-identical to run_local for any rank count and any arms_per_round.
#include <optional>
#include <string>

#include "config/job_config.hpp"
#include "core/context.hpp"
#include "methods/bandit/local_runner.hpp"
#include "methods/bandit/run_result.hpp"
#include "methods/comm.hpp"

namespace bfs::bandit {

/// Runs the job on every rank of `world`. Returns the run state on rank 0 (ranks = world.size()) and nullopt on
/// the other ranks. With one rank it is run_local. `control` and `on_round` are used on rank 0 only.
std::optional<RunResult> run_distributed(const Comm& world, const JobConfig& job, const std::string& job_text,
                                         Context& context, const RunControl& control, const RoundCallback& on_round);

}  // namespace bfs::bandit

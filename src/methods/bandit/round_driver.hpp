#pragma once
// The schedule of a run (docs/design.md §2), shared by the local runner and the MPI coordinator: which rounds run on
// which period, posterior updates in slot order, the trajectory, the stopping rule, checkpoints and resume. How a
// round's super-arms get evaluated is the RoundEvaluator's business — in this process (local_runner.cpp) or by worker
// ranks (protocol.cpp, on the Comm that src/dist/ provides). Keeping one driver is what makes every deployment give the
// same numbers.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "config/job_config.hpp"
#include "core/context.hpp"
#include "data/source.hpp"
#include "methods/bandit/arm_evaluation.hpp"
#include "methods/bandit/local_runner.hpp"
#include "methods/bandit/policy.hpp"
#include "methods/bandit/run_result.hpp"
#include "run/source_info.hpp"

namespace bfs {

/// Evaluates the super-arms of one round. evaluate() gets the round's draws (slot order) and returns one outcome
/// per draw, in slot order; finish() is called once when the run ends normally (e.g. to release worker ranks).
class RoundEvaluator {
 public:
  virtual ~RoundEvaluator() = default;
  virtual std::vector<ArmOutcome> evaluate(std::int32_t round, int period, const std::vector<ArmDraw>& draws,
                                           Timings& timings) = 0;
  virtual void finish() {}
};

/// Rounds in the job's schedule: offline bandit.iterations; online passes × periods × iterations_per_period, where
/// `periods` is the source's (with bandit.rebatch = "bootstrap" it counts every pass's batches, and passes is 1).
std::int32_t scheduled_rounds(const JobConfig& job, int periods);
/// Online, the schedule sets the number of rounds; a job that also names bandit.iterations must name that number
/// (ConfigError naming both otherwise), so that a length the schedule would not give is never silently ignored.
void check_online_iterations(const JobConfig& job, int periods);

/// The period whose rounds follow those of `round`'s period in the job's schedule (the next period, the first one
/// of the next pass, ...), or -1 when `round`'s period is the schedule's last: what to prefetch while it runs.
int next_period_after(const JobConfig& job, int periods, std::int32_t round);

/// Runs the schedule, asking `evaluator` for each round's outcomes. Returns the result (interrupted when
/// control.stop_requested fired; a checkpoint then holds the state). `tuning` is stored in the result and in every
/// checkpoint (tune_job's report; not present when [tuning] is off). The result's wall time is this start's, from
/// `started` (when the caller began: opening the data, tuning), plus the earlier starts' stored in the checkpoint.
RunResult drive_rounds(const JobConfig& job, const std::string& job_text, const Context& context,
                       const SourceInfo& source, RoundEvaluator& evaluator, const RoundCallback& on_round,
                       const RunControl& control, const TuningReport& tuning = {},
                       std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now());

/// The optional first-period hyper-parameter search of [tuning] ([Wu §5.1], methods/bandit/tuning.hpp): replaces
/// job.estimator with the tuned one and returns the report. On --resume the checkpoint's stored choice is applied
/// instead of tuning again. Not enabled: returns a report that is not present and leaves the job alone.
TuningReport tune_job(JobConfig& job, DataSource& source, const RunControl& control, const Context& context);

/// Throws InputError when a period cannot be evaluated: too few rows for the split, or a constant target.
void check_period(const Dataset& data, const JobConfig& job, const std::string& what);

}  // namespace bfs

#pragma once
// The schedule of a run (DESIGN §3), shared by the local engine and the MPI coordinator: which rounds run on which
// period, posterior updates in slot order, the trajectory, the stopping rule, checkpoints and resume. How a round's
// super-arms get evaluated is the RoundEvaluator's business — in this process (local_runner.cpp) or by worker ranks
// (src/dist/). Keeping one driver is what makes every deployment give the same numbers.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bandit/policy.hpp"
#include "config/job_config.hpp"
#include "core/context.hpp"
#include "data/source.hpp"
#include "engine/arm_evaluation.hpp"
#include "engine/local_runner.hpp"
#include "engine/run_result.hpp"

namespace bfs {

/// What the coordinator knows of the data without loading any period.
struct SourceInfo {
  std::string description;
  std::vector<std::string> feature_names;
  int periods = 1;
  FeatureSet truth;
  bool has_truth = false;
  std::string fingerprint;  ///< description, shape and a hash of the names: refuses checkpoints of other data
};
SourceInfo describe_source(const DataSource& source, bool online);

/// The keys that decide a run's numbers (all but those declared result_neutral(), config/schema.hpp
/// is_result_neutral_key) whose values differ between a checkpoint's job text and this job's, as
/// "key (checkpoint a, this job b), ..." — for a refusal to resume (any method's checkpoint).
std::string differing_keys(const std::string& checkpoint_text, const std::string& job_text);

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

/// The optional first-period hyper-parameter search of [tuning] (paper 000 §5.1, engine/tuning.hpp): replaces
/// job.estimator with the tuned one and returns the report. On --resume the checkpoint's stored choice is applied
/// instead of tuning again. Not enabled: returns a report that is not present and leaves the job alone.
TuningReport tune_job(JobConfig& job, DataSource& source, const RunControl& control, const Context& context);

/// Throws InputError when a period cannot be evaluated: too few rows for the split, or a constant target.
void check_period(const Dataset& data, const JobConfig& job, const std::string& what);

}  // namespace bfs

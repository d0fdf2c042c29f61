#pragma once
// The single-process engine: drives CoordinatorState and evaluate_arm over the schedule of the job.
//  offline: `bandit.iterations` rounds on one data set (fresh split + bootstrap each evaluation).
//  online:  `passes` passes over the periods in order, `iterations_per_period` rounds on each; a period's rows are
//           loaded in the background while the previous period's rounds run (engine/period_prefetcher.hpp) and used
//           from its first round on, so no round sees a row of a later period. bandit.iterations, if given,
//           must equal that schedule's length (check_online_iterations).
// Either stops early when the stopping rule fires.
#include <functional>
#include <string>

#include "config/job_config.hpp"
#include "core/context.hpp"
#include "data/source.hpp"
#include "engine/run_result.hpp"

namespace bfs {

/// Called after every round with (round, total rounds, result-so-far facts) — for progress lines.
struct RoundReport {
  std::int32_t round = 0;
  std::int32_t total_rounds = 0;
  std::int32_t period = 0;
  std::string_view metric = "r2";  ///< the name of test_score's metric
  std::size_t selected = 0;
  double test_score = 0.0;
  std::size_t arm_size = 0;
};

/// True in a RunResult returned early because stop_requested() fired (a checkpoint holds the state).
inline bool interrupted(const RunResult& result) {
  return result.stop_reason.rfind("interrupted", 0) == 0;
}
using RoundCallback = std::function<void(const RoundReport&)>;

/// Checkpoint and interruption control (DESIGN §7). A checkpoint is written atomically after every
/// `checkpoint_every` rounds and when `stop_requested()` turns true (checked at the end of each round: the run then
/// returns early with `interrupted` set). With `resume`, the run continues from `checkpoint_path` and refuses a
/// checkpoint whose job (algorithmic keys) or data differ. A resumed run's result equals an uninterrupted one.
struct RunControl {
  std::string checkpoint_path;  ///< empty = no checkpoints
  int checkpoint_every = 0;
  bool resume = false;
  std::function<bool()> stop_requested;
};

/// Hash of the keys that determine the run's numbers (config/schema.hpp dump_job_identity: every key but those
/// declared result_neutral()): a checkpoint may be resumed with another output directory, thread count or group
/// layout.
std::string job_hash(const JobConfig& job);

/// Runs the job; the result's job_text is `job_text`. Throws InputError / ConfigError on bad data or job.
RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context,
                    const RoundCallback& on_round = {});
/// Same, on a given source instead of the one [data] describes (tests, embedding).
RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context, DataSource& source,
                    const RoundCallback& on_round = {}, const RunControl& control = {});
/// The [data] source, with checkpoint control.
RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context, const RunControl& control,
                    const RoundCallback& on_round = {});

}  // namespace bfs

#pragma once
// The single-process run: drives CoordinatorState and evaluate_arm over the schedule of the job.
//  offline: `bandit.iterations` rounds on one data set (fresh split + bootstrap each evaluation).
//  online:  `passes` passes over the periods in order, `iterations_per_period` rounds on each; a period's rows are
//           loaded in the background while the previous period's rounds run (methods/bandit/period_prefetcher.hpp) and
//           used from its first round on, so no round sees a row of a later period. bandit.iterations, if given, must
//           equal that schedule's length (check_online_iterations).
// Either stops early when the stopping rule fires.
#include <string>

#include "config/job_config.hpp"
#include "core/context.hpp"
#include "data/source.hpp"
#include "methods/bandit/run_result.hpp"
#include "run/progress.hpp"
#include "run/run_control.hpp"

namespace bfs {

/// True in a RunResult returned early because stop_requested() fired (a checkpoint holds the state).
inline bool interrupted(const RunResult& result) {
  return result.stop_reason.rfind("interrupted", 0) == 0;
}
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

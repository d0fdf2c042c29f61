#pragma once
// The single-process engine: drives CoordinatorState and evaluate_arm over the schedule of the job.
//  offline: `bandit.iterations` rounds on one data set (fresh split + bootstrap each evaluation).
//  online:  `passes` passes over the periods in order, `iterations_per_period` rounds on each; a period's rows are
//           loaded when it starts, so no row of a later period is seen early. bandit.iterations is not used.
// Either stops early when the stopping rule fires.
#include <functional>
#include <string>

#include "config/job_config.hpp"
#include "core/context.hpp"
#include "data/source.hpp"
#include "output/run_result.hpp"

namespace bfs {

/// Called after every round with (round, total rounds, result-so-far facts) — for progress lines.
struct RoundReport {
  std::int32_t round = 0;
  std::int32_t total_rounds = 0;
  std::int32_t period = 0;
  std::size_t selected = 0;
  double r2_test = 0.0;
  std::size_t arm_size = 0;
};
using RoundCallback = std::function<void(const RoundReport&)>;

/// Runs the job; the result's job_text is `job_text`. Throws InputError / ConfigError on bad data or job.
RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context,
                    const RoundCallback& on_round = {});
/// Same, on a given source instead of the one [data] describes (tests, embedding).
RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context, DataSource& source,
                    const RoundCallback& on_round = {});

}  // namespace bfs

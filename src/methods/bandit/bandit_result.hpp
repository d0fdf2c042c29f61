#pragma once
// The bandit's run state (methods/bandit/run_result.hpp) as the method-neutral result (methods/result.hpp): importance
// = posterior mean, the trajectory of posterior means, and under /bandit its own datasets — alpha, beta,
// iteration_period, evaluations/{iteration, slot, period, arm_size, test_score, rewards, updated} (attribute metric),
// tuning/{parameters, values, mean_r2, std_r2, fold_r2} with its attributes — and facts policy, estimator, metric.
// summary.csv's own columns are alpha and beta; run.json's "bandit" object adds num_evaluations and the tuning table.
#include "methods/bandit/run_result.hpp"
#include "methods/result.hpp"

namespace bfs::bandit {

MethodResult to_method_result(const RunResult& run);
/// importance_lo/importance_hi: the equal-tailed credible interval of each feature's Beta(α, β) posterior at `level`
/// (run.interval), the interval of the posterior mean that is the importance.
void add_credible_interval(const RunResult& run, double level, MethodResult& result);
/// With data.knockoffs ([TVS §7.2]): facts knockoffs/selected (knockoff columns selected) and knockoffs/ratio
/// (that count over max(1, the other columns selected)), the paper's check that the selection is not noise.
void add_knockoff_facts(MethodResult& result);

}  // namespace bfs::bandit

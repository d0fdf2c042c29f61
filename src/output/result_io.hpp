#pragma once
// Writing and reading a run's outputs (DESIGN §5). Every writer is atomic: it writes `path.tmp` and renames, so a
// failed run never leaves a half-written file under the final name.
#include <iosfwd>
#include <string>

#include "output/run_result.hpp"

namespace bfs {

/// result.h5: /alpha, /beta, /posterior_mean, /trajectory [iterations × p] (float32, chunked), /feature_names,
/// /iteration_period, /evaluations/{iteration,slot,period,arm_size,test_score,rewards}, /selected, /truth (if known),
/// attributes: version, method, policy, estimator, data_origin, job, seed, ranks, threads, iterations, stop_reason,
/// metrics (when known, with /truth) and timings. With a tuning report: group /tuning with parameters (strings),
/// values float64 [points × parameters], mean_r2, std_r2, fold_r2 [points × folds] and attributes estimator, chosen,
/// folds, period, rows, features, seed, seconds. Datasets are byte-identical for identical results.
void write_result_h5(const RunResult& result, const std::string& path);
/// Reads everything write_result_h5 wrote back, timings included (from the root attributes). InputError naming the
/// file for a missing file, a missing dataset or attribute, or inconsistent shapes.
RunResult read_result_h5(const std::string& path);
/// summary.csv: feature,name,mean,alpha,beta,selected,rank (rank 1 = highest mean; ties by feature id).
void write_summary_csv(const RunResult& result, const std::string& path);
/// run.json: the manifest (method, iterations, timings, selected features, stop reason, seed, ranks, version,
/// metrics, and "tuning" {period, rows, folds, parameters, chosen, table} when tuning ran).
void write_run_json(const RunResult& result, const std::string& path);
/// Human-readable report of a result.h5: the run's facts and the top `top` features.
void print_inspection(const RunResult& result, std::ostream& out, int top = 25);

}  // namespace bfs

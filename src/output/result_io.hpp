#pragma once
// Writing and reading a run's outputs (DESIGN §5). Every writer is atomic: it writes `path.tmp` and renames, so a
// failed run never leaves a half-written file under the final name.
#include <iosfwd>
#include <string>

#include "engine/run_result.hpp"
#include "engine/run_result_h5.hpp"  // write_result_h5 / read_result_h5: result.h5 is the engine's run state

namespace bfs {

/// summary.csv: feature,name,mean,alpha,beta,selected,rank (rank 1 = highest mean; ties by feature id).
void write_summary_csv(const RunResult& result, const std::string& path);
/// run.json: the manifest (method, iterations, timings, selected features, stop reason, seed, ranks, version,
/// metrics, and "tuning" {period, rows, folds, parameters, chosen, table} when tuning ran).
void write_run_json(const RunResult& result, const std::string& path);
/// Human-readable report of a result.h5: the run's facts and the top `top` features.
void print_inspection(const RunResult& result, std::ostream& out, int top = 25);

}  // namespace bfs

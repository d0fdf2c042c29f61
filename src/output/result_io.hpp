#pragma once
// Writing and reading a run's outputs (docs/design.md §4) from the method-neutral result (methods/result.hpp):
// result.h5, summary.csv, run.json and `inspect` read only a MethodResult, so every method gets every output. Every
// writer is atomic: it writes `path.tmp` and renames, so a failed run never leaves a half-written file under the final
// name. (The bandit's checkpoint, RunResult's HDF5 form, is the bandit's own: methods/bandit/run_result_h5.hpp.)
//
// result.h5 layout (the layout rule of methods/result.hpp):
//   root datasets   /feature_names (strings [p]), /importance (float64 [p]), /selected (int32 ids), /rank (int32 [p]),
//                   /trajectory (float32 [iterations × p], only when the method has one), /truth (int32 ids, when
//                   known), /importance_lo and /importance_hi (float64 [p], when the result has an interval)
//   root attributes version, method, task, data_origin, job, seed (uint64), ranks, threads, iterations (int32),
//                   stop_reason, importance_meaning; fdp, power, hamming (int64), separation_iteration (int32) when the
//                   truth is known; interval (float64, the interval's level) with /importance_lo; every timing
//                   (float64, named "*_seconds" or "bytes_sent")
//   group /stability only in a result made of R runs (run/stability_summary.hpp): float64 [p] selection_frequency,
//                   importance_mean, importance_sd, importance_q05, importance_q50, importance_q95, rank_mean,
//                   rank_sd; uint64 [R] seeds when the runs were separate results; attributes runs (int64),
//                   threshold (float64); from stability selection also pairs (int64), mean_selected,
//                   max_false (when given), bound_meinshausen_buhlmann, bound_shah_samworth (float64; NaN where
//                   a bound is not defined; docs/stability.md)
//   group /<method> the method's own datasets at their names ("evaluations/test_score" is in subgroup evaluations),
//                   its facts as attributes of the group or of the subgroup before the last '/', and the string
//                   attribute "feature_columns" (the per-feature datasets summary.csv and inspect show, joined by ",")
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "methods/result.hpp"

namespace bfs {

/// result.h5 (layout above). Throws bfs::Error naming what is inconsistent (importance or rank not of length p, a
/// trajectory that is not a multiple of p, a feature column without p values, a dataset whose shape does not match its
/// values, ...) before anything is written; an empty `rank` is computed from the importance.
void write_result_h5(const MethodResult& r, const std::string& path);
/// Reads a result.h5 back: everything write_result_h5 wrote (own datasets with their dtype and shape — a 1-D dataset
/// comes back with an empty shape —, facts: string attributes as strings, floats as double, integers as int64; timings
/// = the root attributes named "*_seconds" (wall_seconds first, then alphabetical) and "bytes_sent"). A file of the
/// bandit-only layout (/posterior_mean, /alpha, /beta at the root) reads as method "bandit" with importance =
/// /posterior_mean and alpha, beta, iteration_period, evaluations/*, tuning/* as its own datasets. InputError naming
/// the file for a missing file, a file that is not HDF5 or a missing dataset.
MethodResult read_result_h5(const std::string& path);
/// summary.csv: feature,name,importance,selected,rank, then importance_lo,importance_hi (with an interval), the
/// /stability columns (a result of R runs), and one column per feature column (rank 1 = most important).
void write_summary_csv(const MethodResult& r, const std::string& path);
/// A file's size and 64-bit FNV-1a digest (hex): how run.json pins the other files of its set
/// (output/run_directory.hpp).
struct FileDigest {
  std::string name;  ///< file name inside the output directory
  std::uintmax_t bytes = 0;
  std::string fnv1a64;
};
/// run.json: the manifest (identity, run facts, selection, timings, metrics, the method's own object, top features),
/// and "outputs": the size and digest of the other files of the set (output/run_directory.hpp) when given.
void write_run_json(const MethodResult& r, const std::string& path, const std::vector<FileDigest>& outputs);
void write_run_json(const MethodResult& r, const std::string& path);
/// Human-readable report of a result: the run's facts and the top `top` features.
void print_inspection(const MethodResult& r, std::ostream& out, int top = 25);

}  // namespace bfs

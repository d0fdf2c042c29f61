#pragma once
// The HDF5 form of a bandit run's state (RunResult): the round driver writes it as its checkpoint (checkpoint.h5 =
// the rounds so far plus ResumeState) and reads it back on --resume.
// Every write is atomic (temp file + rename).
#include <hdf5.h>

#include <string>

#include "methods/bandit/run_result.hpp"

namespace bfs {

namespace detail {
class Reader;
}

/// result.h5 / checkpoint.h5: /alpha, /beta, /posterior_mean, /trajectory [iterations × p] (float32, chunked),
/// /feature_names, /iteration_period, /evaluations/{iteration,slot,period,arm_size,test_score,rewards,updated} (the
/// group's attribute "metric" names test_score's metric), /selected, /truth (if known), attributes: version, method,
/// policy, estimator, task, data_origin, job, seed, ranks, threads, iterations, stop_reason, metrics (when known, with
/// /truth) and timings. With a tuning report: group /tuning with parameters (strings), values float64 [points ×
/// parameters], mean_r2, std_r2, fold_r2 [points × folds] and attributes estimator, chosen, folds, period, rows,
/// features, seed, seconds. With a resume state (checkpoints): resume_* attributes and /resume_stop_key. Datasets are
/// byte-identical for identical results.
void write_run_state_h5(const RunResult& result, const std::string& path);
/// Reads everything write_run_state_h5 wrote back, timings included (from the root attributes). InputError naming the
/// file for a missing file, a missing dataset or attribute, or inconsistent shapes.
RunResult read_run_state_h5(const std::string& path);

/// What write_run_state_h5 writes but the attributes method, job, resume_job_hash and resume_data_fingerprint, into
/// `root` (the body of the bandit's checkpoint, whose header holds those: bandit_checkpoint.hpp).
void write_run_state_body(hid_t root, const RunResult& result);
/// What read_run_state_h5 reads, from an open file (the header's attributes included).
RunResult read_run_state(const detail::Reader& in);

}  // namespace bfs

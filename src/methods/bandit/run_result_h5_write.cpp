// result.h5 writer (docs/design.md §4). Datasets hold only deterministic quantities and object time tracking is off, so
// identical RunResults give byte-identical datasets (in practice the whole file is identical when the timings are);
// run facts, metrics and timings are root attributes.
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_read.hpp"
#include "data/detail/h5_result_write.hpp"
#include "data/detail/h5_types.hpp"
#include "methods/bandit/run_result_h5.hpp"

namespace bfs {
namespace {

using detail::check;
using detail::check_id;
using detail::H5Handle;
using detail::H5Types;
using namespace detail::h5w;

/// /tuning: parameters (strings), values [points × parameters], mean_r2, std_r2, fold_r2 [points × folds] and the
/// scalars as attributes of the group (seconds is the only non-deterministic one).
void write_tuning(hid_t root, const TuningReport& t) {
  const std::size_t points = t.mean_r2.size();
  if (t.values.size() != points * t.parameters.size() || t.std_r2.size() != points ||
      t.fold_r2.size() != points * static_cast<std::size_t>(std::max(0, t.folds)) ||
      (points > 0 && (t.chosen < 0 || static_cast<std::size_t>(t.chosen) >= points))) {
    throw Error(detail::concat("tuning report is inconsistent: ", points, " points, ", t.parameters.size(),
                               " parameters, ", t.values.size(), " values, ", t.folds, " folds, chosen ", t.chosen));
  }
  H5Handle group = untimed_group(root, "tuning");
  write_strings(group.get(), "parameters", t.parameters);
  write_2d(group.get(), "values", t.values, t.parameters.size());
  write_1d(group.get(), "mean_r2", t.mean_r2);
  write_1d(group.get(), "std_r2", t.std_r2);
  write_2d(group.get(), "fold_r2", t.fold_r2, static_cast<std::size_t>(t.folds));
  write_attr(group.get(), "estimator", t.estimator);
  write_attr(group.get(), "chosen", t.chosen);
  write_attr(group.get(), "folds", t.folds);
  write_attr(group.get(), "period", t.period);
  write_attr(group.get(), "rows", t.rows);
  write_attr(group.get(), "features", t.features);
  write_attr(group.get(), "seed", t.seed);
  write_attr(group.get(), "seconds", t.seconds);
}

/// /evaluations: one dataset per EvaluationRecord field, attribute metric.
void write_evaluations(hid_t root, const RunResult& r) {
  H5Handle group = untimed_group(root, "evaluations");
  const std::size_t n = r.evaluations.size();
  std::vector<std::int32_t> iteration(n), slot(n), period(n), arm_size(n), rewards(n), updated(n);
  std::vector<double> test_score(n);
  for (std::size_t i = 0; i < n; ++i) {
    const EvaluationRecord& e = r.evaluations[i];
    iteration[i] = e.iteration;
    slot[i] = e.slot;
    period[i] = e.period;
    arm_size[i] = e.arm_size;
    rewards[i] = e.rewards;
    updated[i] = e.updated;
    test_score[i] = e.test_score;
  }
  write_1d(group.get(), "iteration", iteration);
  write_1d(group.get(), "slot", slot);
  write_1d(group.get(), "period", period);
  write_1d(group.get(), "arm_size", arm_size);
  write_1d(group.get(), "rewards", rewards);
  write_1d(group.get(), "updated", updated);
  write_1d(group.get(), "test_score", test_score);
  write_attr(group.get(), "metric", r.metric);
}

/// method, job and the resume key's two attributes: a checkpoint's header writes these (write_checkpoint).
void write_identity(hid_t root, const RunResult& r) {
  write_attr(root, "method", r.method);
  write_attr(root, "job", r.job_text);
  if (r.resume.present) {
    write_attr(root, "resume_job_hash", r.resume.job_hash);
    write_attr(root, "resume_data_fingerprint", r.resume.data_fingerprint);
  }
}

void write_file(const RunResult& r, const std::string& tmp) {
  H5Handle fcpl = detail::h5_plist(check_id(H5Pcreate(H5P_FILE_CREATE), "file properties"));
  check(H5Pset_obj_track_times(fcpl.get(), 0), "disable time tracking");
  H5Handle file = detail::h5_file(
      check_id(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT), detail::concat("create ", tmp)));
  write_run_state_body(file.get(), r);
  write_identity(file.get(), r);
  check(file.close(), detail::concat("close ", tmp));
}

}  // namespace

void write_run_state_body(hid_t root, const RunResult& r) {
  const std::size_t p = r.feature_names.size();
  if (r.alpha.size() != p || r.beta.size() != p) {
    throw Error(detail::concat("alpha/beta have ", r.alpha.size(), "/", r.beta.size(), " entries but there are ", p,
                               " feature names"));
  }
  std::vector<double> mean(p);
  for (std::size_t k = 0; k < p; ++k) mean[k] = r.posterior_mean(static_cast<FeatureId>(k));
  write_1d(root, "alpha", r.alpha);
  write_1d(root, "beta", r.beta);
  write_1d(root, "posterior_mean", mean);
  write_trajectory(root, r.trajectory, p);
  write_strings(root, "feature_names", r.feature_names);
  write_1d(root, "iteration_period", r.iteration_period);
  write_1d(root, "selected", r.selected);
  if (r.metrics.known) write_1d(root, "truth", r.truth);
  write_evaluations(root, r);

  write_attr(root, "version", r.version);
  write_attr(root, "policy", r.policy);
  write_attr(root, "estimator", r.estimator);
  write_attr(root, "task", r.task);
  write_attr(root, "data_origin", r.data_origin);
  write_attr(root, "seed", r.seed);
  write_attr(root, "ranks", std::int32_t{r.ranks});
  write_attr(root, "threads", std::int32_t{r.threads});
  write_attr(root, "iterations", r.iterations);
  write_attr(root, "stop_reason", r.stop_reason);
  if (r.metrics.known) {
    write_attr(root, "fdp", r.metrics.fdp);
    write_attr(root, "power", r.metrics.power);
    write_attr(root, "hamming", r.metrics.hamming);
    write_attr(root, "separation_iteration", r.metrics.separation_iteration);
  }
  if (r.resume.present) {
    write_attr(root, "resume_stable_count", r.resume.stable_count);
    write_attr(root, "resume_separation_round", r.resume.separation_round);
    write_1d(root, "resume_stop_key", r.resume.stop_key);
  }
  if (r.tuning.present) write_tuning(root, r.tuning);
  for_each_timing(r.timings, [&](const char* name, double value) { write_attr(root, name, value); });
}

void write_run_state_h5(const RunResult& result, const std::string& path) {
  // A checkpoint is written while the next period may be read on the prefetch thread
  // (methods/bandit/period_prefetcher.hpp): the serial HDF5 library must never be entered by two threads at once.
  const std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  detail::atomic_write(path, [&](const std::string& tmp) { write_file(result, tmp); });
}

}  // namespace bfs

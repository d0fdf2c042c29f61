// result.h5 reader: everything write_run_state_h5 wrote, validated; errors are InputError naming the file and the
// missing or malformed dataset / attribute.
#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_read.hpp"
#include "data/detail/h5_result_reader.hpp"
#include "data/detail/h5_types.hpp"
#include "methods/bandit/run_result_h5.hpp"

namespace bfs {
namespace {

using detail::h5_error_message;
using detail::H5Handle;
using detail::H5Types;
using detail::Reader;

TuningReport read_tuning(const Reader& in) {
  TuningReport t;
  t.present = true;
  t.parameters = in.read_strings("tuning/parameters");
  std::size_t points = 0;
  t.values = in.read_2d_double("tuning/values", t.parameters.size(), points);
  t.mean_r2 = in.read_1d<double>("tuning/mean_r2");
  t.std_r2 = in.read_1d<double>("tuning/std_r2");
  t.estimator = in.string_attr("estimator", "tuning");
  t.chosen = in.attr<std::int32_t>("chosen", "tuning");
  t.folds = in.attr<std::int32_t>("folds", "tuning");
  t.period = in.attr<std::int32_t>("period", "tuning");
  t.rows = in.attr<std::int64_t>("rows", "tuning");
  t.features = in.attr<std::int64_t>("features", "tuning");
  t.seed = in.attr<std::uint64_t>("seed", "tuning");
  t.seconds = in.attr<double>("seconds", "tuning");
  if (t.folds < 0) in.fail(detail::concat("tuning attribute folds = ", t.folds, " is negative"));
  std::size_t fold_points = 0;
  t.fold_r2 = in.read_2d_double("tuning/fold_r2", static_cast<std::size_t>(t.folds), fold_points);
  if (t.parameters.empty()) points = t.mean_r2.size();  // a [0 x 0] table carries no row count
  if (t.mean_r2.size() != points || t.std_r2.size() != points || (t.folds > 0 && fold_points != points))
    in.fail("the /tuning datasets differ in their number of grid points");
  if (points > 0 && (t.chosen < 0 || static_cast<std::size_t>(t.chosen) >= points))
    in.fail(detail::concat("tuning attribute chosen = ", t.chosen, " is not a grid point (0..", points - 1, ")"));
  return t;
}

}  // namespace

RunResult read_run_state_h5(const std::string& path) {
  const std::lock_guard lock(detail::hdf5_mutex());  // see write_run_state_h5
  detail::silence_hdf5_errors();
  return read_run_state(Reader(path));
}

RunResult read_run_state(const detail::Reader& in) {
  RunResult r;
  r.feature_names = in.read_strings("feature_names");
  const std::size_t p = r.feature_names.size();
  r.alpha = in.read_1d<double>("alpha");
  r.beta = in.read_1d<double>("beta");
  if (r.alpha.size() != p || r.beta.size() != p) {
    in.fail(detail::concat("/alpha and /beta must have one entry per feature name (", p, ")"));
  }
  std::size_t rows = 0;
  r.trajectory = in.read_2d("trajectory", p, rows);
  r.iteration_period = in.read_1d<std::int32_t>("iteration_period");
  r.selected = in.read_1d<FeatureId>("selected");

  const auto iteration = in.read_1d<std::int32_t>("evaluations/iteration");
  const auto slot = in.read_1d<std::int32_t>("evaluations/slot");
  const auto period = in.read_1d<std::int32_t>("evaluations/period");
  const auto arm_size = in.read_1d<std::int32_t>("evaluations/arm_size");
  const auto rewards = in.read_1d<std::int32_t>("evaluations/rewards");
  const auto updated = in.read_1d<std::int32_t>("evaluations/updated");
  const auto test_score = in.read_1d<double>("evaluations/test_score");
  const std::size_t n = iteration.size();
  if (slot.size() != n || period.size() != n || arm_size.size() != n || rewards.size() != n || updated.size() != n ||
      test_score.size() != n) {
    in.fail("the /evaluations datasets differ in length");
  }
  r.evaluations.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    r.evaluations[i] =
        EvaluationRecord{iteration[i], slot[i], period[i], arm_size[i], test_score[i], rewards[i], updated[i]};
  }

  r.version = in.string_attr("version");
  r.method = in.string_attr("method");
  r.policy = in.string_attr("policy");
  r.estimator = in.string_attr("estimator");
  r.task = in.string_attr("task");
  r.metric = in.string_attr("metric", "evaluations");
  r.data_origin = in.string_attr("data_origin");
  r.job_text = in.string_attr("job");
  r.seed = in.attr<std::uint64_t>("seed");
  r.ranks = in.attr<std::int32_t>("ranks");
  r.threads = in.attr<std::int32_t>("threads");
  r.iterations = in.attr<std::int32_t>("iterations");
  r.stop_reason = in.string_attr("stop_reason");

  r.metrics.known = in.has("truth");
  if (r.metrics.known) {
    r.truth = in.read_1d<FeatureId>("truth");
    r.metrics.fdp = in.attr<double>("fdp");
    r.metrics.power = in.attr<double>("power");
    r.metrics.hamming = in.attr<std::int64_t>("hamming");
    r.metrics.separation_iteration = in.attr<std::int32_t>("separation_iteration");
  }
  r.resume.present = in.has("resume_stop_key");
  if (r.resume.present) {
    r.resume.job_hash = in.string_attr("resume_job_hash");
    r.resume.data_fingerprint = in.string_attr("resume_data_fingerprint");
    r.resume.stable_count = in.attr<std::int32_t>("resume_stable_count");
    r.resume.separation_round = in.attr<std::int32_t>("resume_separation_round");
    r.resume.stop_key = in.read_1d<FeatureId>("resume_stop_key");
  }
  if (in.has("tuning")) r.tuning = read_tuning(in);
  for_each_timing(r.timings, [&](const char* name, double& value) { value = in.attr_or(name, 0.0); });
  return r;
}

}  // namespace bfs

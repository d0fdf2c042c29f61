// result.h5 writer (DESIGN §5). Datasets hold only deterministic quantities and object time tracking is off, so
// identical RunResults give byte-identical datasets (in practice the whole file is identical when the timings are);
// run facts, metrics and timings are root attributes.
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_types.hpp"
#include "engine/run_result_h5.hpp"

namespace bfs {
namespace {

using detail::check;
using detail::check_id;
using detail::H5Handle;
using detail::H5Types;

/// Trajectory chunks stay at or below this many bytes (at least one row per chunk).
constexpr std::size_t kTrajectoryChunkBytes = std::size_t{1} << 20;

/// Dataset creation properties without time stamps (so the bytes do not depend on the wall clock).
H5Handle untimed_dcpl() {
  H5Handle dcpl = detail::h5_plist(check_id(H5Pcreate(H5P_DATASET_CREATE), "create dataset properties"));
  check(H5Pset_obj_track_times(dcpl.get(), 0), "disable time tracking");
  return dcpl;
}

template <class T>
void write_1d(hid_t loc, const char* name, const std::vector<T>& data) {
  const hsize_t dims[1] = {data.size()};
  H5Handle space = detail::h5_space(check_id(H5Screate_simple(1, dims, nullptr), name));
  H5Handle dcpl = untimed_dcpl();
  H5Handle dset = detail::h5_dataset(
      check_id(H5Dcreate2(loc, name, H5Types<T>::file(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
               detail::concat("create dataset ", name)));
  if (!data.empty()) {
    check(H5Dwrite(dset.get(), H5Types<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
          detail::concat("write dataset ", name));
  }
}

/// Fixed-length, NUL-padded UTF-8 strings: their raw bytes are deterministic (no heap addresses) and h5py reads
/// them as bytes.
void write_strings(hid_t loc, const char* name, const std::vector<std::string>& strings) {
  std::size_t width = 1;
  for (const auto& s : strings) width = std::max(width, s.size());
  std::vector<char> buffer(strings.size() * width, '\0');
  for (std::size_t i = 0; i < strings.size(); ++i)
    std::memcpy(buffer.data() + i * width, strings[i].data(), strings[i].size());

  H5Handle type = detail::h5_type(check_id(H5Tcopy(H5T_C_S1), "string type"));
  check(H5Tset_size(type.get(), width), "string size");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "string padding");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string charset");
  const hsize_t dims[1] = {strings.size()};
  H5Handle space = detail::h5_space(check_id(H5Screate_simple(1, dims, nullptr), name));
  H5Handle dcpl = untimed_dcpl();
  H5Handle dset =
      detail::h5_dataset(check_id(H5Dcreate2(loc, name, type.get(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                                  detail::concat("create dataset ", name)));
  if (!strings.empty()) {
    check(H5Dwrite(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
          detail::concat("write dataset ", name));
  }
}

/// /trajectory float32 [rows × p], chunked by whole rows (≤ ~1 MiB per chunk) and deflated when zlib is available.
/// The first dimension is unlimited, so an empty [0 × p] trajectory is still a valid chunked dataset.
void write_trajectory(hid_t loc, const std::vector<float>& trajectory, std::size_t p) {
  if (p == 0 && !trajectory.empty()) throw Error("trajectory is not empty but there are no features");
  if (p != 0 && trajectory.size() % p != 0) {
    throw Error(detail::concat("trajectory has ", trajectory.size(), " values, not a multiple of p = ", p));
  }
  const hsize_t rows = p == 0 ? 0 : trajectory.size() / p;
  const hsize_t dims[2] = {rows, p};
  H5Handle dcpl = untimed_dcpl();
  H5Handle space;
  if (p == 0) {  // a chunk cannot have a zero extent: plain contiguous [rows × 0]
    space = detail::h5_space(check_id(H5Screate_simple(2, dims, nullptr), "trajectory space"));
  } else {
    const hsize_t max_dims[2] = {H5S_UNLIMITED, p};
    const hsize_t chunk_rows = std::max<hsize_t>(1, kTrajectoryChunkBytes / (sizeof(float) * p));
    const hsize_t chunk[2] = {rows == 0 ? chunk_rows : std::min<hsize_t>(chunk_rows, rows), p};
    space = detail::h5_space(check_id(H5Screate_simple(2, dims, max_dims), "trajectory space"));
    check(H5Pset_chunk(dcpl.get(), 2, chunk), "trajectory chunking");
    unsigned int filter_config = 0;
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 && H5Zget_filter_info(H5Z_FILTER_DEFLATE, &filter_config) >= 0 &&
        (filter_config & H5Z_FILTER_CONFIG_ENCODE_ENABLED) != 0) {
      check(H5Pset_shuffle(dcpl.get()), "trajectory shuffle filter");
      check(H5Pset_deflate(dcpl.get(), 4), "trajectory deflate filter");
    }
  }
  H5Handle dset = detail::h5_dataset(
      check_id(H5Dcreate2(loc, "trajectory", H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
               "create dataset trajectory"));
  if (!trajectory.empty()) {
    check(H5Dwrite(dset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, trajectory.data()),
          "write dataset trajectory");
  }
}

/// float64 [rows × cols], contiguous (small tables only).
void write_2d(hid_t loc, const char* name, const std::vector<double>& data, std::size_t cols) {
  if (cols == 0 ? !data.empty() : data.size() % cols != 0)
    throw Error(detail::concat(name, " has ", data.size(), " values, not a multiple of ", cols, " columns"));
  const hsize_t dims[2] = {cols == 0 ? 0 : data.size() / cols, cols};
  H5Handle space = detail::h5_space(check_id(H5Screate_simple(2, dims, nullptr), name));
  H5Handle dcpl = untimed_dcpl();
  H5Handle dset = detail::h5_dataset(
      check_id(H5Dcreate2(loc, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
               detail::concat("create dataset ", name)));
  if (!data.empty()) {
    check(H5Dwrite(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
          detail::concat("write dataset ", name));
  }
}

H5Handle untimed_group(hid_t loc, const char* name) {
  H5Handle gcpl = detail::h5_plist(check_id(H5Pcreate(H5P_GROUP_CREATE), "group properties"));
  check(H5Pset_obj_track_times(gcpl.get(), 0), "disable time tracking");
  return detail::h5_group(
      check_id(H5Gcreate2(loc, name, H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), detail::concat("create group ", name)));
}

template <class T>
void write_attr(hid_t loc, const char* name, T value) {
  H5Handle space = detail::h5_space(check_id(H5Screate(H5S_SCALAR), name));
  H5Handle attr =
      detail::h5_attr(check_id(H5Acreate2(loc, name, H5Types<T>::file(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                               detail::concat("create attribute ", name)));
  check(H5Awrite(attr.get(), H5Types<T>::mem(), &value), detail::concat("write attribute ", name));
}

/// Variable-length UTF-8 string attribute: h5py reads it as str, and the data lives in the global heap, so a long
/// job text does not hit the 64 KiB object-header limit.
void write_attr(hid_t loc, const char* name, const std::string& value) {
  H5Handle type = detail::h5_type(check_id(H5Tcopy(H5T_C_S1), "string type"));
  check(H5Tset_size(type.get(), H5T_VARIABLE), "string size");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string charset");
  H5Handle space = detail::h5_space(check_id(H5Screate(H5S_SCALAR), name));
  H5Handle attr = detail::h5_attr(check_id(H5Acreate2(loc, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                                           detail::concat("create attribute ", name)));
  const char* data = value.c_str();
  check(H5Awrite(attr.get(), type.get(), &data), detail::concat("write attribute ", name));
}

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

void write_file(const RunResult& r, const std::string& tmp) {
  const std::size_t p = r.feature_names.size();
  if (r.alpha.size() != p || r.beta.size() != p) {
    throw Error(detail::concat("alpha/beta have ", r.alpha.size(), "/", r.beta.size(), " entries but there are ", p,
                               " feature names"));
  }
  H5Handle fcpl = detail::h5_plist(check_id(H5Pcreate(H5P_FILE_CREATE), "file properties"));
  check(H5Pset_obj_track_times(fcpl.get(), 0), "disable time tracking");
  H5Handle file = detail::h5_file(
      check_id(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT), detail::concat("create ", tmp)));
  const hid_t root = file.get();

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

  {
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

  write_attr(root, "version", r.version);
  write_attr(root, "method", r.method);
  write_attr(root, "policy", r.policy);
  write_attr(root, "estimator", r.estimator);
  write_attr(root, "task", r.task);
  write_attr(root, "data_origin", r.data_origin);
  write_attr(root, "job", r.job_text);
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
    write_attr(root, "resume_job_hash", r.resume.job_hash);
    write_attr(root, "resume_data_fingerprint", r.resume.data_fingerprint);
    write_attr(root, "resume_stable_count", r.resume.stable_count);
    write_attr(root, "resume_separation_round", r.resume.separation_round);
    write_1d(root, "resume_stop_key", r.resume.stop_key);
  }
  if (r.tuning.present) write_tuning(root, r.tuning);
  for_each_timing(r.timings, [&](const char* name, double value) { write_attr(root, name, value); });

  check(file.close(), detail::concat("close ", tmp));
}

}  // namespace

void write_result_h5(const RunResult& result, const std::string& path) {
  detail::silence_hdf5_errors();
  detail::atomic_write(path, [&](const std::string& tmp) { write_file(result, tmp); });
}

}  // namespace bfs

// result.h5 reader: everything write_result_h5 wrote, validated; errors are InputError naming the file and the
// missing or malformed dataset / attribute.
#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_types.hpp"
#include "engine/run_result_h5.hpp"

namespace bfs {
namespace {

using detail::h5_error_message;
using detail::H5Handle;
using detail::H5Types;

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) fail("no such file");
    if (H5Fis_hdf5(path.c_str()) <= 0) fail("not an HDF5 file");
    file_ = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    if (!file_.valid()) fail(detail::concat("cannot open: ", h5_error_message()));
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(detail::concat("result file '", path_, "': ", what));
  }

  /// True when every component of `name` ("evaluations/iteration") exists as a link.
  bool has(const std::string& name) const {
    std::size_t pos = 0;
    while (true) {
      pos = name.find('/', pos);
      const std::string prefix = name.substr(0, pos);
      if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      if (pos == std::string::npos) return true;
      ++pos;
    }
  }

  H5Handle open(const std::string& name) const {
    if (!has(name)) fail(detail::concat("missing dataset /", name));
    H5Handle dset = detail::h5_dataset(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT));
    if (!dset.valid()) fail(detail::concat("cannot open dataset /", name));
    return dset;
  }

  std::vector<hsize_t> shape(hid_t dset, const std::string& name) const {
    H5Handle space = detail::h5_space(H5Dget_space(dset));
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 0) fail(detail::concat("cannot read the shape of /", name));
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return dims;
  }

  template <class T>
  std::vector<T> read_1d(const std::string& name) const {
    H5Handle dset = open(name);
    const auto dims = shape(dset.get(), name);
    if (dims.size() != 1) fail(detail::concat("/", name, " is not one-dimensional"));
    std::vector<T> data(dims[0]);
    if (!data.empty() && H5Dread(dset.get(), H5Types<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
      fail(detail::concat("cannot read /", name, ": ", h5_error_message()));
    }
    return data;
  }

  /// Rows × cols float32 dataset into a row-major vector.
  std::vector<float> read_2d(const std::string& name, std::size_t cols, std::size_t& rows) const {
    H5Handle dset = open(name);
    const auto dims = shape(dset.get(), name);
    if (dims.size() != 2 || dims[1] != cols) {
      fail(detail::concat("/", name, " is not a [rows x ", cols, "] matrix"));
    }
    rows = dims[0];
    std::vector<float> data(dims[0] * dims[1]);
    if (!data.empty() && H5Dread(dset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
      fail(detail::concat("cannot read /", name, ": ", h5_error_message()));
    }
    return data;
  }

  /// Fixed-length or variable-length strings.
  std::vector<std::string> read_strings(const std::string& name) const {
    H5Handle dset = open(name);
    const auto dims = shape(dset.get(), name);
    if (dims.size() != 1) fail(detail::concat("/", name, " is not one-dimensional"));
    H5Handle type = detail::h5_type(H5Dget_type(dset.get()));
    if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) fail(detail::concat("/", name, " is not strings"));
    std::vector<std::string> out(dims[0]);
    if (out.empty()) return out;
    if (H5Tis_variable_str(type.get()) > 0) {
      std::vector<char*> ptrs(out.size(), nullptr);  // memory type = file type: HDF5 will not convert charsets
      if (H5Dread(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) < 0) {
        fail(detail::concat("cannot read /", name));
      }
      for (std::size_t i = 0; i < out.size(); ++i) {
        if (ptrs[i] != nullptr) out[i] = ptrs[i];
        H5free_memory(ptrs[i]);
      }
      return out;
    }
    const std::size_t width = H5Tget_size(type.get());
    std::vector<char> buffer(out.size() * width);
    if (H5Dread(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0) {
      fail(detail::concat("cannot read /", name));
    }
    const bool space_pad = H5Tget_strpad(type.get()) == H5T_STR_SPACEPAD;
    for (std::size_t i = 0; i < out.size(); ++i) {
      std::string s(buffer.data() + i * width, width);
      const auto end = s.find_last_not_of(space_pad ? ' ' : '\0');
      s.resize(end == std::string::npos ? 0 : end + 1);
      if (!space_pad) s.resize(std::strlen(s.c_str()));  // NUL-terminated as well as NUL-padded
      out[i] = std::move(s);
    }
    return out;
  }

  /// Attributes live on the root ("." ) or on a group such as "tuning".
  bool has_attr(const char* name, const char* object = ".") const {
    return H5Aexists_by_name(file_.get(), object, name, H5P_DEFAULT) > 0;
  }

  H5Handle open_attr(const char* name, const char* object = ".") const {
    const std::string where = std::string(object) == "." ? std::string(name) : detail::concat(object, "/", name);
    if (!has_attr(name, object)) fail(detail::concat("missing attribute ", where));
    H5Handle attr = detail::h5_attr(H5Aopen_by_name(file_.get(), object, name, H5P_DEFAULT, H5P_DEFAULT));
    if (!attr.valid()) fail(detail::concat("cannot open attribute ", where));
    return attr;
  }

  template <class T>
  T attr(const char* name, const char* object = ".") const {
    H5Handle a = open_attr(name, object);
    T value{};
    if (H5Aread(a.get(), H5Types<T>::mem(), &value) < 0) fail(detail::concat("cannot read attribute ", name));
    return value;
  }

  /// float64 [rows × cols] into a row-major vector; `cols` is checked, rows is returned.
  std::vector<double> read_2d_double(const std::string& name, std::size_t cols, std::size_t& rows) const {
    H5Handle dset = open(name);
    const auto dims = shape(dset.get(), name);
    if (dims.size() != 2 || dims[1] != cols) fail(detail::concat("/", name, " is not a [rows x ", cols, "] matrix"));
    rows = dims[0];
    std::vector<double> data(dims[0] * dims[1]);
    if (!data.empty() && H5Dread(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
      fail(detail::concat("cannot read /", name, ": ", h5_error_message()));
    }
    return data;
  }

  /// Optional numeric attribute (older or partial files): `fallback` when absent.
  template <class T>
  T attr_or(const char* name, T fallback) const {
    return has_attr(name) ? attr<T>(name) : fallback;
  }

  std::string string_attr(const char* name, const char* object = ".") const {
    H5Handle a = open_attr(name, object);
    H5Handle type = detail::h5_type(H5Aget_type(a.get()));
    if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING)
      fail(detail::concat("attribute ", name, " is not a string"));
    if (H5Tis_variable_str(type.get()) > 0) {
      char* data = nullptr;  // memory type = file type: HDF5 will not convert charsets
      if (H5Aread(a.get(), type.get(), &data) < 0) fail(detail::concat("cannot read attribute ", name));
      std::string value = data != nullptr ? data : "";
      H5free_memory(data);
      return value;
    }
    std::string value(H5Tget_size(type.get()), '\0');
    if (H5Aread(a.get(), type.get(), value.data()) < 0) fail(detail::concat("cannot read attribute ", name));
    value.resize(std::strlen(value.c_str()));
    return value;
  }

 private:
  std::string path_;
  H5Handle file_;
};

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

RunResult read_result_h5(const std::string& path) {
  detail::silence_hdf5_errors();
  Reader in(path);
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
  if (slot.size() != n || period.size() != n || arm_size.size() != n || rewards.size() != n || updated.size() != n || test_score.size() != n) {
    in.fail("the /evaluations datasets differ in length");
  }
  r.evaluations.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    r.evaluations[i] = EvaluationRecord{iteration[i], slot[i], period[i], arm_size[i], test_score[i], rewards[i], updated[i]};
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

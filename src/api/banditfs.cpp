// The library API (banditfs.hpp, docs/api.md): the same steps `banditfs run` takes — the schema parses and validates
// the job, the method validates it, methods::find runs it, output/ writes and reads the result — with in-memory data
// handed to the methods through MethodRun::data, which make_data_source turns into the same memory source a CSV file
// becomes.
#include "api/banditfs.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <thread>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "methods/comm.hpp"
#include "methods/executor.hpp"
#include "methods/registry.hpp"
#include "output/result_io.hpp"
#include "output/run_directory.hpp"

#ifndef BANDITFS_VERSION
#define BANDITFS_VERSION "0.0.0"
#endif

namespace bfs::api {

namespace {

/// A job is the schema's parse plus the method's own checks, as the CLI has always validated it.
JobConfig validated(JobConfig config) {
  methods::find(config.method.name).validate(config);
  return config;
}

/// The checks attached data adds to the job's: it replaces the data set of a method that reads (X, y).
void check_attachable(const JobConfig& job, const Comm& comm) {
  if (job.method.logged_data)
    throw ConfigError("method.name = \"" + job.method.name +
                      "\" reads contextual-bandit logs (data.arm, data.reward), not the (X, y) data attached in "
                      "memory; give the log through [data]");
  if (!job.data.features.empty())
    throw ConfigError(
        "data.features selects columns of a CSV file; data attached in memory is used whole (select its columns "
        "before attaching it)");
  if (comm.size() != 1)
    throw InputError(detail::concat("data attached in memory runs in one process, not on ", comm.size(), " ranks"));
}

}  // namespace

std::string version() {
  return BANDITFS_VERSION;
}

Job::Job(JobConfig config, std::string text)
    : config_(std::make_shared<const JobConfig>(std::move(config))),
      text_(std::make_shared<const std::string>(std::move(text))) {}

Job Job::parse(const std::string& toml, const std::vector<std::string>& overrides, const std::string& origin) {
  JobConfig config = validated(parse_job(methods::catalog(), toml, origin, overrides));
  std::string text = dump_job(config);
  return Job(std::move(config), std::move(text));
}

Job Job::load(const std::string& path, const std::vector<std::string>& overrides) {
  JobConfig config = validated(load_job(methods::catalog(), path, overrides));
  std::string text = dump_job(config);
  return Job(std::move(config), std::move(text));
}

Job Job::from_config(const JobConfig& config) {
  return parse(dump_job(config), {}, "the job built in code");
}

JobConfig Job::defaults(const std::string& method) {
  // The method's own parameters, sections and flags come from the schema, as for a file naming the method.
  return parse_job(methods::catalog(), "", "the defaults", {"method.name=\"" + method + "\""});
}

int Job::threads() const {
  const int threads = config_->run.threads;
  return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

Data Data::from(const ArraysView& view) {
  const std::string& o = view.origin;
  if (view.rows < 0 || view.cols < 0)
    throw InputError(detail::concat(o, ": a negative shape ", view.rows, " x ", view.cols));
  if (view.cols > 0 && view.rows > std::numeric_limits<Index>::max() / view.cols)
    throw InputError(detail::concat(o, ": an impossible shape ", view.rows, " x ", view.cols));
  if ((view.X == nullptr && view.rows * view.cols > 0) || (view.y == nullptr && view.rows > 0))
    throw InputError(detail::concat(o, ": X or y is a null pointer"));
  Dataset data;
  data.origin = o;
  data.X.resize(view.rows, view.cols);
  if (view.rows * view.cols > 0)
    std::memcpy(data.X.data(), view.X, sizeof(float) * static_cast<std::size_t>(view.rows * view.cols));
  data.y = view.rows > 0 ? Vector(Eigen::Map<const Vector>(view.y, view.rows)) : Vector();
  data.feature_names = view.feature_names.empty() ? default_feature_names(view.cols) : view.feature_names;
  if (view.periods != nullptr && view.rows > 0) {
    const std::span<const std::int32_t> period(view.periods, static_cast<std::size_t>(view.rows));
    data.period_offsets = offsets_of_sorted_periods(period, o, "periods");
    for (std::size_t k = 0; k + 1 < data.period_offsets.size(); ++k)
      data.period_labels.push_back(period[static_cast<std::size_t>(data.period_offsets[k])]);
  }
  if (view.truth) {
    data.truth.assign(view.truth->begin(), view.truth->end());
    data.has_truth = true;
  }
  return from_dataset(std::move(data));
}

Data Data::from_dataset(Dataset dataset) {
  validate_dataset(dataset);
  return Data(std::make_shared<const Dataset>(std::move(dataset)));
}

std::optional<MethodResult> run_on(const Job& job, const Data* data, const RunOptions& options, const Comm& comm,
                                   Executor& executor) {
  const JobConfig& config = job.config();
  const Method& method = methods::find(config.method.name);
  if (data != nullptr) check_attachable(config, comm);
  Context context;
  context.seed = config.run.seed;
  context.threads = job.threads();
  context.log = options.log;  // the methods log only through a logger they are given
  RunControl control;
  control.checkpoint_path = options.checkpoint_path;
  control.checkpoint_every = config.run.checkpoint_every;
  control.resume = options.resume;
  control.stop_requested = options.should_stop;
  const RoundCallback on_round = options.on_progress;
  std::optional<MethodResult> result = method.run(MethodRun{config, job.text(), context, comm, executor, control,
                                                            on_round, data != nullptr ? data->shared() : nullptr});
  if (result) result->version = version();
  return result;
}

MethodResult run(const Job& job, const Data* data, const RunOptions& options) {
  const SoloComm comm;
  LocalExecutor executor(job.threads());
  return *run_on(job, data, options, comm, executor);
}

void write_outputs(const MethodResult& result, const std::string& dir) {
  const RunDirectory directory(dir, "(the library API)");
  directory.commit(result);
}

MethodResult read_result(const std::string& path) {
  std::error_code ec;
  const std::string file =
      std::filesystem::is_directory(path, ec) ? (std::filesystem::path(path) / "result.h5").string() : path;
  check_result_set(file);
  return read_result_h5(file);
}

}  // namespace bfs::api

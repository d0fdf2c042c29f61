// The library API (banditfs.hpp, docs/api.md): the same steps `banditfs run` takes — the schema parses and validates
// the job, the method validates it, methods::find runs it, output/ writes and reads the result — with in-memory data
// handed to the methods through MethodRun::data, which make_data_source turns into the same memory source a CSV file
// becomes.
#include "api/banditfs.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <thread>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "data/categorical.hpp"
#include "methods/comm.hpp"
#include "methods/executor.hpp"
#include "methods/registry.hpp"
#include "output/result_io.hpp"
#include "output/run_directory.hpp"
#include "run/data_sources.hpp"
#include "stability/stability.hpp"

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

/// The checks attached data adds to the job's: (X, y) replaces the data set of a method that reads (X, y), a log
/// the log of one that reads logs.
void check_attachable(const JobConfig& job, const Data& data, const Comm& comm) {
  if (job.method.logged_data && !data.is_log())
    throw ConfigError("method.name = \"" + job.method.name +
                      "\" reads contextual-bandit logs (data.arm, data.reward), not (X, y): attach a log "
                      "(Data::from_log)");
  if (!job.method.logged_data && data.is_log())
    throw ConfigError("method.name = \"" + job.method.name +
                      "\" reads (X, y), not a contextual-bandit log: attach arrays (Data::from)");
  if (!job.data.features.empty())
    throw ConfigError(
        "data.features selects columns of a CSV file; data attached in memory is used whole (select its columns "
        "before attaching it)");
  if (!job.data.arms.empty())
    throw ConfigError(
        "data.arms orders the arms of a log file; an attached log's arms are in the order of its arm_labels");
  if (comm.size() != 1)
    throw InputError(detail::concat("data attached in memory runs in one process, not on ", comm.size(), " ranks"));
}

/// A shape the copy can hold and pointers to copy from: X (rows × cols) and the per-row arrays `rows_of`.
void check_shape(const std::string& origin, std::int64_t rows, std::int64_t cols, const float* X,
                 std::initializer_list<const void*> rows_of) {
  if (rows < 0 || cols < 0) throw InputError(detail::concat(origin, ": a negative shape ", rows, " x ", cols));
  if (cols > 0 && rows > std::numeric_limits<Index>::max() / cols)
    throw InputError(detail::concat(origin, ": an impossible shape ", rows, " x ", cols));
  bool missing = X == nullptr && rows * cols > 0;
  for (const void* pointer : rows_of) missing = missing || (pointer == nullptr && rows > 0);
  if (missing) throw InputError(detail::concat(origin, ": a null pointer for X or a per-row array"));
}

/// The CSV reader's steps after its parse (data/csv_reader.cpp), on a raw in-memory table: missing cells counted
/// (NaN is missing) and refused under rules.refuse_missing, an all-missing column refused, the categorical columns
/// coded and expanded into their indicators. Sets data.X, data.layout and data.missing.
void code_table(const ArraysView& view, const TableRules& rules, Matrix raw, Dataset& data) {
  const std::string& o = view.origin;
  const auto cols = static_cast<std::size_t>(view.cols);
  if (!view.categorical.empty() && view.categorical.size() != cols)
    throw InputError(detail::concat(o, ": ", view.categorical.size(), " categorical flags for ", cols, " columns"));
  if (!view.category_labels.empty() && view.category_labels.size() != cols)
    throw InputError(
        detail::concat(o, ": ", view.category_labels.size(), " category label lists for ", cols, " columns"));
  if (data.feature_names.size() != cols) {  // validate_dataset names the mismatch
    data.X = std::move(raw);
    return;
  }
  data.missing = count_missing(raw);
  if (rules.refuse_missing) refuse_missing(data.missing, data.feature_names, o);
  std::vector<ColumnCoding> codings(cols);
  for (std::size_t j = 0; j < cols; ++j) {
    if (view.rows > 0) refuse_empty_column(data.missing[j], view.rows, data.feature_names[j], o, "drop the column");
    if (view.categorical.empty() || view.categorical[j] == 0) continue;
    const std::vector<std::string> none;
    const auto& labels = view.category_labels.empty() ? none : view.category_labels[j];
    const std::string& name = data.feature_names[j];
    const auto counts = count_codes(raw, static_cast<Index>(j), labels.size(), o, name);
    codings[j] = code_levels(labels, counts, data.missing[j], rules, o, name);
  }
  data.layout = layout_of(codings);
  data.X = expand_columns(std::move(raw), codings, data.layout);
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

TableRules Job::table_rules() const {
  return bfs::table_rules(config_->data);
}

int Job::threads() const {
  const int threads = config_->run.threads;
  return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

Data Data::from(const ArraysView& view, const TableRules& rules) {
  const std::string& o = view.origin;
  check_shape(o, view.rows, view.cols, view.X, {view.y});
  Dataset data;
  data.origin = o;
  Matrix raw(view.rows, view.cols);
  if (view.rows * view.cols > 0)
    std::memcpy(raw.data(), view.X, sizeof(float) * static_cast<std::size_t>(view.rows * view.cols));
  data.y = view.rows > 0 ? Vector(Eigen::Map<const Vector>(view.y, view.rows)) : Vector();
  data.feature_names = view.feature_names.empty() ? default_feature_names(view.cols) : view.feature_names;
  code_table(view, rules, std::move(raw), data);
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
  return Data(std::make_shared<const Dataset>(std::move(dataset)), nullptr);
}

const Dataset& Data::dataset() const {
  if (!data_) throw InternalError("Data::dataset() of a log");
  return *data_;
}

Data Data::from_log(const LogView& view) {
  const std::string& o = view.origin;
  check_shape(o, view.rows, view.cols, view.X, {view.arm, view.reward});
  LoggedHeader header;
  header.origin = o;
  header.rows = view.rows;
  header.cols = view.cols;
  header.feature_names = view.feature_names.empty() ? default_feature_names(view.cols) : view.feature_names;
  header.categorical =
      view.categorical.empty() ? std::vector<std::uint8_t>(static_cast<std::size_t>(view.cols), 0) : view.categorical;
  header.category_labels = view.category_labels.empty()
                               ? std::vector<std::vector<std::string>>(static_cast<std::size_t>(view.cols))
                               : view.category_labels;
  header.arm_labels = view.arm_labels;
  header.arm.assign(view.arm, view.arm + view.rows);
  header.reward = rewards_of(std::vector<double>(view.reward, view.reward + view.rows), o, "reward");
  if (view.truth) {
    header.truth.assign(view.truth->begin(), view.truth->end());
    header.has_truth = true;
  }
  // The log's own layout: column j is the rows values x[j * rows .. (j + 1) * rows).
  std::vector<float> columns(static_cast<std::size_t>(view.rows * view.cols));
  for (std::int64_t i = 0; i < view.rows; ++i)
    for (std::int64_t j = 0; j < view.cols; ++j)
      columns[static_cast<std::size_t>(j * view.rows + i)] = view.X[i * view.cols + j];
  return Data(nullptr, make_logged_memory(std::move(header), std::move(columns)));
}

std::optional<MethodResult> run_on(const Job& job, const Data* data, const RunOptions& options, const Comm& comm,
                                   Executor& executor) {
  const JobConfig& config = job.config();
  const Method& method = methods::find(config.method.name);
  if (data != nullptr) check_attachable(config, *data, comm);
  Context context;
  context.seed = config.run.seed;
  context.threads = options.threads > 0 ? options.threads : job.threads();
  context.log = options.log;  // the methods log only through a logger they are given
  RunControl control;
  control.checkpoint_path = options.checkpoint_path;
  control.checkpoint_every = config.run.checkpoint_every;
  control.resume = options.resume;
  control.stop_requested = options.should_stop;
  const RoundCallback on_round = options.on_progress;
  MethodRun method_run{config, job.text(), context, comm, executor, control, on_round};
  if (data != nullptr) {
    method_run.data = data->shared();
    method_run.logged = data->shared_log();
  }
  // [stability] wraps the method: 2B runs on half-samples and their summary (docs/stability.md).
  std::optional<MethodResult> result =
      config.stability.enabled ? stability::run(method, method_run) : method.run(method_run);
  if (result) result->version = version();
  if (result && result->rows_without_target > 0 && options.log) {
    options.log->info("{}: {} rows without a target (a missing cell in the target column) were dropped",
                      config.data.path.empty() ? result->data_origin : config.data.path, result->rows_without_target);
  }
  return result;
}

MethodResult run(const Job& job, const Data* data, const RunOptions& options) {
  const SoloComm comm;
  LocalExecutor executor(options.threads > 0 ? options.threads : job.threads());
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

#pragma once
// The library API (docs/api.md): what a program calls in-process, and what the command line and the Python front
// end are clients of. A job is parsed and validated once (from TOML text, a file or a JobConfig built in code), data
// may be attached in memory instead of the file [data] names, a run happens in this process on the job's threads
// with optional progress and stop callbacks, and the result is the method-neutral MethodResult, written and read
// back through output/ exactly as the CLI writes and reads it. Plain C++ types only, no MPI: a multi-rank run passes
// the Comm and Executor dist/ builds (run_on), which is how the CLI runs under mpirun.
//
// Errors are the project's exception types (core/error.hpp): ConfigError for a bad job (naming the key),
// InputError for bad data or files (naming the origin, row and column), InternalError for a broken invariant.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "config/job_config.hpp"
#include "data/categorical.hpp"  // TableRules
#include "data/dataset.hpp"
#include "data/logged_data.hpp"
#include "methods/method.hpp"  // RoundReport (the progress record), Comm, Executor
#include "methods/result.hpp"

namespace bfs::api {

/// The library's version (the CLI's --version).
std::string version();

/// A job parsed and validated by the schema (every key's bounds, the cross-key checks, the method's own checks),
/// with its canonical text (every key, in schema order: what result.h5 and run.json store). Immutable.
class Job {
 public:
  /// From TOML text; `overrides` are `section.key=value` strings as `banditfs run --set` takes them; `origin`
  /// names the text in errors. ConfigError naming the key (or the section) on any bad key or value.
  static Job parse(const std::string& toml, const std::vector<std::string>& overrides = {},
                   const std::string& origin = "job");
  /// From a job file (ConfigError naming the file when it cannot be read), as `banditfs run FILE --set ...`.
  static Job load(const std::string& path, const std::vector<std::string>& overrides = {});
  /// From a JobConfig built in code: it goes through the same schema (its canonical text is parsed back, so every
  /// bound and cross-key check applies; errors name the key as for a file). Start from defaults(method).
  static Job from_config(const JobConfig& config);
  /// The defaults of every key for `method` (ConfigError for an unknown method): a JobConfig to edit in code.
  static JobConfig defaults(const std::string& method = "bandit");

  const JobConfig& config() const { return *config_; }
  /// The canonical TOML text.
  const std::string& text() const { return *text_; }
  const std::string& method() const { return config_->method.name; }
  /// run.threads resolved: 0 means every hardware thread.
  int threads() const;
  /// The [data] keys that shape a table's features (data.min_level_count, data.max_levels, data.missing): what
  /// Data::from codes an in-memory table's categorical columns with, as a CSV file of this job is coded.
  TableRules table_rules() const;

 private:
  Job(JobConfig config, std::string text);
  std::shared_ptr<const JobConfig> config_;
  std::shared_ptr<const std::string> text_;
};

/// In-memory (X, y) as the caller holds it: pointers and a shape. Nothing is owned; Data::from copies once.
struct ArraysView {
  const float* X = nullptr;  ///< rows × cols, row-major (C order): X[i * cols + j] is row i, feature j; NaN = missing
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  const double* y = nullptr;               ///< rows values (a binary task: two classes, mapped as a file's are)
  std::vector<std::string> feature_names;  ///< cols names; empty = x1..xp
  /// cols flags (1 = categorical); empty = none. A categorical column of X holds codes 0..L-1 into its
  /// category_labels (NaN = missing) and becomes one feature of L' indicator columns, coded as a CSV text column is
  /// (data/categorical.hpp: levels sorted, rare ones pooled into "other", missing its own level).
  std::vector<std::uint8_t> categorical;
  std::vector<std::vector<std::string>> category_labels;  ///< per column: the labels of its codes (numeric: empty)
  const std::int32_t* periods = nullptr;  ///< optional: a period label per row, sorted (an HDF5 file's /period)
  std::optional<std::vector<std::int32_t>> truth;  ///< optional: the truly relevant features (0-based indices)
  std::string origin = "in-memory data";           ///< names the data in errors and in the result's data_origin
};

/// A contextual-bandit log in memory (what cmab-scores reads; data/logged_data.hpp): per row a context x, the arm
/// served and a 0/1 reward. Pointers and a shape as for ArraysView; Data::from_log copies once.
struct LogView {
  const float* X = nullptr;  ///< rows × cols, row-major; NaN = missing; a categorical column holds codes 0..L-1
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  const std::int32_t* arm = nullptr;                      ///< rows codes into arm_labels
  std::vector<std::string> arm_labels;                    ///< k ≥ 2 distinct labels, each with rows
  const double* reward = nullptr;                         ///< rows values, each 0 or 1
  std::vector<std::string> feature_names;                 ///< cols names; empty = x1..xp
  std::vector<std::uint8_t> categorical;                  ///< cols flags (1 = categorical); empty = none
  std::vector<std::vector<std::string>> category_labels;  ///< optional: per column, the labels of its codes
  std::optional<std::vector<std::int32_t>> truth;         ///< optional: the truly relevant features
  std::string origin = "in-memory log";
};

/// Data attached in memory: validated when made, by the rules and with the messages of the file readers (shape, empty
/// or duplicate names, ±Inf in X (NaN is a missing cell, counted) or NaN/Inf in y naming the row and column, unsorted
/// periods, truth out of range); a binary task's labels are checked when a run opens it, as a file's are. Immutable and
/// shared: copies are cheap, one Data serves any number of runs, and no run copies X except the period it loads (as a
/// file's reader does).
class Data {
 public:
  /// Copies the arrays once (the caller may free them afterwards). InputError naming `view.origin`. The table goes
  /// the CSV reader's way (data/categorical.hpp): missing cells counted, refused under rules.refuse_missing, a column
  /// with every cell missing refused, categorical columns coded with `rules` (Job::table_rules()) and expanded.
  static Data from(const ArraysView& view, const TableRules& rules = {});
  /// Takes a Dataset built in code (validate_dataset's checks apply).
  static Data from_dataset(Dataset dataset);
  /// A log, copied once (X transposed to the log's column blocks), checked as a log file is (check_logged_header,
  /// the rewards 0/1, the values of X). InputError naming `view.origin`.
  static Data from_log(const LogView& view);

  bool is_log() const { return log_ != nullptr; }
  /// The (X, y) data set; InternalError for a log.
  const Dataset& dataset() const;
  std::shared_ptr<const Dataset> shared() const { return data_; }
  std::shared_ptr<const LoggedSource> shared_log() const { return log_; }

 private:
  Data(std::shared_ptr<const Dataset> data, std::shared_ptr<const LoggedSource> log)
      : data_(std::move(data)), log_(std::move(log)) {}
  std::shared_ptr<const Dataset> data_;      ///< (X, y), or null
  std::shared_ptr<const LoggedSource> log_;  ///< a log, or null
};

/// The progress record a method fills after each of its rounds (bandit rounds, forward steps, FUSE iterations).
using Progress = RoundReport;
using ProgressCallback = std::function<void(const Progress&)>;
/// Polled where the methods poll stop requests: at the end of every round. True stops the run there; its result
/// then says so (interrupted(result): stop_reason starts with "interrupted"); the bandit's holds its posteriors so
/// far, FIRST's and FUSE's only the method and the reason.
using StopCallback = std::function<bool()>;

struct RunOptions {
  ProgressCallback on_progress;  ///< called on the thread that called run, after every round; may be empty
  StopCallback should_stop;      ///< may be empty (never stop)
  /// A checkpoint file: written every run.checkpoint_every rounds and when a stop is requested; empty = none.
  std::string checkpoint_path;
  bool resume = false;  ///< continue from checkpoint_path (refused when the job or data differ)
  /// The run's log (the CLI's: stderr and OUT/banditfs.log); null = the run logs nothing.
  std::shared_ptr<spdlog::logger> log;
  /// Threads to run on instead of the job's run.threads; 0 = the job's. A client's cap on a busy machine
  /// (api/cpu_load.hpp: thread_cap); results do not depend on it, and the job (its text) stays as asked.
  int threads = 0;
};

/// Runs `job` in this process on job.threads() threads (or options.threads): on `data` when given, else on the data
/// [data] names. Returns the result (version set); throws ConfigError / InputError before any work on a bad job or
/// data.
MethodResult run(const Job& job, const Data* data = nullptr, const RunOptions& options = {});

/// The same on given runtime pieces: every rank of `comm` calls it (the CLI under mpirun, with dist/'s Comm and
/// Executor); the result on rank 0, nullopt on the others. Attached data runs on one rank only (InputError else).
std::optional<MethodResult> run_on(const Job& job, const Data* data, const RunOptions& options, const Comm& comm,
                                   Executor& executor);

/// Writes result.h5, summary.csv and run.json into directory `dir` (created when needed) as one set, exactly as
/// `banditfs run` does (output/run_directory.hpp: locked while writing, staged, run.json last with the digests).
void write_outputs(const MethodResult& result, const std::string& dir);

/// Reads a result back: `path` is a result.h5 or a run's output directory. Refused (InputError) when the run.json
/// beside it pins another file (a torn output set), as `banditfs inspect` refuses it.
MethodResult read_result(const std::string& path);

/// The default selection threshold of aggregate: a feature selected by at least half of the runs.
constexpr double kAggregateThreshold = 0.5;

/// The summary of R ≥ 2 separate runs of one job that differ only in run.seed (a SLURM array's seed-N/ folders;
/// docs/design.md §4 "Aggregates"): `paths` are result.h5 files or run directories, each read as read_result reads it.
/// The result has the runs' method, feature names and job (the lowest seed's text), importance = the mean importance
/// over the runs, importance_lo/hi = the runs' equal-tailed range at their run.interval (numpy's linear quantiles),
/// selected = the features with selection frequency ≥ `threshold` (in (0, 1]), the summary of the runs in
/// `stability` (in ascending seed order, whatever the order of `paths`), the truth metrics of that selection when the
/// truth is known, and the method's facts that every run has with the same value (no own datasets). InputError naming
/// the file for a missing or unreadable result, fewer than 2 runs, two runs with the same seed, or runs of other
/// methods, features, tasks or jobs (naming each differing key with both values).
MethodResult aggregate(const std::vector<std::string>& paths, double threshold = kAggregateThreshold);

}  // namespace bfs::api

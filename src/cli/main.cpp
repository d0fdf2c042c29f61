// banditfs command line: run a job, simulate a data set, inspect or aggregate results (docs/architecture.md).
// Every failure ends here as one clear line on stderr and a non-zero exit.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <thread>
#include <variant>

#include "api/banditfs.hpp"
#include "api/cpu_load.hpp"
#include "cli/aggregate_command.hpp"
#include "cli/evaluate_command.hpp"
#include "cli/gkx_commands.hpp"
#include "cli/gkx_simulate_command.hpp"
#include "cli/progress.hpp"
#include "cli/wait_policy.hpp"
#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/signals.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/hdf5_io.hpp"
#include "data/logged_data.hpp"
#include "dist/runtime.hpp"
#include "methods/registry.hpp"
#include "output/result_io.hpp"
#include "output/run_directory.hpp"
#include "run/job_identity.hpp"
#include "simulate/cmab_hte.hpp"
#include "simulate/dgp.hpp"
#include "simulate/madelon.hpp"

namespace fs = std::filesystem;
using namespace bfs;

namespace {

struct RunArgs {
  std::string command_line;  ///< the whole command, shell-quoted: the "continue with" line repeats it
  std::string job_path;
  std::vector<std::string> overrides;
  std::string out;
  bool quiet = false;
  bool resume = false;
  bool force = false;
};

/// `text` quoted for a POSIX shell when it holds anything but safe characters.
std::string shell_quoted(const std::string& text) {
  if (!text.empty() &&
      text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
          std::string::npos)
    return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// True when the job file holds nothing but blanks and comments (it would run the built-in defaults).
bool job_file_is_empty(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != '#') return false;
  }
  return true;
}

/// Set by SIGTERM / SIGUSR1 (SLURM's warning signals): the run checkpoints at the end of the current round and
/// exits 0 so the job can be requeued and resumed (docs/design.md §6).
volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int signal) {
  g_stop_signal = signal;
}

/// A checkpoint in the output directory holds an interrupted run's progress: a run without --resume would discard it,
/// so it is refused unless --force says to start over.
void refuse_unclaimed_checkpoint(const RunDirectory& directory, const RunArgs& args) {
  const std::string checkpoint = directory.path("checkpoint.h5");
  std::error_code ec;
  if (args.resume || !fs::exists(checkpoint, ec)) return;
  if (!args.force)
    throw InputError("'" + checkpoint +
                     "' holds an interrupted run's progress; continue it with --resume, or start "
                     "over with --force (which deletes it)");
  fs::remove(checkpoint, ec);
  if (ec) throw InputError("--force: cannot delete '" + checkpoint + "': " + ec.message());
}

/// A result of another job (one whose numbers would differ) in the output directory is not replaced silently: only
/// --force replaces it. The same job again (another thread count, output directory) replaces its own result.
void refuse_replacing_another_job(const RunDirectory& directory, const api::Job& job, const RunArgs& args) {
  if (args.force || args.resume) return;
  std::string differences;
  try {
    const std::string saved_text = directory.result_job_text();
    if (saved_text.empty()) return;
    if (job_hash(api::Job::parse(saved_text, {}, "the saved job").config()) == job_hash(job.config())) return;
    differences = differing_keys(saved_text, job.text(), "result");
  } catch (const Error& e) {
    differences = std::string("its job cannot be read: ") + e.what();
  }
  throw InputError("'" + directory.path("result.h5") + "' holds the result of another job than '" + args.job_path +
                   "' (" + differences + "); replace it with --force, or give this job another --out or run.out");
}

int run_method(const RunArgs& args, const dist::Session& session, const api::Job& job, int threads,
               const std::shared_ptr<spdlog::logger>& log, const RunDirectory* directory);

int command_run(const RunArgs& args, const dist::Session& session) {
  if (args.resume && args.force)
    throw InputError(
        "--resume and --force contradict each other: --resume continues the interrupted run in OUT/checkpoint.h5, "
        "--force deletes that checkpoint and starts over; give one of them");
  std::vector<std::string> overrides = args.overrides;
  if (!args.out.empty()) overrides.push_back("run.out=\"" + args.out + "\"");
  const api::Job job = api::Job::load(args.job_path, overrides);
  // Other work keeping some of this process's CPUs busy: the run takes the free ones (results do not depend on it).
  const int threads = api::thread_cap(job.threads());
  const JobConfig& config = job.config();
  const bool coordinator = session.rank() == 0;  // only rank 0 writes files and logs

  const fs::path out_dir(config.run.out);
  std::shared_ptr<spdlog::logger> log;
  std::unique_ptr<RunDirectory> directory;
  if (coordinator) {
    directory = std::make_unique<RunDirectory>(out_dir.string(), args.job_path);  // refused when another run holds it
    directory->refuse_input_among_outputs(config.data.path, "data.path");
    refuse_unclaimed_checkpoint(*directory, args);
    refuse_replacing_another_job(*directory, job, args);
    log = make_logger("banditfs", directory->path("banditfs.log"));
    log->info("==== banditfs {} run {} -> {} ({} rank{}) ====", api::version(), args.job_path, out_dir.string(),
              session.size(), session.size() > 1 ? "s" : "");
    log->info("command: {}", args.command_line);
    log->info("method {} seed {} threads {}{}", job.method(), config.run.seed, threads,
              threads < job.threads() ? " (of " + std::to_string(job.threads()) + " asked: CPUs busy)" : "");
    log->info("{}", cli::wait_policy_note());
    if (job_file_is_empty(args.job_path))
      log->warn("job file '{}' is empty: running the built-in defaults (method {}, data {} {}, n {}, p {}{})",
                args.job_path, job.method(), name_of(config.data.source), name_of(config.data.dgp), config.data.n,
                config.data.p, args.overrides.empty() ? "" : ", with the --set overrides");
  }
  try {
    return run_method(args, session, job, threads, log, directory.get());
  } catch (const std::exception& e) {
    // The log keeps every error that ends a run. On a terminal the "banditfs: error:" line that follows says it
    // already, so the console sees it once; a redirected stderr (a batch log) keeps the timestamped line too.
    if (log && isatty(STDERR_FILENO))
      log_error_to_file_only(*log, std::string("the run failed: ") + e.what());
    else if (log)
      log->error("the run failed: {}", e.what());
    throw;
  }
}

int run_method(const RunArgs& args, const dist::Session& session, const api::Job& job, int threads,
               const std::shared_ptr<spdlog::logger>& log, const RunDirectory* directory) {
  const bool coordinator = session.rank() == 0;
  const fs::path out_dir(job.config().run.out);
  const std::string checkpoint_path = (out_dir / "checkpoint.h5").string();
  api::RunOptions options;
  options.checkpoint_path = checkpoint_path;
  options.resume = args.resume;
  options.should_stop = [] { return g_stop_signal != 0; };
  options.log = log;
  // Every rank catches the signals (srun delivers them to all tasks); only rank 0 acts, at the end of the round.
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGUSR1, on_stop_signal);

  ProgressPrinter progress(job.config().run.progress_seconds, args.quiet || !coordinator);
  options.on_progress = [&](const api::Progress& r) { progress(r); };
  options.threads = threads;
  const dist::Runtime runtime = dist::make_runtime(session, threads);
  std::optional<MethodResult> outcome = api::run_on(job, nullptr, options, *runtime.comm, *runtime.executor);
  if (!coordinator) return 0;
  MethodResult& result = *outcome;
  progress.finish();
  if (interrupted(result)) {
    log->info("signal {} received: {}; continue with: {}{}", int{g_stop_signal}, result.stop_reason, args.command_line,
              args.resume ? "" : " --resume");
    return 0;
  }

  // The directory is held (locked) for the whole run, so the set is committed through it: api::write_outputs does the
  // same for a program that holds no directory.
  directory->commit(result);
  std::error_code ec;
  fs::remove(checkpoint_path, ec);  // the result supersedes it

  log->info("{} {} in {:.1f}s; stop: {}", result.iterations, result.iteration_unit, result.timing("wall_seconds"),
            result.stop_reason);
  print_inspection(result, std::cout, 10);
  std::cout << "\nresult:  " << (out_dir / "result.h5").string() << "\nsummary: " << (out_dir / "summary.csv").string()
            << "\nreport:  /usr/bin/python3 scripts/report.py " << out_dir.string()
            << "\nplot:    /usr/bin/python3 scripts/plot_trajectories.py " << (out_dir / "result.h5").string() << " "
            << (out_dir / "trajectories.png").string() << "\n";
  return 0;
}

struct SimulateArgs {
  std::string dgp;
  std::int64_t n = 300;
  std::int64_t p = 1000;
  std::uint64_t seed = 1;
  int periods = 1;
  bool binary = false;
  double rho = 0.0;
  std::string out;
  // madelon-like's own options (simulate/madelon.hpp); refused for the other DGPs by cli::check_simulate_options.
  std::int64_t informative = 5;
  std::int64_t redundant = 15;
  double class_sep = 2.0;
  double flip_y = 0.01;
};

/// "x1, x7, x8" for 0-based features.
std::string feature_list(const std::vector<FeatureId>& features) {
  std::string text;
  for (const FeatureId f : features) text += (text.empty() ? "x" : ", x") + std::to_string(f + 1);
  return text;
}

/// --rho and --p against the DGP, as InputErrors naming the option and its value, before anything is written (the
/// library's own checks name the job-file view, data.p). --rho given to a DGP that takes none is refused earlier,
/// by cli::check_simulate_options.
void check_simulate_values(const SimulateArgs& args, Dgp dgp) {
  if (!std::isfinite(args.rho) || args.rho < 0.0 || args.rho >= 1.0)
    throw InputError(detail::concat("simulate ", args.dgp, ": --rho ", args.rho, " must be a finite number in [0, 1)"));
  const std::vector<FeatureId> truth = dgp_truth(dgp);
  const std::int64_t need = truth.back() + 1;
  if (args.p < need) {
    throw InputError(detail::concat("simulate ", args.dgp, ": --p ", args.p, " is below the ", need, " features ",
                                    args.dgp, " needs (its truth is ", feature_list(truth), ")"));
  }
}

/// `simulate DGP` for an (X, y) design of data.dgp.
int command_simulate(const SimulateArgs& args, Dgp dgp) {
  if (args.periods < 1)
    throw ConfigError("simulate: --periods must be at least 1, not " + std::to_string(args.periods));
  check_simulate_values(args, dgp);
  const std::int64_t rows = args.n > std::numeric_limits<std::int64_t>::max() / std::max(args.periods, 1)
                                ? std::numeric_limits<std::int64_t>::max()
                                : args.n * std::max(args.periods, 1);
  // The whole file is simulated at once, and the batches are concatenated: about twice X at the peak.
  check_simulation_fits(rows, 2 * args.p, "--n, --p, --periods");
  SimulateSpec spec{dgp, args.n, args.p, args.seed};
  spec.binary = args.binary;
  spec.rho = args.rho;
  const Dataset data = simulate_dataset(spec, args.periods);
  detail::create_parent_directories(args.out);  // as run does
  write_hdf5(data, args.out);
  std::cout << "wrote " << args.out << ": " << data.rows() << " rows x " << data.cols() << " features (" << args.dgp
            << ", seed " << args.seed << ", " << data.num_periods() << " period(s), "
            << (dgp_uses_rho(dgp) ? detail::concat("rho ", args.rho, ", ") : "") << (args.binary ? "binary y, " : "")
            << "truth " << feature_list(data.truth) << ")\n";
  return 0;
}

/// `simulate cmab-hte`: [CMAB §3.1]'s contextual-bandit log (simulate/cmab_hte.hpp), HDF5 or, for a .csv
/// path, CSV; written column block by column block, staged and renamed.
int command_simulate_cmab_hte(const SimulateArgs& args) {
  if (args.n < 2) throw InputError(detail::concat("simulate cmab-hte: --n ", args.n, " must be at least 2 rows"));
  if (args.p < 10)
    throw InputError(detail::concat("simulate cmab-hte: --p ", args.p,
                                    " is below the 10 features of the design (5 HTE, 2 correlational, 3 irrelevant)"));
  const auto source = simulate_cmab_hte(args.n, args.p, args.seed);
  detail::create_parent_directories(args.out);  // as run does
  const bool csv = fs::path(args.out).extension() == ".csv";
  if (csv)
    write_logged_csv(args.out, *source);
  else
    write_logged_hdf5(args.out, *source);
  std::cout << "wrote " << args.out << ": " << args.n << " logged rows x " << args.p << " features (cmab-hte, seed "
            << args.seed << ", " << source->header().arm_labels.size() << " arms, truth x1..x5, correlational x6, x7"
            << (csv ? ", CSV" : "") << ")\n";
  return 0;
}

/// `simulate madelon-like`: Guyon's NIPS'03 generator as make_classification builds it (simulate/madelon.hpp).
int command_simulate_madelon_like(const SimulateArgs& args) {
  MadelonSpec spec;
  spec.n = args.n;
  spec.p = args.p;
  spec.informative = args.informative;
  spec.redundant = args.redundant;
  spec.class_sep = args.class_sep;
  spec.flip_y = args.flip_y;
  spec.seed = args.seed;
  validate_madelon_spec(spec);
  // X is built unshuffled, then copied shuffled: about twice X at the peak.
  check_simulation_fits(args.n, 2 * args.p, "--n, --p");
  // Each cluster's A is informative × informative doubles (two floats each).
  check_simulation_fits(args.informative, 2 * args.informative, "--informative");
  const Dataset data = simulate_madelon_like(spec);
  detail::create_parent_directories(args.out);  // as run does
  write_hdf5(data, args.out);
  std::cout << "wrote " << args.out << ": " << data.rows() << " rows x " << data.cols()
            << " features (madelon-like, seed " << args.seed << ", " << args.informative << " informative, "
            << args.redundant << " redundant, class_sep " << args.class_sep << ", flip_y " << args.flip_y << ", truth "
            << feature_list(data.truth) << ")\n";
  return 0;
}

/// The `simulate` subcommand: its options fill `args`, gkx-like's own options `gkx_like`.
CLI::App* add_simulate_command(CLI::App& app, SimulateArgs& args, cli::GkxLikeOptions& gkx_like) {
  auto* sim = app.add_subcommand("simulate", "write a simulated data set with known truth to HDF5");
  sim->add_option("dgp", args.dgp,
                  "friedman1 | friedman3 | liang | linear | friedman1-corr | forest | ishigami | heavy-tailed | "
                  "friedman-mod | ishigami-classic | gkx-like (CSVs into --out DIR) | cmab-hte (a contextual-bandit "
                  "log, HDF5 or --out F.csv) | madelon-like (Guyon's NIPS'03 generator, y in {0, 1})")
      ->required();
  sim->add_option("--n", args.n, "rows (per period; default 300; madelon-like: 4400)");
  sim->add_option("--p", args.p, "features (default 1000; ishigami-classic: 3; cmab-hte: 10; madelon-like: 500)");
  sim->add_option("--rho", args.rho,
                  "ishigami, heavy-tailed, friedman-mod: Gaussian-copula correlation, corr(z_j, z_k) = rho^|j-k|, "
                  "in [0, 1) (default 0)");
  sim->add_option("--seed", args.seed, "seed");
  sim->add_option("--periods", args.periods, "fresh batches written as periods");
  sim->add_option("--out", args.out, "output HDF5 file (gkx-like: a directory)")->required();
  sim->add_flag("--binary", args.binary,
                "binary y ~ Bernoulli(Phi((f - mean f) / sd f)) instead of f + noise (paper-002 designs: "
                "Bernoulli(Phi(f)))");
  sim->add_option("--informative", args.informative, "madelon-like: informative features (default 5, at least 5)");
  sim->add_option("--redundant", args.redundant,
                  "madelon-like: redundant features, linear combinations of the informative ones (default 15)");
  sim->add_option("--class-sep", args.class_sep, "madelon-like: half the hypercube's side (default 2)");
  sim->add_option("--flip-y", args.flip_y,
                  "madelon-like: fraction of labels replaced by a random class, in [0, 1] (default 0.01)");
  cli::add_gkx_like_options(*sim, gkx_like);
  return sim;
}

/// The `simulate` subcommand after parsing: its positional parsed once into a SimulateKind, the kind's own defaults
/// of --n and --p, its options checked, and the command of that kind run.
int dispatch_simulate(const CLI::App& sim, SimulateArgs& args, const cli::GkxLikeOptions& gkx_like) {
  const cli::SimulateKind kind = cli::parse_simulate_kind(args.dgp);
  const auto is = [&kind](auto value) { return kind == cli::SimulateKind{value}; };
  if (is(Dgp::IshigamiClassic) && sim.count("--p") == 0) args.p = 3;            // [FIRST §3.3]'s design
  if (is(Dgp::CmabHte) && sim.count("--p") == 0) args.p = 10;                   // [CMAB §3.1]'s design
  if (is(cli::Generator::MadelonLike) && sim.count("--n") == 0) args.n = 4400;  // 2000 + 600 + 1800 rows
  if (is(cli::Generator::MadelonLike) && sim.count("--p") == 0) args.p = 500;
  cli::check_simulate_options(sim, kind);
  if (const auto* generator = std::get_if<cli::Generator>(&kind)) {
    switch (*generator) {
      case cli::Generator::GkxLike:
        return cli::simulate_gkx_like_command(gkx_like, args.seed, args.out);
      case cli::Generator::MadelonLike:
        return command_simulate_madelon_like(args);
    }
  }
  const Dgp dgp = std::get<Dgp>(kind);
  return dgp == Dgp::CmabHte ? command_simulate_cmab_hte(args) : command_simulate(args, dgp);
}

}  // namespace

/// The command line parsed and run; the exit status.
int run_command_line(int argc, char** argv) {
  disable_hdf5_exit_cleanup();
  ignore_file_size_signal();
  CLI::App app{"banditfs: feature importance with combinatorial bandits (Thompson / top-two Thompson sampling)"};
  app.set_version_flag("--version", api::version());
  app.require_subcommand(1);

  RunArgs run_args;
  auto* run = app.add_subcommand("run", "run a job file; writes result.h5, summary.csv, run.json and a log");
  run->add_option("job", run_args.job_path, "job file (TOML)")->required();
  run->add_option("--set", run_args.overrides, "override a key: section.key=value (repeatable)");
  run->add_option("--out", run_args.out, "output directory (overrides run.out)");
  run->add_flag("--quiet", run_args.quiet, "no progress lines");
  run->add_flag("--resume", run_args.resume, "continue from OUT/checkpoint.h5 (refused if the job or data differ)");
  run->add_flag("--force", run_args.force,
                "start over even though OUT/checkpoint.h5 holds an interrupted run (deletes it), or replace "
                "OUT/result.h5 of another job");

  SimulateArgs sim_args;
  bfs::cli::GkxLikeOptions gkx_like;
  auto* sim = add_simulate_command(app, sim_args, gkx_like);

  std::string inspect_path;
  int inspect_top = 25;
  auto* inspect = app.add_subcommand("inspect", "print a result's facts and top features");
  inspect->add_option("result", inspect_path, "result.h5, or the run's output directory")->required();
  inspect->add_option("--top", inspect_top, "number of features to list");

  auto* keys = app.add_subcommand("keys", "list every job-file key with its bounds and meaning");
  // Subcommands that live in files of their own: each registers itself and sets the function that runs it.
  std::vector<std::pair<CLI::App*, std::function<int()>>> others(3);
  others[0].first = bfs::cli::add_prepare_gkx_command(app, others[0].second);
  others[1].first = bfs::cli::add_evaluate_command(app, others[1].second);
  others[2].first = bfs::cli::add_aggregate_command(app, others[2].second);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  std::unique_ptr<dist::Session> session;
  // Reports a failure once and ends the job: under MPI every rank is aborted (never finalize after a failure on one
  // rank, docs/design.md §6). A worker waits a moment first so that an error every rank hits (a bad job file) is
  // printed once, by rank 0, whose abort ends the others.
  auto fail = [&](const char* kind, const char* what, int code) {
    const bool many = session && session->size() > 1;
    if (many && session->rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(2));
    if (many)
      std::fprintf(stderr, "banditfs: %s (rank %d of %d): %s\n", kind, session->rank(), session->size(), what);
    else
      std::fprintf(stderr, "banditfs: %s: %s\n", kind, what);
    std::fflush(stderr);
    if (many) session->abort(code);
    return code;
  };
  try {
    if (*run) {
      for (int i = 0; i < argc; ++i) run_args.command_line += (i ? " " : "") + shell_quoted(argv[i]);
      session = std::make_unique<dist::Session>(argc, argv);
      return command_run(run_args, *session);
    }
    if (*sim) return dispatch_simulate(*sim, sim_args, gkx_like);
    for (const auto& [sub, run_other] : others)
      if (*sub) return run_other();
    if (*inspect) {
      print_inspection(api::read_result(inspect_path), std::cout, inspect_top);  // a directory: its result.h5
      return 0;
    }
    if (*keys) {
      std::cout << describe_keys(methods::catalog());
      return 0;
    }
  } catch (const Error& e) {
    return fail("error", e.what(), 1);
  } catch (const std::exception& e) {
    return fail("unexpected error", e.what(), 2);
  }
  return 0;
}

int main(int argc, char** argv) {
  cli::choose_wait_policy(argc, argv);  // first: it may re-execute the program
  // Setting up the command line can throw too (CLI11's construction errors, std::bad_alloc): nothing escapes main.
  try {
    return run_command_line(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "banditfs: unexpected error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "banditfs: unexpected error\n");
  }
  return 2;
}

#include "cli/aggregate_command.hpp"

#include <filesystem>
#include <iostream>
#include <memory>

#include "api/banditfs.hpp"
#include "core/error.hpp"
#include "output/result_io.hpp"
#include "output/run_directory.hpp"
#include "run/job_identity.hpp"

namespace bfs::cli {
namespace {

namespace fs = std::filesystem;

struct AggregateArgs {
  std::vector<std::string> runs;
  std::string out;
  double threshold = api::kAggregateThreshold;
  bool force = false;
};

bool same_path(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) || fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

/// What --out may hold. A run's checkpoint is never touched. A result is replaced only with --force, or when it is an
/// aggregate of the same job (the aggregation step run again, e.g. after more seeds finished), as `run` replaces only
/// its own job's result.
void check_out(const RunDirectory& directory, const MethodResult& result, const AggregateArgs& args) {
  std::error_code ec;
  const std::string checkpoint = directory.path("checkpoint.h5");
  if (fs::exists(checkpoint, ec))
    throw InputError("aggregate: --out '" + args.out + "' holds an interrupted run's checkpoint '" + checkpoint +
                     "'; choose another --out");
  const std::string existing = directory.path("result.h5");
  if (args.force || !fs::exists(existing, ec)) return;
  std::string why;
  try {
    const MethodResult saved = api::read_result(existing);
    if (saved.stability.empty()) {
      why = "the result of a single run";
    } else {
      why = differing_result_keys(saved.job_text, result.job_text, "saved", "this aggregate", {"run.seed"});
      if (why.empty() && saved.method != result.method) why = "method " + saved.method;
      if (why.empty() && saved.feature_names != result.feature_names) why = "other features";
      if (why.empty()) return;
      why = "an aggregate of another job: " + why;
    }
  } catch (const Error& e) {
    why = std::string("a file that cannot be read: ") + e.what();
  }
  throw InputError("aggregate: '" + existing + "' holds " + why + "; replace it with --force, or choose another --out");
}

int aggregate(const AggregateArgs& args) {
  for (const std::string& run : args.runs)
    if (same_path(run, args.out) || same_path(run, (fs::path(args.out) / "result.h5").string()))
      throw InputError("aggregate: --out '" + args.out + "' is one of the runs aggregated ('" + run +
                       "'); write the aggregate to a directory of its own");
  const MethodResult result = api::aggregate(args.runs, args.threshold);  // everything read and checked first
  const RunDirectory directory(args.out, "(aggregate)");
  check_out(directory, result, args);
  directory.commit(result);
  print_inspection(result, std::cout, 10);
  const fs::path out(args.out);
  std::cout << "\nresult:  " << (out / "result.h5").string() << "\nsummary: " << (out / "summary.csv").string()
            << "\nreport:  /usr/bin/python3 scripts/report.py " << out.string() << "\n";
  return 0;
}

}  // namespace

CLI::App* add_aggregate_command(CLI::App& app, std::function<int()>& run) {
  auto args = std::make_shared<AggregateArgs>();
  auto* sub = app.add_subcommand(
      "aggregate",
      "summarize runs of one job that differ in their seed: selection frequency, importance mean/sd/quantiles, "
      "rank mean/sd; writes result.h5, summary.csv and run.json");
  sub->add_option("runs", args->runs, "the runs' output directories (or their result.h5), at least 2")->required();
  sub->add_option("--out", args->out, "output directory of the aggregate")->required();
  sub->add_option("--threshold", args->threshold,
                  "selected = the features that at least this share of the runs selected, in (0, 1] (default 0.5)");
  sub->add_flag("--force", args->force, "replace OUT/result.h5 even when it is not an aggregate of this job");
  run = [args] { return aggregate(*args); };
  return sub;
}

}  // namespace bfs::cli

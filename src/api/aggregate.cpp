// api::aggregate (banditfs.hpp): R separate runs of one job read back and summarized with run/'s method-neutral
// summary, so `banditfs aggregate` and stability selection share one definition of every column.
#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>
#include <tuple>
#include <variant>

#include "api/banditfs.hpp"
#include "core/error.hpp"
#include "run/job_identity.hpp"
#include "run/stability_summary.hpp"

namespace bfs::api {
namespace {

struct Run {
  std::string file;  ///< the result.h5 read
  MethodResult result;
};

/// `path`'s result.h5 (a directory's, or the file itself), refused when it does not exist.
std::string result_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string file = fs::is_directory(path, ec) ? (fs::path(path) / "result.h5").string() : path;
  if (!fs::is_regular_file(file, ec))
    throw InputError("aggregate: '" + file + "' does not exist" +
                     (fs::exists(path, ec) ? "" : " ('" + path + "' is neither a directory nor a file)") +
                     "; give the output directories of finished runs");
  return file;
}

/// Refuses `run` unless it is the same job on the same features as `first` (seed apart).
void check_same_job(const Run& first, const Run& run) {
  auto refuse = [&](const std::string& what) {
    throw InputError("aggregate: '" + run.file + "' and '" + first.file + "' are not runs of one job: " + what +
                     "; aggregate only runs that differ in run.seed");
  };
  if (run.result.method != first.result.method) refuse("method " + run.result.method + " vs " + first.result.method);
  if (run.result.task != first.result.task) refuse("task " + run.result.task + " vs " + first.result.task);
  if (run.result.feature_names != first.result.feature_names)
    refuse(detail::concat("their features differ (", run.result.feature_names.size(), " vs ",
                          first.result.feature_names.size(), " names, or other names or order)"));
  if (run.result.job_text.empty() || first.result.job_text.empty())
    refuse("'" + (run.result.job_text.empty() ? run.file : first.file) + "' stores no job text");
  const std::string keys =
      differing_result_keys(run.result.job_text, first.result.job_text, run.file, first.file, {"run.seed"});
  if (!keys.empty()) refuse(keys);
  if (run.result.truth != first.result.truth) refuse("their known truths differ");
}

/// The method's facts of its own group (not of a subgroup, whose datasets an aggregate does not have) that every
/// run has with one value: the job-determined ones such as the policy or the estimator.
std::vector<MethodFact> common_facts(const std::vector<Run>& runs) {
  std::vector<MethodFact> out;
  for (const MethodFact& fact : runs.front().result.facts) {
    if (fact.name.find('/') != std::string::npos) continue;
    const bool everywhere = std::all_of(runs.begin(), runs.end(), [&](const Run& run) {
      return std::any_of(run.result.facts.begin(), run.result.facts.end(),
                         [&](const MethodFact& f) { return f.name == fact.name && f.value == fact.value; });
    });
    if (everywhere) out.push_back(fact);
  }
  return out;
}

std::vector<Run> read_runs(const std::vector<std::string>& paths) {
  std::vector<Run> runs;
  for (const std::string& path : paths) {
    const std::string file = result_file(path);
    runs.push_back({file, read_result(file)});
    if (!runs.back().result.stability.empty())
      throw InputError(detail::concat("aggregate: '", file, "' is itself a summary of ",
                                      runs.back().result.stability.runs, " runs; aggregate the runs' own directories"));
  }
  // Ascending seed: the summary (and its floating-point sums) does not depend on the order the runs were given in.
  std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.result.seed < b.result.seed; });
  for (std::size_t i = 1; i < runs.size(); ++i) {
    check_same_job(runs.front(), runs[i]);
    if (runs[i].result.seed == runs[i - 1].result.seed)
      throw InputError(detail::concat("aggregate: '", runs[i - 1].file, "' and '", runs[i].file, "' both have seed ",
                                      runs[i].result.seed, ": the same run twice would count double"));
  }
  return runs;
}

/// "seeds 1, 2, 3" (at most the first 10, then "...").
std::string seed_list(const std::vector<Run>& runs) {
  std::string text = "seeds ";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i == 10) return text + ", ...";
    text += detail::concat(i ? ", " : "", runs[i].result.seed);
  }
  return text;
}

}  // namespace

MethodResult aggregate(const std::vector<std::string>& paths, double threshold) {
  if (!(threshold > 0.0 && threshold <= 1.0))
    throw InputError(detail::concat("aggregate: --threshold ", threshold,
                                    " must be in (0, 1]: the share of runs that must select a feature"));
  if (paths.size() < 2)
    throw InputError(detail::concat("aggregate needs at least 2 runs, got ", paths.size(),
                                    paths.empty() ? "" : " ('" + paths.front() + "')",
                                    ": a frequency and a spread need several seeds"));
  const std::vector<Run> runs = read_runs(paths);
  const MethodResult& first = runs.front().result;
  const double level = Job::parse(first.job_text, {}, runs.front().file + " (its job)").config().run.interval;

  std::vector<RunOutcome> outcomes;
  for (const Run& run : runs) {
    RunOutcome o{run.result.importance, std::vector<std::uint8_t>(first.feature_names.size(), 0), run.result.rank};
    for (FeatureId k : run.result.selected) o.selected[static_cast<std::size_t>(k)] = 1;
    outcomes.push_back(std::move(o));
  }
  MethodResult r;
  r.stability = summarize_runs(outcomes);
  r.stability.threshold = threshold;
  for (const Run& run : runs) {
    r.stability.run_sources.push_back(run.file);
    r.stability.run_seeds.push_back(run.result.seed);
  }
  r.method = first.method;
  r.group = first.group;
  r.version = version();
  r.task = first.task;
  r.data_origin = first.data_origin;
  r.job_text = first.job_text;
  r.seed = first.seed;
  r.iterations = static_cast<std::int32_t>(runs.size());
  r.iteration_unit = "runs aggregated";
  r.stop_reason = detail::concat("aggregate of ", runs.size(), " runs (", seed_list(runs), ")");
  r.importance_meaning = "mean " + first.importance_meaning;
  r.feature_names = first.feature_names;
  r.importance = r.stability.importance_mean;
  rank_by_importance(r);
  r.selected = stable_set(r.stability, threshold);
  r.interval_level = level;
  std::tie(r.importance_lo, r.importance_hi) = importance_range(outcomes, level);
  if (first.metrics.known) {
    r.truth = first.truth;
    r.metrics = truth_metrics(r.selected, r.truth);
  }
  r.facts = common_facts(runs);
  return r;
}

}  // namespace bfs::api

// FUSE ([FUSE Alg. 1]) as a method, for binary targets: a Monte-Carlo tree search over feature
// subsets whose reward is the leave-one-out kNN AUC of the final set (eqs. 10–11). A round makes B = method.batch
// descents on every rank, identically (each from the stream (seed, iteration, search, Search)); pending descents
// count as virtual visits; the B rewards go through the Executor (each its own validation subsample from (seed,
// iteration, search, Subsample)); every rank backs them up in slot order. So result.h5 is the same at any rank and
// thread count for a given B. B = 1 is the paper's sequential algorithm.
//
// R = method.searches independent searches share the iterations, one after another (searches.hpp; R = 2 by default
// under select = "shadow", else 1). Results (§6.3): importance = g-RAVE (eq. 6; 0 for a feature in no final set),
// the mean over the searches; rank = FUSE^R's ranking of it; selected = the features whose g-RAVE beats their
// search's shadows in every search (select = "shadow", the default: shadows.hpp), the top `top` (select = "rave") or
// the most-visited path (select = "path", one search). Own datasets (group /fuse): grave_count [p] (over every
// search), on_path [p] (summary.csv columns), path, path_visits, path_mean (search 0's path), stop_grave [p + 1], per
// iteration reward and final_size (search 0's iterations, then search 1's, ...), and with R > 1 search_grave [R × p]
// and search_threshold [R]. With shadows a search runs over p + S features, but every output is of the data's p: the
// path stops before its first shadow, final_size counts the data's features of each final set, stop_grave keeps the
// levels 0..p, and the shadows' g-RAVE appear only as thresholds (one search: the fact shadow_threshold, /fuse's
// attribute; R searches: search_threshold).
//
// Checkpoints (fuse_checkpoint.hpp): rank 0 writes the rewards so far every run.checkpoint_every rounds and on a stop
// signal; --resume replays the done rounds with them.
//
// A feature is a feature of the data: a categorical one is all its indicator columns, one node of the tree, one row
// of every output (reward.hpp). A missing numeric cell is its column's mean over the rows L
// (methods/common/column_major.hpp): the kNN reward needs a value in every distance, and the mean of L uses no row
// outside it; data.missing = "error" refuses missing cells instead. The count is the fact `imputed`.
//
// The learner that judges its rankings is `banditfs evaluate` with the svm estimator (cli/, estimators/).
#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/byte_codec.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "methods/common/shadow_rule.hpp"
#include "methods/common/top_k.hpp"
#include "methods/fuse/fuse_checkpoint.hpp"
#include "methods/fuse/fuse_params.hpp"
#include "methods/fuse/reward.hpp"
#include "methods/fuse/searches.hpp"
#include "methods/fuse/selection.hpp"
#include "methods/fuse/shadows.hpp"
#include "methods/fuse/tree.hpp"
#include "methods/method.hpp"
#include "run/data_sources.hpp"
#include "run/job_identity.hpp"
#include "run/source_info.hpp"

namespace bfs {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::int32_t kRandSubsetSize = 20;  // RAND^R's uniform subsets (§7.2, Fig. 3)

fuse::TrainingSet training_set(const Dataset& data, bool standardize) {
  fuse::TrainingSet set{methods::column_major(data), {}};
  set.labels.resize(set.rows);
  for (std::size_t r = 0; r < set.rows; ++r) set.labels[r] = data.y(static_cast<Index>(r)) > 0.5 ? 1 : 0;
  if (standardize) methods::standardise(set);
  return set;
}

/// k and the subsample against the rows, top (when it selects) against the features: InputErrors naming the key.
void check_sizes(const fuse::FuseParams& params, const fuse::TrainingSet& set, Index features,
                 const std::string& origin) {
  if (params.select == fuse::Select::rave) methods::check_top_k("top", params.top, features, origin);
  if (static_cast<std::size_t>(params.k) >= set.rows)
    throw InputError("method.k = " + std::to_string(params.k) + " needs more training rows than the " +
                     std::to_string(set.rows) + " of " + origin);
  if (static_cast<std::size_t>(params.reward_subsample) > set.rows)
    throw InputError("method.reward_subsample = " + std::to_string(params.reward_subsample) + " is more than the " +
                     std::to_string(set.rows) + " rows of " + origin);
}

/// What the search leaves: the tree and each iteration's reward and final-set size; `interrupted` when a stop
/// request ended it after `reward.size()` iterations (their rewards are in the checkpoint).
/// After `done` of `total` iterations: the last reward (the AUC of the last descent's feature set, eq. 9) and that
/// set's size. The selection (top g-RAVE or the most visited path) is made once the search is done: no selected count.
RoundReport progress(std::uint64_t done, std::uint64_t total, double reward, std::size_t set_size) {
  RoundReport report;  // field by field: GCC 12 warns on designated initializers that leave members defaulted
  report.round = static_cast<std::int32_t>(done);
  report.total_rounds = static_cast<std::int32_t>(total);
  report.label = "auc";
  report.value = reward;
  report.set_size = set_size;
  return report;
}

/// The rewards and final-set sizes of every search, one search after another; `interrupted` when a stop request
/// ended the run after `reward.size()` iterations (their rewards are in the checkpoint).
struct SearchOutcome {
  std::vector<double> reward;
  std::vector<std::int32_t> final_size;
  bool interrupted = false;
};

/// One search of a run's R (searches.hpp): which, its iterations, and the rewards and rounds of the searches before.
struct SearchSlice {
  std::uint64_t index = 0;
  std::uint64_t iterations = 0;
  std::uint64_t first_iteration = 0;
  std::int64_t first_round = 0;
  bool last = true;
};

/// What a finished search leaves for the result (its tree is dropped before the next one is built).
struct SearchSummary {
  std::vector<double> grave;        ///< g-RAVE (eq. 6) of the search's p + S features, 0 for one in no final set
  std::vector<std::int64_t> count;  ///< the final sets holding each
  std::vector<double> stop_sum;     ///< eq. 8's sums and counts per level
  std::vector<std::int64_t> stop_count;
  std::vector<fuse::PathStep> path;  ///< the most-visited path up to its first shadow
  std::int64_t nodes = 0;
};

/// The rewards of the iterations to replay: empty, or on --resume the checkpoint's (read and checked by rank 0, the
/// same on every rank).
std::vector<double> replay_rewards(const methods::Checkpointing& checkpointing, std::uint64_t total,
                                   std::uint64_t searches, std::uint64_t batch) {
  const auto bytes = checkpointing.resume(fuse::read_fuse_checkpoint, [&](const fuse::FuseCheckpoint& saved) {
    const std::uint64_t done = saved.reward.size();
    if (!fuse::ends_whole_round(done, total, searches, batch))
      throw InputError(checkpointing.path() + " holds " + std::to_string(done) +
                       " iterations, not whole rounds of method.batch = " + std::to_string(batch) +
                       " within method.iterations = " + std::to_string(total) + " shared by " +
                       std::to_string(searches) + " search(es)");
    checkpointing.log_resume("iteration " + std::to_string(done));
    ByteWriter w;
    w.put_vector(saved.reward);
    return w.take();
  });
  if (!bytes) return {};
  ByteReader r(*bytes, "FUSE checkpoint rewards");  // views the bytes: they outlive it
  std::vector<double> rewards = r.get_vector<double>();
  r.finish();
  return rewards;
}

/// The data's features in a final set (the search's features from p on are shadows).
std::size_t real_size(const std::vector<std::int32_t>& features, std::int32_t p) {
  return static_cast<std::size_t>(
      std::count_if(features.begin(), features.end(), [p](std::int32_t f) { return f < p; }));
}

/// The descents of one round of search `slice.index`, from the streams (seed, iteration within the search, search,
/// Search); the tree's pending visits are added.
std::vector<fuse::Descent> descend_round(const fuse::SearchSettings& settings, const SearchSlice& slice,
                                         std::uint64_t first, std::uint64_t count, std::uint64_t seed, std::int32_t p,
                                         fuse::Tree& tree) {
  std::vector<fuse::Descent> descents;
  for (std::uint64_t slot = 0; slot < count; ++slot) {
    Rng rng = Rng::stream(seed, first + slot, slice.index, Purpose::Search);
    fuse::Descent descent;
    if (settings.heuristic == fuse::Heuristic::rand) {
      descent.features = fuse::uniform_subset(p, kRandSubsetSize, rng);
    } else {
      descent = fuse::descend(tree, settings, rng);
      tree.add_pending(descent);
    }
    descents.push_back(std::move(descent));
  }
  return descents;
}

/// Search `slice` over the reward's features, of which the first `real` are the data's (the rest shadows); appends
/// its rewards to `out`. Returns true when a stop request ended the run.
bool search(const MethodRun& run, const fuse::FuseParams& params, const fuse::KnnReward& reward, std::int32_t real,
            const SearchSlice& slice, std::span<const double> replay, fuse::Tree& tree,
            const methods::Checkpointing& checkpointing, SearchOutcome& out) {
  const fuse::SearchSettings settings = fuse::search_settings(params);
  const auto total = static_cast<std::uint64_t>(params.iterations);
  const auto batch = static_cast<std::uint64_t>(params.batch);
  const std::uint64_t seed = run.context.seed;
  for (std::uint64_t first = 0; first < slice.iterations; first += batch) {
    const std::uint64_t count = std::min(batch, slice.iterations - first);
    const std::uint64_t done = slice.first_iteration + first;  // iterations of every search before this round
    const std::vector<fuse::Descent> descents =
        descend_round(settings, slice, first, count, seed, reward.features(), tree);
    const bool replayed = done + count <= replay.size();  // a resumed run's done round: its rewards are known
    std::vector<std::vector<double>> values;
    if (replayed) {
      for (std::uint64_t slot = 0; slot < count; ++slot) values.push_back({replay[done + slot]});
    } else {
      values = run.executor.map(count, [&](std::size_t slot) {
        Rng rng = Rng::stream(seed, first + slot, slice.index, Purpose::Subsample);
        const auto validation =
            fuse::stratified_subsample(reward.data().labels, static_cast<std::size_t>(params.reward_subsample), rng);
        return std::vector<double>{reward.value(descents[slot].features, validation)};
      });
    }
    for (std::uint64_t slot = 0; slot < count; ++slot) {
      const fuse::Descent& descent = descents[slot];
      const double v = values[slot][0];
      if (settings.heuristic == fuse::Heuristic::rand) {
        tree.record_final(descent.features, v);
      } else {
        tree.remove_pending(descent);
        tree.backup(descent, v);
      }
      out.reward.push_back(v);
      out.final_size.push_back(static_cast<std::int32_t>(real_size(descent.features, real)));
    }
    if (replayed) continue;
    if (run.on_round && run.comm.rank() == 0)
      run.on_round(progress(done + count, total, values.back()[0], real_size(descents.back().features, real)));
    const auto round = slice.first_round + static_cast<std::int64_t>(first / batch + 1);
    const bool last_round = slice.last && first + count == slice.iterations;
    if (!last_round && checkpointing.stop_after(round, [&] {
          fuse::write_fuse_checkpoint(checkpointing.path(), {checkpointing.key(), out.reward});
        }))
      return true;
  }
  return false;
}

/// g-RAVE (eq. 6) of each of the search's features (0 for one in no final set), and what else the result needs.
SearchSummary summarise(const fuse::Tree& tree, std::int32_t real) {
  SearchSummary s;
  s.grave.assign(static_cast<std::size_t>(tree.features()), 0.0);
  for (std::size_t f = 0; f < s.grave.size(); ++f)
    if (tree.grave_counts()[f] > 0) s.grave[f] = tree.grave_sums()[f] / static_cast<double>(tree.grave_counts()[f]);
  s.count = tree.grave_counts();
  s.stop_sum = tree.stop_sums();
  s.stop_count = tree.stop_counts();
  s.path = fuse::path_before_shadows(fuse::most_visited_path(tree), real);
  s.nodes = static_cast<std::int64_t>(tree.size());
  return s;
}

/// The R searches one after another (searches.hpp), search c over the data's features and, under select =
/// "shadow", its own shadows: copies c·k, …, c·k + k − 1 of the features with shadows.
std::vector<SearchSummary> run_searches(const MethodRun& run, const fuse::FuseParams& params, const Dataset& data,
                                        const fuse::TrainingSet& set, const std::string& origin,
                                        const methods::Checkpointing& checkpointing, SearchOutcome& out) {
  const auto searches = static_cast<std::uint64_t>(fuse::search_count(params));
  const auto total = static_cast<std::uint64_t>(params.iterations);
  const auto batch = static_cast<std::uint64_t>(params.batch);
  const auto real = static_cast<std::int32_t>(data.features());
  const std::vector<double> replay = replay_rewards(checkpointing, total, searches, batch);
  std::vector<FeatureId> sources;
  if (params.select == fuse::Select::shadow)
    sources = methods::shadow_sources(data.features(), methods::shadow_count(params.shadows, data.features(), origin),
                                      run.context.seed);
  std::vector<SearchSummary> summaries;
  SearchSlice slice;
  for (slice.index = 0; slice.index < searches; ++slice.index) {
    slice.iterations = fuse::search_iterations(total, searches, slice.index);
    slice.last = slice.index + 1 == searches;
    fuse::TrainingSet search_set = set;
    FeatureLayout layout = data.layout;
    fuse::append_shadows(search_set, layout, sources, run.context.seed, params.shadow_copies,
                         static_cast<std::int64_t>(slice.index) * params.shadow_copies);
    const fuse::KnnReward reward(std::move(search_set), params.k, std::move(layout));
    fuse::Tree tree(reward.features());
    if (search(run, params, reward, real, slice, replay, tree, checkpointing, out)) {
      out.interrupted = true;
      return summaries;
    }
    summaries.push_back(summarise(tree, real));
    slice.first_iteration += slice.iterations;
    slice.first_round += static_cast<std::int64_t>((slice.iterations + batch - 1) / batch);
  }
  return summaries;
}

/// The shadow rule of every search: its threshold on its shadows' g-RAVE (the features from p on).
std::vector<methods::ShadowThreshold> search_thresholds(const fuse::FuseParams& params,
                                                        const std::vector<SearchSummary>& searches, std::size_t p) {
  std::vector<methods::ShadowThreshold> thresholds;
  thresholds.reserve(searches.size());
  for (const SearchSummary& s : searches)
    thresholds.push_back(methods::shadow_rule(std::span<const double>(s.grave).subspan(p), static_cast<std::int64_t>(p),
                                              params.shadow_quantile, params.shadow_max_false));
  return thresholds;
}

/// The selected set of `params.select` (ascending): above the shadows in every search, the top of the ranking or
/// the path.
std::vector<FeatureId> select_features(const fuse::FuseParams& params, const std::vector<SearchSummary>& searches,
                                       const std::vector<std::vector<double>>& graves,
                                       const std::vector<methods::ShadowThreshold>& thresholds, std::size_t p,
                                       const std::vector<std::int32_t>& ranking,
                                       const std::vector<std::int64_t>& count) {
  std::vector<FeatureId> selected;
  if (params.select == fuse::Select::shadow) {
    std::vector<double> values;
    values.reserve(thresholds.size());
    for (const auto& t : thresholds) values.push_back(t.value);
    selected = fuse::above_in_every_search(graves, values, p);
  } else if (params.select == fuse::Select::path) {
    for (const fuse::PathStep& step : searches.front().path) selected.push_back(step.feature);
  } else {
    for (std::size_t i = 0; i < ranking.size() && selected.size() < static_cast<std::size_t>(params.top); ++i)
      if (count[static_cast<std::size_t>(ranking[i])] > 0) selected.push_back(ranking[i]);
  }
  std::sort(selected.begin(), selected.end());
  return selected;
}

/// The run's facts of the selection; with shadows, what the rule selected (also logged by rank 0). With R > 1
/// searches each has its own threshold (the dataset search_threshold), so there is no single shadow_threshold; the
/// bound is the smallest of the searches' (a feature selected passes every search's rule).
void add_selection_facts(const MethodRun& run, const fuse::FuseParams& params, std::size_t p, std::size_t shadows,
                         const std::vector<methods::ShadowThreshold>& thresholds, MethodResult& r) {
  r.facts.push_back({"select", std::string(name_of(params.select))});
  r.facts.push_back({"searches", static_cast<std::int64_t>(fuse::search_count(params))});
  if (params.select != fuse::Select::shadow) return;
  methods::ShadowThreshold rule = thresholds.front();
  for (const auto& t : thresholds) rule.false_bound = std::min(rule.false_bound, t.false_bound);
  const auto s = static_cast<std::int64_t>(shadows);
  const bool one = thresholds.size() == 1;
  methods::add_shadow_facts(r.facts, rule, s, params.shadow_copies, params.shadow_quantile, params.shadow_max_false,
                            one);
  if (!run.context.log || run.comm.rank() != 0) return;
  const std::string which = methods::describe_shadow_threshold(rule, s, params.shadow_quantile);
  if (one)
    run.context.log->info(
        "select = \"shadow\": {} of {} features have a g-RAVE above {:.6g}, {} g-RAVE (false selections expected: "
        "at most {:.3g})",
        r.selected.size(), p, rule.value, which, rule.false_bound);
  else
    run.context.log->info(
        "select = \"shadow\": {} of {} features have a g-RAVE above {} g-RAVE in each of {} searches (false "
        "selections expected: at most {:.3g})",
        r.selected.size(), p, which, thresholds.size(), rule.false_bound);
}

/// The own datasets of the path (search 0's most-visited path), and each feature's place on it.
void add_path_datasets(const std::vector<fuse::PathStep>& path, std::size_t p, MethodResult& r) {
  std::vector<std::int32_t> path_feature, on_path(p, 0);
  std::vector<std::int64_t> path_visits;
  std::vector<double> path_mean;
  for (const fuse::PathStep& step : path) {
    path_feature.push_back(step.feature);
    path_visits.push_back(step.visits);
    path_mean.push_back(step.mean);
    on_path[static_cast<std::size_t>(step.feature)] = 1;
  }
  r.datasets.push_back({"on_path", std::move(on_path), {}});
  r.datasets.push_back({"path", std::move(path_feature), {}});
  r.datasets.push_back({"path_visits", std::move(path_visits), {}});
  r.datasets.push_back({"path_mean", std::move(path_mean), {}});
}

/// eq. 8's stopping g-RAVE per level 0..p over every search's final sets (with shadows the sets can be larger).
std::vector<double> stop_grave_of(const std::vector<SearchSummary>& searches, std::size_t p) {
  std::vector<double> stop_grave(p + 1, 0.0);
  for (std::size_t d = 0; d < stop_grave.size(); ++d) {
    double sum = 0.0;
    std::int64_t count = 0;
    for (const SearchSummary& s : searches) {
      sum += s.stop_sum[d];
      count += s.stop_count[d];
    }
    if (count > 0) stop_grave[d] = sum / static_cast<double>(count);
  }
  return stop_grave;
}

/// With R > 1 searches: each one's g-RAVE of the data's features [R × p] and, under select = "shadow", threshold [R].
void add_search_datasets(const std::vector<SearchSummary>& searches,
                         const std::vector<methods::ShadowThreshold>& thresholds, std::size_t p, MethodResult& r) {
  if (searches.size() == 1) return;
  std::vector<double> grave;
  for (const SearchSummary& s : searches) grave.insert(grave.end(), s.grave.begin(), s.grave.begin() + p);
  r.datasets.push_back({"search_grave", std::move(grave), {searches.size(), p}});
  if (thresholds.empty()) return;
  std::vector<double> values;
  values.reserve(thresholds.size());
  for (const auto& t : thresholds) values.push_back(t.value);
  r.datasets.push_back({"search_threshold", std::move(values), {}});
}

MethodResult make_result(const MethodRun& run, const Dataset& data, const fuse::FuseParams& params,
                         const std::vector<SearchSummary>& searches, SearchOutcome outcome) {
  const std::size_t p = data.feature_names.size();
  MethodResult r = result_of(run, "fuse", data);
  r.iterations = static_cast<std::int32_t>(std::min<std::int64_t>(params.iterations, INT32_MAX));
  r.stop_reason = "iterations done";
  r.importance_meaning = "g-RAVE";
  r.feature_names = data.feature_names;
  std::vector<std::vector<double>> graves;
  std::vector<std::int64_t> grave_count(p, 0);
  std::int64_t nodes = 0;
  for (const SearchSummary& s : searches) {
    graves.push_back(s.grave);
    for (std::size_t f = 0; f < p; ++f) grave_count[f] += s.count[f];
    nodes += s.nodes;
  }
  r.importance = fuse::mean_over_searches(graves, p);
  const std::vector<std::int32_t> ranking = fuse::grave_ranking(r.importance, grave_count);
  r.rank.assign(p, 0);
  for (std::size_t i = 0; i < ranking.size(); ++i)
    r.rank[static_cast<std::size_t>(ranking[i])] = static_cast<std::int32_t>(i + 1);
  std::vector<methods::ShadowThreshold> thresholds;
  if (params.select == fuse::Select::shadow) thresholds = search_thresholds(params, searches, p);
  r.selected = select_features(params, searches, graves, thresholds, p, ranking, grave_count);
  if (data.has_truth) {
    r.truth = data.truth;
    r.metrics = truth_metrics(r.selected, r.truth);
  }
  r.datasets.push_back({"grave_count", grave_count, {}});
  add_path_datasets(searches.front().path, p, r);
  r.datasets.push_back({"stop_grave", stop_grave_of(searches, p), {}});
  r.datasets.push_back({"reward", std::move(outcome.reward), {}});
  r.datasets.push_back({"final_size", std::move(outcome.final_size), {}});
  add_search_datasets(searches, thresholds, p, r);
  r.feature_columns = {"grave_count", "on_path"};
  r.facts.push_back({"heuristic", std::string(name_of(params.heuristic))});
  add_selection_facts(run, params, p, searches.front().grave.size() - p, thresholds, r);
  r.facts.push_back({"batch", params.batch});
  r.facts.push_back({"k", std::int64_t{params.k}});
  r.facts.push_back({"tree_nodes", nodes});
  return r;
}

class FuseMethod final : public Method {
 public:
  MethodDescription describe() const override {
    MethodDescription description;
    description.name = "fuse";
    description.make_params = [] { return std::make_unique<fuse::FuseParams>(); };
    description.uses_estimator = false;
    description.binary_only = true;
    return description;
  }

  void validate(const JobConfig& job) const override {
    const auto* params = job.method.params.as<fuse::FuseParams>();
    if (params == nullptr)
      throw ConfigError("method.name = \"fuse\" without its parameters (parse the job with methods::catalog())");
    methods::check_shadow_keys(params->shadow_quantile, params->shadow_max_false);
    if (job.data.task != Task::Binary)
      throw ConfigError("data.task = \"" + std::string(name_of(job.data.task)) +
                        "\": method fuse needs a binary target (data.task = \"binary\"; paper 001's reward is an AUC)");
    if (job.data.periods != 1)
      throw ConfigError("data.periods = " + std::to_string(job.data.periods) + ": fuse reads one data set");
    const std::int64_t searches = fuse::search_count(*params);
    if (searches > 1 && params->select == fuse::Select::path)
      throw ConfigError("method.searches = " + std::to_string(searches) +
                        " with select = \"path\": the path is one search's (set searches = 1)");
    if (searches > params->iterations)
      throw ConfigError("method.iterations = " + std::to_string(params->iterations) + " is fewer than the " +
                        std::to_string(searches) + " searches that share them (method.searches)");
  }

  std::optional<MethodResult> run(const MethodRun& run) const override {
    const auto start = Clock::now();
    const auto& params = *run.job.method.params.as<fuse::FuseParams>();
    auto source = make_data_source(run.job.data, run.context.seed, /*online=*/false, run.data);
    const Dataset data = source->load_period(0);
    fuse::TrainingSet set = training_set(data, params.standardize);
    const std::size_t imputed = set.imputed;
    if (imputed > 0 && run.context.log && run.comm.rank() == 0)
      run.context.log->info("{} missing cell(s) of {} filled with their column's mean", imputed, source->describe());
    check_sizes(params, set, data.features(), source->describe());
    const methods::Checkpointing checkpointing(run, describe_source(*source, /*online=*/false).fingerprint);
    const auto search_start = Clock::now();
    SearchOutcome outcome;
    const std::vector<SearchSummary> searches =
        run_searches(run, params, data, set, source->describe(), checkpointing, outcome);
    const double search_seconds = std::chrono::duration<double>(Clock::now() - search_start).count();
    if (run.comm.rank() != 0) return std::nullopt;
    if (outcome.interrupted) {
      MethodResult stopped;
      stopped.method = "fuse";
      stopped.stop_reason =
          "interrupted after iteration " + std::to_string(outcome.reward.size()) +
          (run.control.checkpoint_path.empty() ? "" : " (checkpoint " + run.control.checkpoint_path + ")");
      return stopped;
    }
    const std::size_t iterations = outcome.reward.size();
    const double last_reward = outcome.reward.empty() ? 0.0 : outcome.reward.back();
    const std::size_t last_size = outcome.final_size.empty() ? 0 : static_cast<std::size_t>(outcome.final_size.back());
    MethodResult result = make_result(run, data, params, searches, std::move(outcome));
    if (imputed > 0) result.facts.push_back({"imputed", static_cast<std::int64_t>(imputed)});
    // search_seconds: the descents and rewards alone, without loading and standardising (scripts/bench/fuse_speed.sh).
    result.timings = {{"wall_seconds", std::chrono::duration<double>(Clock::now() - start).count()},
                      {"search_seconds", search_seconds}};
    report_final(run, progress(iterations, iterations, last_reward, last_size), result);
    return result;
  }
};

}  // namespace

std::unique_ptr<Method> make_fuse_method() {
  return std::make_unique<FuseMethod>();
}

}  // namespace bfs

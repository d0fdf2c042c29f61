// FUSE ([FUSE Alg. 1]) as a method, for binary targets: a Monte-Carlo tree search over feature
// subsets whose reward is the leave-one-out kNN AUC of the final set (eqs. 10–11). A round makes B = method.batch
// descents on every rank, identically (each from the stream (seed, iteration, slot 0, Search)); pending descents
// count as virtual visits; the B rewards go through the Executor (each its own validation subsample from (seed,
// iteration, 0, Subsample)); every rank backs them up in slot order. So result.h5 is the same at any rank and thread
// count for a given B. B = 1 is the paper's sequential algorithm.
//
// Results (§6.3): importance = g-RAVE (eq. 6; 0 for a feature in no final set), rank = FUSE^R's ranking; selected =
// the features whose g-RAVE beats the shadows' (select = "shadow", the default: shadows.hpp), its top `top`
// (select = "rave") or the most-visited path (select = "path"). Own datasets (group /fuse): grave_count [p], on_path
// [p] (summary.csv columns), path, path_visits, path_mean, stop_grave [p + 1], and per iteration reward and
// final_size. With shadows the search runs over p + S features, but every output is of the data's p: the path stops
// before its first shadow, final_size counts the data's features of each final set, stop_grave keeps the levels
// 0..p, and the shadows' g-RAVE appear only as their threshold (the fact shadow_threshold, /fuse's attribute).
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

struct SearchOutcome {
  std::vector<double> reward;
  std::vector<std::int32_t> final_size;
  bool interrupted = false;
};

/// The rewards of the rounds to replay: empty, or on --resume the checkpoint's (read and checked by rank 0, the same
/// on every rank).
std::vector<double> replay_rewards(const methods::Checkpointing& checkpointing, std::uint64_t total,
                                   std::uint64_t batch) {
  const auto bytes = checkpointing.resume(fuse::read_fuse_checkpoint, [&](const fuse::FuseCheckpoint& saved) {
    const std::uint64_t done = saved.reward.size();
    if (done > total || (done % batch != 0 && done != total))
      throw InputError(checkpointing.path() + " holds " + std::to_string(done) +
                       " iterations, not whole rounds of method.batch = " + std::to_string(batch) +
                       " within method.iterations = " + std::to_string(total));
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

/// The search over the reward's features, of which the first `real` are the data's (the rest shadows).
SearchOutcome search(const MethodRun& run, const fuse::FuseParams& params, const fuse::KnnReward& reward,
                     std::int32_t real, fuse::Tree& tree, const methods::Checkpointing& checkpointing) {
  const fuse::SearchSettings settings = fuse::search_settings(params);
  const auto total = static_cast<std::uint64_t>(params.iterations);
  const auto batch = static_cast<std::uint64_t>(params.batch);
  const std::int32_t p = reward.features();
  const std::uint64_t seed = run.context.seed;
  SearchOutcome out;
  const std::vector<double> replay = replay_rewards(checkpointing, total, batch);
  std::vector<fuse::Descent> descents;
  for (std::uint64_t first = 0; first < total; first += batch) {
    const std::uint64_t count = std::min(batch, total - first);
    descents.clear();
    for (std::uint64_t slot = 0; slot < count; ++slot) {
      Rng rng = Rng::stream(seed, first + slot, 0, Purpose::Search);
      fuse::Descent descent;
      if (settings.heuristic == fuse::Heuristic::rand) {
        descent.features = fuse::uniform_subset(p, kRandSubsetSize, rng);
      } else {
        descent = fuse::descend(tree, settings, rng);
        tree.add_pending(descent);
      }
      descents.push_back(std::move(descent));
    }
    const bool replayed = first + count <= replay.size();  // a resumed run's done round: its rewards are known
    std::vector<std::vector<double>> values;
    if (replayed) {
      for (std::uint64_t slot = 0; slot < count; ++slot) values.push_back({replay[first + slot]});
    } else {
      values = run.executor.map(count, [&](std::size_t slot) {
        Rng rng = Rng::stream(seed, first + slot, 0, Purpose::Subsample);
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
    if (run.on_round && run.comm.rank() == 0) {
      run.on_round(progress(first + count, total, values.back()[0], real_size(descents.back().features, real)));
    }
    const auto round = static_cast<std::int64_t>(first / batch + 1);
    if (first + count < total && checkpointing.stop_after(round, [&] {
          fuse::write_fuse_checkpoint(checkpointing.path(), {checkpointing.key(), out.reward});
        })) {
      out.interrupted = true;
      return out;
    }
  }
  return out;
}

/// g-RAVE (eq. 6) of each of the search's features (0 for one in no final set).
std::vector<double> grave_of(const fuse::Tree& tree) {
  std::vector<double> grave(static_cast<std::size_t>(tree.features()), 0.0);
  for (std::size_t f = 0; f < grave.size(); ++f)
    if (tree.grave_counts()[f] > 0) grave[f] = tree.grave_sums()[f] / static_cast<double>(tree.grave_counts()[f]);
  return grave;
}

/// The selected set of `params.select` (ascending) from g-RAVE over the search's features (the data's p first, the
/// shadows after), the ranking of the data's features and the path; sets `threshold` for select = "shadow".
std::vector<FeatureId> select_features(const fuse::FuseParams& params, std::span<const double> grave, std::size_t p,
                                       const std::vector<std::int32_t>& ranking, const std::vector<std::int64_t>& count,
                                       const std::vector<std::int32_t>& path, methods::ShadowThreshold& threshold) {
  std::vector<FeatureId> selected;
  if (params.select == fuse::Select::shadow) {
    threshold = methods::shadow_rule(grave.subspan(p), static_cast<std::int64_t>(p), params.shadow_quantile,
                                     params.shadow_max_false);
    selected = methods::select_above(grave.first(p), threshold.value);
  } else if (params.select == fuse::Select::path) {
    selected.assign(path.begin(), path.end());
  } else {
    for (std::size_t i = 0; i < ranking.size() && selected.size() < static_cast<std::size_t>(params.top); ++i)
      if (count[static_cast<std::size_t>(ranking[i])] > 0) selected.push_back(ranking[i]);
  }
  std::sort(selected.begin(), selected.end());
  return selected;
}

/// The run's facts of the selection; with shadows, what the rule selected (also logged by rank 0).
void add_selection_facts(const MethodRun& run, const fuse::FuseParams& params, std::size_t p, std::size_t shadows,
                         const methods::ShadowThreshold& threshold, MethodResult& r) {
  r.facts.push_back({"select", std::string(name_of(params.select))});
  if (params.select != fuse::Select::shadow) return;
  const auto s = static_cast<std::int64_t>(shadows);
  methods::add_shadow_facts(r.facts, threshold, s, params.shadow_copies, params.shadow_quantile,
                            params.shadow_max_false);
  if (run.context.log && run.comm.rank() == 0)
    run.context.log->info(
        "select = \"shadow\": {} of {} features have a g-RAVE above {:.6g}, {} g-RAVE (false selections expected: "
        "at most {:.3g})",
        r.selected.size(), p, threshold.value, methods::describe_shadow_threshold(threshold, s, params.shadow_quantile),
        threshold.false_bound);
}

MethodResult make_result(const MethodRun& run, const Dataset& data, const fuse::FuseParams& params,
                         const fuse::Tree& tree, SearchOutcome outcome) {
  const std::size_t p = data.feature_names.size();
  const auto real = static_cast<std::int32_t>(p);
  MethodResult r = result_of(run, "fuse", data);
  r.iterations = static_cast<std::int32_t>(std::min<std::int64_t>(params.iterations, INT32_MAX));
  r.stop_reason = "iterations done";
  r.importance_meaning = "g-RAVE";
  r.feature_names = data.feature_names;
  const std::vector<double> grave = grave_of(tree);
  r.importance.assign(grave.begin(), grave.begin() + static_cast<std::ptrdiff_t>(p));
  std::vector<std::int64_t> grave_count(tree.grave_counts().begin(), tree.grave_counts().begin() + real);
  std::vector<std::int32_t> ranking = fuse::grave_ranking(tree);
  std::erase_if(ranking, [real](std::int32_t f) { return f >= real; });
  r.rank.assign(p, 0);
  for (std::size_t i = 0; i < ranking.size(); ++i)
    r.rank[static_cast<std::size_t>(ranking[i])] = static_cast<std::int32_t>(i + 1);
  const auto path = fuse::path_before_shadows(fuse::most_visited_path(tree), real);
  std::vector<std::int32_t> path_feature, on_path(p, 0);
  std::vector<std::int64_t> path_visits;
  std::vector<double> path_mean;
  for (const fuse::PathStep& step : path) {
    path_feature.push_back(step.feature);
    path_visits.push_back(step.visits);
    path_mean.push_back(step.mean);
    on_path[static_cast<std::size_t>(step.feature)] = 1;
  }
  methods::ShadowThreshold threshold;
  r.selected = select_features(params, grave, p, ranking, grave_count, path_feature, threshold);
  if (data.has_truth) {
    r.truth = data.truth;
    r.metrics = truth_metrics(r.selected, r.truth);
  }
  std::vector<double> stop_grave(p + 1, 0.0);  // levels 0..p (with shadows the search's sets can be larger)
  for (std::size_t d = 0; d < stop_grave.size(); ++d)
    if (tree.stop_counts()[d] > 0) stop_grave[d] = tree.stop_sums()[d] / static_cast<double>(tree.stop_counts()[d]);
  r.datasets.push_back({"grave_count", grave_count, {}});
  r.datasets.push_back({"on_path", on_path, {}});
  r.datasets.push_back({"path", path_feature, {}});
  r.datasets.push_back({"path_visits", path_visits, {}});
  r.datasets.push_back({"path_mean", path_mean, {}});
  r.datasets.push_back({"stop_grave", stop_grave, {}});
  r.datasets.push_back({"reward", std::move(outcome.reward), {}});
  r.datasets.push_back({"final_size", std::move(outcome.final_size), {}});
  r.feature_columns = {"grave_count", "on_path"};
  r.facts.push_back({"heuristic", std::string(name_of(params.heuristic))});
  add_selection_facts(run, params, p, grave.size() - p, threshold, r);
  r.facts.push_back({"batch", params.batch});
  r.facts.push_back({"k", std::int64_t{params.k}});
  r.facts.push_back({"tree_nodes", static_cast<std::int64_t>(tree.size())});
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
    FeatureLayout layout = data.layout;
    if (params.select == fuse::Select::shadow) {  // the shadows join the search as features p, p + 1, ...
      const std::int64_t count = methods::shadow_count(params.shadows, data.features(), source->describe());
      fuse::append_shadows(set, layout, methods::shadow_sources(data.features(), count, run.context.seed),
                           run.context.seed, params.shadow_copies);
    }
    const fuse::KnnReward reward(std::move(set), params.k, std::move(layout));
    fuse::Tree tree(reward.features());
    const methods::Checkpointing checkpointing(run, describe_source(*source, /*online=*/false).fingerprint);
    const auto search_start = Clock::now();
    SearchOutcome outcome =
        search(run, params, reward, static_cast<std::int32_t>(data.features()), tree, checkpointing);
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
    MethodResult result = make_result(run, data, params, tree, std::move(outcome));
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

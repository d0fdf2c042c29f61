#include "methods/bandit/arm_evaluation.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "core/stopwatch.hpp"
#include "estimators/missing.hpp"
#include "importance/metrics.hpp"
#include "importance/permutation.hpp"
#include "methods/bandit/model_rewards.hpp"
#include "methods/bandit/reward.hpp"

namespace bfs {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

bool updates_posterior(const ArmOutcome& outcome, const RewardConfig& reward) {
  return !outcome.arm.empty() && std::isfinite(outcome.test_score) && outcome.test_score >= reward.min_r2;
}

void require_a_finite_evaluation(const std::vector<EvaluationRecord>& evaluations, const std::string& metric) {
  std::size_t played = 0;
  for (const EvaluationRecord& e : evaluations) {
    if (e.arm_size == 0) continue;
    if (std::isfinite(e.test_score)) return;
    ++played;
  }
  if (played == 0) return;
  throw InputError(detail::concat(
      "every one of the run's ", played, " evaluations had a non-finite test ", metric,
      " (NaN or Inf), so no posterior was updated and no selection can be made; the likely cause is data outside "
      "the estimator's arithmetic (X or y values too large or too small: rescale them) or an estimator that "
      "diverges on this data (try another estimator.name or its defaults)"));
}

EvaluationSettings make_evaluation_settings(const JobConfig& job, const std::vector<std::string>& feature_names,
                                            int threads) {
  EvaluationSettings settings;
  settings.reward = reward_config(job);
  settings.metric = job_metric(job.data, reward_config(job));
  settings.threads = threads;
  const bool online = bandit_config(job).mode == Mode::Online;
  settings.split.test_fraction = bandit_config(job).test_fraction;
  settings.split.shuffle = !(online && bandit_config(job).time_series);
  settings.split.bootstrap = !online && bandit_config(job).bootstrap;
  if (!reward_config(job).groups.empty()) {
    std::map<std::string, FeatureId> index;
    for (std::size_t k = 0; k < feature_names.size(); ++k) index[feature_names[k]] = static_cast<FeatureId>(k);
    settings.group_of_feature.assign(feature_names.size(), -1);
    for (std::size_t g = 0; g < reward_config(job).groups.size(); ++g) {
      for (const auto& name : reward_config(job).groups[g]) {
        auto it = index.find(name);
        if (it == index.end()) throw ConfigError("reward.groups: no feature named '" + name + "' in the data");
        if (settings.group_of_feature[it->second] != -1)
          throw ConfigError("reward.groups: feature '" + name + "' is in more than one group");
        settings.group_of_feature[it->second] = static_cast<std::int32_t>(g);
      }
    }
  }
  return settings;
}

std::size_t shadow_count(std::size_t arm_size, const RewardConfig& reward) {
  if (reward.null != RewardNull::Shadow || arm_size == 0) return 0;
  return static_cast<std::size_t>(reward.shadows);
}

ShadowPlan make_shadow_plan(Index rows, const FeatureSet& arm, const RewardConfig& reward, std::uint64_t seed,
                            std::uint64_t round, std::uint64_t slot) {
  ShadowPlan plan;
  const std::size_t count = shadow_count(arm.size(), reward);
  if (count == 0) return plan;
  Rng pick = Rng::stream(seed, round, slot, Purpose::Shadow, kShadowSourceStream);
  const auto order = pick.permutation(static_cast<std::int64_t>(arm.size()));
  for (std::size_t j = 0; j < count; ++j) {
    plan.source.push_back(arm[static_cast<std::size_t>(order[j % arm.size()])]);
    plan.row_perm.push_back(Rng::stream(seed, round, slot, Purpose::Shadow, j).permutation(rows));
  }
  return plan;
}

namespace {

/// X[rows, columns] with the shadow columns appended: shadow j's columns are those of feature source[j], and at row r
/// each holds X(row_perm[j][r], column).
Matrix gather_with_shadows(const Matrix& X, std::span<const Index> rows, const FeatureSet& columns,
                           const ShadowPlan& shadows, const FeatureLayout& layout) {
  if (shadows.source.empty()) return gather(X, rows, columns);
  const std::vector<FeatureId> shadow_columns = layout.columns_of(shadows.source);
  Matrix out(static_cast<Index>(rows.size()), static_cast<Index>(columns.size() + shadow_columns.size()));
  out.leftCols(static_cast<Index>(columns.size())) = gather(X, rows, columns);
  auto column = static_cast<Index>(columns.size());
  for (std::size_t j = 0; j < shadows.source.size(); ++j) {
    const auto& perm = shadows.row_perm[j];
    for (Index c = layout.column_begin(shadows.source[j]); c < layout.column_end(shadows.source[j]); ++c, ++column)
      for (std::size_t i = 0; i < rows.size(); ++i)
        out(static_cast<Index>(i), column) = X(perm[static_cast<std::size_t>(rows[i])], c);
  }
  return out;
}

/// Sums the per-column reads of a model-read rule over each arm feature's columns (a split on any indicator of a
/// categorical feature is a split on the feature; its coefficients' |β| add) and applies the rule to the sum, which
/// for one column per feature is the column's own read, bit for bit.
ModelRewards per_feature(ModelRewards columns, const FeatureSet& arm, const FeatureLayout& layout,
                         const RewardConfig& reward) {
  if (layout.one_column_each()) return columns;
  ModelRewards out;
  std::size_t at = 0;
  for (const FeatureId f : arm) {
    const Index width = layout.column_end(f) - layout.column_begin(f);
    double score = columns.scores[at];
    for (Index c = 1; c < width; ++c) score += columns.scores[at + static_cast<std::size_t>(c)];
    at += static_cast<std::size_t>(width);
    out.scores.push_back(score);
    out.rewards.push_back(model_reward_of(reward, score));
  }
  return out;
}

}  // namespace

ArmData prepare_arm_data(const Dataset& data, const FeatureSet& arm, const EvaluationSettings& settings,
                         std::uint64_t seed, std::uint64_t round, std::uint64_t slot, bool with_train) {
  const auto start = Clock::now();
  ArmData out;
  const TrainTestSplit split = make_split(data.rows(), settings.split, seed, round, slot);
  const ShadowPlan shadows = make_shadow_plan(data.rows(), arm, settings.reward, seed, round, slot);
  out.columns = data.layout.columns_of(arm);
  out.shadow_source = shadows.source;
  if (with_train) {
    out.X_train = gather_with_shadows(data.X, split.train, out.columns, shadows, data.layout);
    out.y_train = gather(data.y, split.train);
    out.train_rows = split.train;
  }
  out.X_test = gather_with_shadows(data.X, split.test, out.columns, shadows, data.layout);
  out.y_test = gather(data.y, split.test);
  out.split_seconds = seconds_since(start);
  return out;
}

FitOptions fit_options_for(const EvaluationSettings& settings, std::uint64_t seed, std::uint64_t round,
                           std::uint64_t slot, bool data_has_missing) {
  FitOptions options{Rng::stream(seed, round, slot, Purpose::Fit).next_u64(), settings.threads, {}, nullptr};
  options.data_has_missing = data_has_missing;
  return options;
}

FitOrigin fit_origin(const ArmData& arm_data, const PreparedData* prepared) {
  if (prepared == nullptr || arm_data.X_train.cols() != static_cast<Index>(arm_data.columns.size())) return {};
  return FitOrigin{prepared, arm_data.train_rows, arm_data.columns};
}

ImportancePlan make_importance_plan(const FeatureSet& arm, const EvaluationSettings& settings,
                                    const FeatureLayout& layout, const FeatureSet& shadow_source) {
  // Each feature's columns form one group; features of one reward.groups bundle that are both played are permuted
  // together.
  ImportancePlan plan;
  plan.group_of_feature.resize(arm.size());
  std::map<std::int32_t, std::size_t> bundle_to_group;
  Index column = 0;  // the arm feature's first column in the arm's matrix
  const auto columns_of = [&](FeatureId f) {
    std::vector<Index> columns;
    for (Index c = layout.column_begin(f); c < layout.column_end(f); ++c) columns.push_back(column++);
    return columns;
  };
  for (std::size_t i = 0; i < arm.size(); ++i) {
    const std::int32_t bundle = settings.group_of_feature.empty() ? -1 : settings.group_of_feature[arm[i]];
    std::vector<Index> columns = columns_of(arm[i]);
    if (bundle >= 0 && bundle_to_group.count(bundle)) {
      plan.group_of_feature[i] = bundle_to_group[bundle];
      auto& group = plan.groups[plan.group_of_feature[i]];
      group.insert(group.end(), columns.begin(), columns.end());
      continue;
    }
    plan.group_of_feature[i] = plan.groups.size();
    if (bundle >= 0) bundle_to_group[bundle] = plan.groups.size();
    plan.groups.push_back(std::move(columns));
    plan.stream_ids.push_back(static_cast<std::uint64_t>(arm[i]));
  }
  plan.shadow_begin = plan.groups.size();
  for (std::size_t j = 0; j < shadow_source.size(); ++j) {
    plan.groups.push_back(columns_of(shadow_source[j]));
    plan.stream_ids.push_back(kShadowStreamBase + j);
  }
  return plan;
}

std::vector<double> importance_costs(const Model& model, const ImportancePlan& plan) {
  std::vector<double> column_cost(static_cast<std::size_t>(model.num_features()), 1.0);
  if (const TreeEnsemble* ensemble = model.trees()) {
    std::fill(column_cost.begin(), column_cost.end(), 0.0);
    for (const FlatTree& tree : ensemble->trees)
      for (std::int32_t f : tree.feature)
        if (f >= 0 && static_cast<std::size_t>(f) < column_cost.size()) column_cost[static_cast<std::size_t>(f)] += 1.0;
  } else if (const LinearStructure* linear = model.linear()) {
    for (std::size_t j = 0; j < column_cost.size(); ++j)
      column_cost[j] = linear->coef[static_cast<Index>(j)] != 0.0 ? 100.0 : 0.0;
  }
  std::vector<double> costs;
  costs.reserve(plan.shadow_begin);
  for (std::size_t g = 0; g < plan.shadow_begin; ++g) {
    double cost = 1.0;
    for (Index column : plan.groups[g]) cost += column_cost[static_cast<std::size_t>(column)];
    costs.push_back(cost);
  }
  return costs;
}

bool evaluated_whole(const EvaluationSettings& settings) {
  return !needs_importance(settings.reward.rule);
}

BlockOutcome score_block(const Model& model, const ArmData& data, const FeatureSet& arm, const ImportancePlan& plan,
                         const std::vector<std::size_t>& block, const EvaluationSettings& settings, std::uint64_t seed,
                         std::uint64_t round, std::uint64_t slot) {
  const auto start = Clock::now();
  ImportanceRequest request;
  request.model = &model;
  request.X_test = &data.X_test;
  request.y_test = &data.y_test;
  request.repeats = settings.reward.repeats;
  request.metric = settings.metric;
  request.seed = seed;
  request.round = round;
  request.slot = slot;
  request.threads = settings.threads;
  std::vector<std::size_t> block_index_of_group(plan.groups.size(), SIZE_MAX);
  auto request_group = [&](std::size_t g) {
    block_index_of_group[g] = request.groups.size();
    request.groups.push_back(plan.groups[g]);
    request.stream_ids.push_back(plan.stream_ids[g]);
  };
  for (std::size_t g : block) {
    BFS_CHECK(g < plan.shadow_begin);
    request_group(g);
  }
  for (std::size_t g = plan.shadow_begin; g < plan.groups.size(); ++g) request_group(g);
  const ImportanceResult importance = permutation_importance(request);
  BlockOutcome out;
  out.test_score = importance.baseline;
  FeatureSet features;
  NullEvidence null;
  null.repeats = request.repeats;
  for (std::size_t i = 0; i < arm.size(); ++i) {
    const std::size_t b = block_index_of_group[plan.group_of_feature[i]];
    if (b == SIZE_MAX) continue;
    out.features.push_back(i);
    out.scores.push_back(importance.scores[b]);
    features.push_back(arm[i]);
    if (settings.reward.null == RewardNull::Paired) {
      const auto drops = importance.drops_of(b, request.repeats);
      null.drops.insert(null.drops.end(), drops.begin(), drops.end());
    }
  }
  for (std::size_t g = plan.shadow_begin; g < plan.groups.size(); ++g)
    null.shadow_scores.push_back(importance.scores[block_index_of_group[g]]);
  out.rewards = rewards_from_scores(settings.reward, out.scores, out.test_score, features, seed, round, slot, null);
  out.importance_seconds = seconds_since(start);
  return out;
}

ArmOutcome evaluate_arm(const Dataset& data, const FeatureSet& arm, const Estimator& estimator,
                        const EvaluationSettings& settings, std::uint64_t seed, std::uint64_t round, std::uint64_t slot,
                        const PreparedData* prepared, std::optional<bool> data_has_missing) {
  ArmOutcome out;
  out.arm = arm;
  if (arm.empty()) return out;
  FitOptions fit_options =
      fit_options_for(settings, seed, round, slot, data_has_missing ? *data_has_missing : has_missing(data.X));

  if (evaluated_whole(settings)) {
    // Rewards read from the model (methods/bandit/model_rewards.hpp): lasso-nonzero fits a bootstrap replicate per play
    // offline ([TVS §3.3]); the BART rules fit all the rows, whose randomness is the MCMC's (§3.2); online, the
    // batch itself.
    auto start = Clock::now();
    std::vector<Index> rows;
    if (settings.split.bootstrap && settings.reward.rule == RewardRule::LassoNonzero) {
      rows = bootstrap_rows(data.rows(), seed, round, slot);
    } else {
      rows.resize(static_cast<std::size_t>(data.rows()));
      for (Index i = 0; i < data.rows(); ++i) rows[static_cast<std::size_t>(i)] = i;
    }
    const FeatureSet columns = data.layout.columns_of(arm);
    const Matrix X = gather(data.X, rows, columns);
    const Vector y = gather(data.y, rows);
    out.split_seconds = seconds_since(start);
    start = Clock::now();
    if (prepared != nullptr) fit_options.origin = FitOrigin{prepared, rows, columns};
    const auto model = estimator.fit(X, y, fit_options);
    out.fit_seconds = seconds_since(start);
    const Vector* fitted = model->fitted_values();
    out.test_score = metric_score(settings.metric, y, fitted != nullptr ? *fitted : model->predict(X));
    ModelRewards read = per_feature(model_rewards(settings.reward, *model), arm, data.layout, settings.reward);
    out.scores = std::move(read.scores);
    out.rewards = std::move(read.rewards);
    return out;
  }

  const ArmData arm_data = prepare_arm_data(data, arm, settings, seed, round, slot);
  out.split_seconds = arm_data.split_seconds;
  const auto start = Clock::now();
  fit_options.origin = fit_origin(arm_data, prepared);
  const auto model = estimator.fit(arm_data.X_train, arm_data.y_train, fit_options);
  out.fit_seconds = seconds_since(start);

  const ImportancePlan plan = make_importance_plan(arm, settings, data.layout, arm_data.shadow_source);
  std::vector<std::size_t> all(plan.shadow_begin);
  for (std::size_t g = 0; g < all.size(); ++g) all[g] = g;
  BlockOutcome block = score_block(*model, arm_data, arm, plan, all, settings, seed, round, slot);
  out.importance_seconds = block.importance_seconds;
  out.test_score = block.test_score;
  out.scores = std::move(block.scores);
  out.rewards = std::move(block.rewards);
  return out;
}

}  // namespace bfs

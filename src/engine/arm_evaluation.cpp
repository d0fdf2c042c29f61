#include "engine/arm_evaluation.hpp"

#include <chrono>
#include <map>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "importance/metrics.hpp"
#include "importance/permutation.hpp"
#include "importance/reward.hpp"

namespace bfs {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
}  // namespace

bool updates_posterior(const ArmOutcome& outcome, const RewardConfig& reward) {
  return !outcome.arm.empty() && outcome.r2_test >= reward.min_r2;
}

EvaluationSettings make_evaluation_settings(const JobConfig& job, const std::vector<std::string>& feature_names,
                                            int threads) {
  EvaluationSettings settings;
  settings.reward = job.reward;
  settings.threads = threads;
  const bool online = job.bandit.mode == "online";
  settings.split.test_fraction = job.bandit.test_fraction;
  settings.split.shuffle = !(online && job.bandit.time_series);
  settings.split.bootstrap = !online && job.bandit.bootstrap;
  if (!job.reward.groups.empty()) {
    std::map<std::string, FeatureId> index;
    for (std::size_t k = 0; k < feature_names.size(); ++k) index[feature_names[k]] = static_cast<FeatureId>(k);
    settings.group_of_feature.assign(feature_names.size(), -1);
    for (std::size_t g = 0; g < job.reward.groups.size(); ++g) {
      for (const auto& name : job.reward.groups[g]) {
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

ArmOutcome evaluate_arm(const Dataset& data, const FeatureSet& arm, const Estimator& estimator,
                        const EvaluationSettings& settings, std::uint64_t seed, std::uint64_t round,
                        std::uint64_t slot) {
  ArmOutcome out;
  out.arm = arm;
  if (arm.empty()) return out;
  const RewardRule rule = parse_reward_rule(settings.reward.rule);
  FitOptions fit_options{Rng::stream(seed, round, slot, Purpose::Fit).next_u64(), settings.threads};

  if (!needs_importance(rule)) {
    // lasso-nonzero (paper 003 §3.3): a bootstrap replicate of the data per play (offline), the batch itself online.
    auto start = Clock::now();
    std::vector<Index> rows;
    if (settings.split.bootstrap) {
      rows = bootstrap_rows(data.rows(), seed, round, slot);
    } else {
      rows.resize(static_cast<std::size_t>(data.rows()));
      for (Index i = 0; i < data.rows(); ++i) rows[static_cast<std::size_t>(i)] = i;
    }
    const Matrix X = gather(data.X, rows, arm);
    const Vector y = gather(data.y, rows);
    out.split_seconds = seconds_since(start);
    start = Clock::now();
    const auto model = estimator.fit(X, y, fit_options);
    out.fit_seconds = seconds_since(start);
    const LinearStructure* linear = model->linear();
    if (linear == nullptr) throw ConfigError("reward.rule = \"lasso-nonzero\" needs a linear estimator");
    out.r2_test = r2_score(y, model->predict(X));
    for (std::size_t i = 0; i < arm.size(); ++i) {
      const double beta = linear->coef[static_cast<Index>(i)];
      out.scores.push_back(std::abs(beta));
      out.rewards.push_back(beta != 0.0);
    }
    return out;
  }

  auto start = Clock::now();
  const TrainTestSplit split = make_split(data.rows(), settings.split, seed, round, slot);
  const Matrix X_train = gather(data.X, split.train, arm);
  const Vector y_train = gather(data.y, split.train);
  const Matrix X_test = gather(data.X, split.test, arm);
  const Vector y_test = gather(data.y, split.test);
  out.split_seconds = seconds_since(start);

  start = Clock::now();
  const auto model = estimator.fit(X_train, y_train, fit_options);
  out.fit_seconds = seconds_since(start);

  // Groups of arm columns: features of one reward.groups bundle that are both played are permuted together.
  start = Clock::now();
  ImportanceRequest request;
  request.model = model.get();
  request.X_test = &X_test;
  request.y_test = &y_test;
  request.repeats = settings.reward.repeats;
  request.seed = seed;
  request.round = round;
  request.slot = slot;
  request.threads = settings.threads;
  std::vector<std::size_t> group_of_column(arm.size());
  std::map<std::int32_t, std::size_t> bundle_to_group;
  for (std::size_t i = 0; i < arm.size(); ++i) {
    const std::int32_t bundle = settings.group_of_feature.empty() ? -1 : settings.group_of_feature[arm[i]];
    if (bundle >= 0 && bundle_to_group.count(bundle)) {
      group_of_column[i] = bundle_to_group[bundle];
      request.groups[group_of_column[i]].push_back(static_cast<Index>(i));
      continue;
    }
    group_of_column[i] = request.groups.size();
    if (bundle >= 0) bundle_to_group[bundle] = request.groups.size();
    request.groups.push_back({static_cast<Index>(i)});
    request.stream_ids.push_back(static_cast<std::uint64_t>(arm[i]));
  }
  const ImportanceResult importance = permutation_importance(request);
  out.importance_seconds = seconds_since(start);
  out.r2_test = importance.baseline_r2;
  for (std::size_t i = 0; i < arm.size(); ++i) out.scores.push_back(importance.scores[group_of_column[i]]);
  out.rewards = rewards_from_scores(settings.reward, out.scores, out.r2_test, arm, seed, round, slot);
  return out;
}

}  // namespace bfs

#pragma once
// Evaluation of one super-arm (docs/design.md §2): split the current data, fit the base estimator on the arm's columns,
// score each played feature (permutation importance, Algorithm 3) and turn the scores into 0/1 rewards.
// An arm is a set of features (data/feature_layout.hpp): a categorical feature brings all its indicator columns,
// which are permuted together with one row permutation (the stream of the feature's id) and earn one score and one
// reward; with one column per feature every column is its own feature, as before.
// Pure: no MPI, no shared state; every random draw comes from the (seed, round, slot, purpose) streams.
#include <cstdint>
#include <optional>
#include <vector>

#include "config/job_config.hpp"
#include "data/dataset.hpp"
#include "estimators/estimator.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/run_result.hpp"
#include "methods/bandit/split.hpp"

namespace bfs {

struct EvaluationSettings {
  RewardConfig reward;
  Metric metric = Metric::R2;  ///< scores the fit and its permuted copies (job_metric)
  SplitSettings split;
  int threads = 1;
  /// Group index of each global feature for grouped permutation (−1 = permuted alone). Empty = no groups.
  std::vector<std::int32_t> group_of_feature;
};

struct ArmOutcome {
  FeatureSet arm;
  std::vector<std::uint8_t> rewards;  ///< one per arm feature
  std::vector<double>
      scores;  ///< importance per arm feature (the model-read score for the rules of methods/bandit/model_rewards)
  double test_score = 0.0;  ///< the metric on the test rows (in-sample for the model-read rules: no test rows)
  double split_seconds = 0.0;
  double fit_seconds = 0.0;
  double importance_seconds = 0.0;
};

/// Whether an evaluation updates the posterior: not when nothing was played (an empty super-arm must not count as
/// a failure of every unplayed arm), not when its metric is NaN or ±Inf (a model that failed says nothing about its
/// features), and not when its test R² is below reward.min_r2.
bool updates_posterior(const ArmOutcome& outcome, const RewardConfig& reward);

/// InputError when a run made evaluations of played arms and none had a finite metric: no posterior moved, so its
/// selection would mean nothing. `metric` names the metric ("r2"); the message names the likely causes.
void require_a_finite_evaluation(const std::vector<EvaluationRecord>& evaluations, const std::string& metric);

/// Builds the evaluation settings from the job (groups resolved against the feature names; ConfigError naming
/// reward.groups for an unknown name or a feature in two groups).
EvaluationSettings make_evaluation_settings(const JobConfig& job, const std::vector<std::string>& feature_names,
                                            int threads);

/// reward.null = "shadow" (methods/bandit/reward.hpp): the shadow columns of one evaluation. Shadow j is a copy of the
/// arm's feature `source[j]` (all its columns, one row shuffle for them all, so a categorical shadow stays a valid
/// one-hot block) with the data's rows shuffled by the stream (seed, round, slot, Shadow, j); which arm
/// features are copied is a uniform shuffle of the arm from (seed, round, slot, Shadow, kShadowSourceStream),
/// cycled when there are more shadows than features. Shadows are fitted and scored beside the arm, never rewarded.
struct ShadowPlan {
  FeatureSet source;                                ///< global feature id copied by each shadow
  std::vector<std::vector<std::int64_t>> row_perm;  ///< its shuffle of the data's rows
};
inline constexpr std::uint64_t kShadowSourceStream = std::uint64_t{1} << 40;
/// Permutation-importance stream id of shadow j: kShadowStreamBase + j, above every feature id.
inline constexpr std::uint64_t kShadowStreamBase = std::uint64_t{1} << 32;
/// How many shadow columns an arm of `arm_size` features carries: reward.shadows, or 0 unless reward.null =
/// "shadow" and the arm has features.
std::size_t shadow_count(std::size_t arm_size, const RewardConfig& reward);
ShadowPlan make_shadow_plan(Index rows, const FeatureSet& arm, const RewardConfig& reward, std::uint64_t seed,
                            std::uint64_t round, std::uint64_t slot);

/// The rows and columns of one evaluation (importance rules): the split of (round, slot) gathered on the arm's
/// columns (each feature's columns in arm order), the shadow columns (if any) appended after the arm's.
struct ArmData {
  FeatureSet columns;        ///< the data's columns of the arm, in the order of X_train's first columns
  FeatureSet shadow_source;  ///< the feature each shadow copies (ShadowPlan::source), in column order
  Matrix X_train;
  Vector y_train;
  std::vector<Index> train_rows;  ///< the data's rows of X_train, in order (the split's training rows)
  Matrix X_test;
  Vector y_test;
  double split_seconds = 0.0;
};

/// Which columns of the arm's matrix are permuted together and with which stream id: each feature's columns (one
/// for a numeric feature, all the indicators of a categorical one), merged for the features of a reward.groups
/// bundle that are both played; the stream id is the group's first feature id. group_of_feature[i] is the
/// importance group of the arm's i-th feature. The groups from `shadow_begin` on are the shadows, one group of
/// columns each: every member of a distributed group scores all of them with its block, since each reward compares
/// against them (their cost is the same on every member, so blocks balance the arm's groups only).
struct ImportancePlan {
  std::vector<std::vector<Index>> groups;
  std::vector<std::uint64_t> stream_ids;
  std::vector<std::size_t> group_of_feature;
  std::size_t shadow_begin = 0;
};

/// Scores and rewards of some importance groups of one arm: the work of one member of a distributed group.
struct BlockOutcome {
  double test_score = 0.0;
  std::vector<std::size_t> features;  ///< positions in the arm of the features covered, ascending
  std::vector<double> scores;         ///< per feature covered
  std::vector<std::uint8_t> rewards;  ///< per feature covered
  double importance_seconds = 0.0;
};

/// The phases of evaluate_arm, exposed so that a distributed group can split them (docs/design.md §2): every member
/// builds the same ArmData and plan, the leader fits, each member scores its block of groups. `with_train` = false
/// gathers only the test rows (a group member that does not fit).
ArmData prepare_arm_data(const Dataset& data, const FeatureSet& arm, const EvaluationSettings& settings,
                         std::uint64_t seed, std::uint64_t round, std::uint64_t slot, bool with_train = true);
/// `data_has_missing`: the period's X has a missing cell (FitOptions::data_has_missing).
FitOptions fit_options_for(const EvaluationSettings& settings, std::uint64_t seed, std::uint64_t round,
                           std::uint64_t slot, bool data_has_missing);
/// `shadow_source`: ArmData::shadow_source (the shadows' columns follow the arm's in that order).
ImportancePlan make_importance_plan(const FeatureSet& arm, const EvaluationSettings& settings,
                                    const FeatureLayout& layout, const FeatureSet& shadow_source);
/// Expected cost of scoring each arm group of `plan` (the shadows excluded) with `model` (for balancing blocks across a
/// group's members): tree ensembles — 1 + the number of nodes splitting on the group's columns (an unused column costs
/// nothing on the fast path); linear — 1 + 100·(non-zero coefficient); others — 1 (one batched re-prediction each).
std::vector<double> importance_costs(const Model& model, const ImportancePlan& plan);
/// Scores the groups `block` (indices of arm groups in plan.groups) and the shadow groups, and turns the scores of
/// the block's features into rewards.
BlockOutcome score_block(const Model& model, const ArmData& data, const FeatureSet& arm, const ImportancePlan& plan,
                         const std::vector<std::size_t>& block, const EvaluationSettings& settings, std::uint64_t seed,
                         std::uint64_t round, std::uint64_t slot);
/// True when the reward rule needs no permutation importance (lasso-nonzero, the BART rules): the arm is evaluated
/// whole by one rank.
bool evaluated_whole(const EvaluationSettings& settings);

/// Evaluates `arm` on `data`. An empty arm yields an empty outcome.
/// `prepared`: the estimator's prepare() of data.X, or nullptr (estimators/estimator.hpp, PreparedData).
/// `data_has_missing`: whether data.X has a missing cell, known once per period (PeriodPrefetcher); unset, data.X
/// is scanned.
ArmOutcome evaluate_arm(const Dataset& data, const FeatureSet& arm, const Estimator& estimator,
                        const EvaluationSettings& settings, std::uint64_t seed, std::uint64_t round, std::uint64_t slot,
                        const PreparedData* prepared = nullptr, std::optional<bool> data_has_missing = std::nullopt);

/// The fit's origin (FitOptions::origin): the data's rows and arm columns of X_train with `prepared`; empty when
/// X_train has shadow columns, which are no columns of the data.
FitOrigin fit_origin(const ArmData& arm_data, const PreparedData* prepared);

}  // namespace bfs

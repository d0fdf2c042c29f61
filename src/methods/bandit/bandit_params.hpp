#pragma once
// The bandit's own job sections, [reward], [bandit] and [tuning]: their structs, each key declared once in
// bandit_params.cpp, and BanditParams, through which the schema reads, dumps and describes them
// (config/method_params.hpp). A job of the bandit holds one as its method parameters; reward_config(job),
// bandit_config(job) and tuning_config(job) reach them.
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/estimator_config.hpp"
#include "config/job_config.hpp"
#include "config/method_params.hpp"
#include "core/task.hpp"

namespace bfs {

/// bandit.mode: offline bootstrap rounds on one data set, or online rounds on periods in order.
enum class Mode { Offline, Online };
/// bandit.policy (methods/bandit/policy.hpp): Thompson sampling, top-two Thompson sampling, the TVS oracles.
enum class PolicyKind { Ts, Ttts, Tvs };
/// bandit.stop (methods/bandit/stopping.hpp).
enum class StopRule { Iterations, RankStable, SelectedStable, Truth };
/// bandit.rebatch (data/batches.hpp): passes replay the same batches, or bootstrap and re-cut the data first.
enum class Rebatch { None, Bootstrap };
constexpr std::array<std::pair<Rebatch, std::string_view>, 2> enum_table(Rebatch) {
  return {{{Rebatch::None, "none"}, {Rebatch::Bootstrap, "bootstrap"}}};
}
/// reward.rule (importance/reward.hpp).
enum class RewardRule { Absolute, Relative, Bernoulli, LassoNonzero, BartLastDraw, BartMeanSplits };
/// reward.null (importance/reward.hpp): the paper's fixed threshold alone, or also a calibrated null per evaluation.
enum class RewardNull { None, Shadow, Paired };

constexpr std::array<std::pair<Mode, std::string_view>, 2> enum_table(Mode) {
  return {{{Mode::Offline, "offline"}, {Mode::Online, "online"}}};
}
constexpr std::array<std::pair<PolicyKind, std::string_view>, 3> enum_table(PolicyKind) {
  return {{{PolicyKind::Ts, "ts"}, {PolicyKind::Ttts, "ttts"}, {PolicyKind::Tvs, "tvs"}}};
}
constexpr std::array<std::pair<StopRule, std::string_view>, 4> enum_table(StopRule) {
  return {{{StopRule::Iterations, "iterations"},
           {StopRule::RankStable, "rank-stable"},
           {StopRule::SelectedStable, "selected-stable"},
           {StopRule::Truth, "truth"}}};
}
constexpr std::array<std::pair<RewardRule, std::string_view>, 6> enum_table(RewardRule) {
  return {{{RewardRule::Absolute, "absolute"},
           {RewardRule::Relative, "relative"},
           {RewardRule::Bernoulli, "bernoulli"},
           {RewardRule::LassoNonzero, "lasso-nonzero"},
           {RewardRule::BartLastDraw, "bart-last-draw"},
           {RewardRule::BartMeanSplits, "bart-mean-splits"}}};
}
constexpr std::array<std::pair<RewardNull, std::string_view>, 3> enum_table(RewardNull) {
  return {{{RewardNull::None, "none"}, {RewardNull::Shadow, "shadow"}, {RewardNull::Paired, "paired"}}};
}

struct RewardConfig {
  RewardRule rule = RewardRule::Absolute;
  double threshold = 0.01;  ///< ν
  int repeats = 10;         ///< B permutation repeats (Algorithm 3)
  /// The metric whose drop is the importance; unset = the task's default (AUC binary, R² regression).
  std::optional<Metric> metric;
  /// relative rule: |R²_test| below this is treated as "no signal" and every reward is 0.
  double min_abs_r2 = 1e-6;
  /// An evaluation whose test R² is below this had no out-of-sample skill, so its permutation drops carry no
  /// information about importance: it updates no posterior. −inf (the default) is [Wu]'s algorithm exactly.
  double min_r2 = -std::numeric_limits<double>::infinity();
  /// Bundles of feature names permuted together (grouped permutation importance).
  std::vector<std::vector<std::string>> groups;
  /// The calibrated null a reward must also beat (importance/reward.hpp); None is [Wu]'s rule byte for byte.
  RewardNull null = RewardNull::None;
  /// "shadow": shadow columns per evaluation. 19: a noise column exchangeable with its shadows beats all of them
  /// with probability 1/20 = 5% (docs/null.md).
  int shadows = 19;
  double shadow_quantile = 1.0;  ///< "shadow": a real drop must exceed this quantile of the shadow drops (1 = max)
  double alpha = 0.05;           ///< "paired": level of the one-sided t-test over the B drops
  /// "bart-mean-splits" ([TVS eq. 10]): a feature earns 1 when BART's mean split count reaches this.
  double min_splits = 1.0;
};

struct BanditConfig {
  PolicyKind policy = PolicyKind::Ttts;
  int iterations = 200;  ///< offline: the rounds; online: the schedule's, if given (check_online_iterations)
  /// The job names bandit.iterations (set by the parser, not a key): an online run then refuses a value other than
  /// its schedule's length, rather than ignoring it.
  bool iterations_given = false;
  Mode mode = Mode::Offline;
  int iterations_per_period = 1;
  int passes = 1;                   ///< online: passes over the batches ([TVS §5.2])
  Rebatch rebatch = Rebatch::None;  ///< online: "bootstrap" resamples and re-cuts the data before passes 2..r
  bool time_series = false;         ///< online: keep row order, test rows = last 20% of the period
  int arms_per_round = 1;
  double max_features = 1.0;  ///< cap on |S| as a fraction of p (uniform random subset)
  double prior_alpha = 1.0;
  double prior_beta = 1.0;
  bool unplayed_as_failures = false;
  double test_fraction = 0.2;
  bool bootstrap = true;              ///< offline: bootstrap the training part
  int max_redraws = 100;              ///< TTTS: bound on S' redraws
  double tvs_c = 0.6180339887498949;  ///< TVS C; C̃ = log(1/C)/log((1+C)/C)
  int tvs_q = 0;                      ///< TVS known-q oracle; 0 = unknown q
  StopRule stop = StopRule::Iterations;
  int stop_window = 0;  ///< K; 0 = the rule's default (50 rank-stable, 100 selected-stable)
};

/// [tuning]: optional grid search with k-fold cross-validation on one period before the first round, whose best
/// parameters are then used for every round ([Wu §5.1]: "I use the first month i.e. Jan 2010 for
/// hyperparameter tuning ... gridsearch and k-fold cross validation"). Only estimator.name = "gbm" is tunable. Each
/// list is the grid of the [estimator] key of the same name; an empty list keeps the [estimator] value. The default
/// grid (3·1·2·2·2·2 = 48 points) surrounds the paper's choice: learning rate 0.05, 200 trees, 50 leaves, depth 10,
/// 20 samples per leaf, L2 0.01. See methods/bandit/tuning.hpp.
struct TuningConfig {
  bool enabled = false;
  int folds = 5;        ///< k of k-fold CV (the paper's reference code: 5)
  int period = 0;       ///< the period tuned on (0 = the first; offline runs have one period)
  bool shuffle = true;  ///< shuffle rows before cutting folds (false = contiguous folds, scikit-learn's KFold)
  std::vector<double> learning_rate = {0.01, 0.05, 0.1};
  std::vector<int> n_estimators = {200};
  std::vector<int> max_leaves = {31, 50};
  std::vector<int> max_depth = {6, 10};
  std::vector<double> min_child_weight = {20, 50};
  std::vector<double> lambda = {0.0, 0.01};
};

/// The bandit's parameters: its three sections (it has no [method] keys besides the name).
struct BanditParams final : MethodParams {
  RewardConfig reward;
  BanditConfig bandit;
  TuningConfig tuning;

  void visit(KeyVisitor& /*visitor*/) override {}
  void visit_section(std::string_view section, KeyVisitor& visitor) override;
  /// [tuning] only when enabled: a disabled section does not change any number of the run, and leaving it out keeps
  /// the canonical text (and so the checkpoint job hash) of every job written before tuning existed.
  bool dumps_section(std::string_view section) const override { return section != "tuning" || tuning.enabled; }
  void validate(const JobConfig& job) const override;
  bool online() const override { return bandit.mode == Mode::Online; }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<BanditParams>(*this); }
};

/// The bandit's entry of the method catalog: its name, its sections and BanditParams' factory.
MethodDescription bandit_description();
/// A job of the bandit with every default, as an empty job file gives: the start of a job built in code.
JobConfig bandit_job();

/// The bandit's parameters of `job`; ConfigError when the job holds none (a JobConfig not made by the schema or by
/// bandit_job()).
const BanditParams& bandit_params(const JobConfig& job);
BanditParams& bandit_params(JobConfig& job);
inline const RewardConfig& reward_config(const JobConfig& job) {
  return bandit_params(job).reward;
}
inline RewardConfig& reward_config(JobConfig& job) {
  return bandit_params(job).reward;
}
inline const BanditConfig& bandit_config(const JobConfig& job) {
  return bandit_params(job).bandit;
}
inline BanditConfig& bandit_config(JobConfig& job) {
  return bandit_params(job).bandit;
}
inline const TuningConfig& tuning_config(const JobConfig& job) {
  return bandit_params(job).tuning;
}
inline TuningConfig& tuning_config(JobConfig& job) {
  return bandit_params(job).tuning;
}

/// The metric a job scores with: reward.metric, or the task's default.
inline Metric job_metric(const DataConfig& data, const RewardConfig& reward) {
  return reward.metric ? *reward.metric : default_metric(data.task);
}

/// The cross-field checks of [reward], [bandit] and [tuning] against the job (e.g. lasso-nonzero needs the lasso
/// estimator): BanditParams::validate, the last of the schema's validate().
void validate_bandit_sections(const JobConfig& job);
/// The reward.null checks (part of validate_bandit_sections): a null needs the absolute or relative rule, "paired"
/// needs repeats ≥ 2, and each null's own keys are refused with another null. ConfigError naming the keys.
void validate_reward_null(const RewardConfig& reward);
/// The [tuning] checks (part of validate_bandit_sections): when enabled, estimator.name must be "gbm" or "hgb", folds
/// ≥ 2 and period ≥ 0; ConfigError naming tuning.enabled / tuning.folds / tuning.period.
void validate_tuning(const TuningConfig& tuning, const EstimatorConfig& estimator);

}  // namespace bfs

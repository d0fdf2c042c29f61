#include "methods/bandit/bandit_params.hpp"

#include <limits>
#include <string>

#include "config/key_spec.hpp"
#include "config/schema.hpp"
#include "core/error.hpp"

namespace bfs {
namespace {

using Spec = KeySpec;
using namespace keyspec;

// ---- the keys of the bandit's sections, each once -------------------------------------------------------------

void visit_reward(RewardConfig& c, KeyVisitor& v) {
  v("rule", c.rule, text("score -> 0/1 reward"));
  v("threshold", c.threshold, range(0, 1, "nu: importance threshold (absolute: R^2 drop; relative: drop/|R^2|)"));
  v("repeats", c.repeats, range(1, 10000, "B: permutation repeats (Algorithm 3)"));
  v("metric", c.metric,
    text("metric whose drop is the importance: r2 | auc | log_loss | accuracy (default: auc "
         "for binary, r2 for regression)"));
  v("min_abs_r2", c.min_abs_r2, range(0, 1, "relative rule: |R^2_test| below this gives reward 0"));
  v("min_splits", c.min_splits, range(0, 1e9, "bart-mean-splits: reward 1 when the mean split count reaches this"));
  v("min_r2", c.min_r2, range(-kInf, 1, "evaluations with test R^2 below this update no posterior (-inf = never)"));
  v("groups", c.groups, text("bundles of feature names permuted together"));
  v("null", c.null,
    text("none (paper 000) | shadow (also beat row-permuted shadow columns) | paired (also pass a one-sided t-test "
         "over the B drops); docs/null.md"));
  v("shadows", c.shadows, range(1, 100000, "shadow: shadow columns per evaluation (19: noise beats all with p = 5%)"));
  v("shadow_quantile", c.shadow_quantile, range(0, 1, "shadow: quantile of the shadow drops to beat (1 = max)"));
  v("alpha", c.alpha, above(0, 0.5, "paired: level of the one-sided t-test over the B permutation drops"));
}

void visit_bandit(BanditConfig& c, KeyVisitor& v) {
  v("policy", c.policy, text("super-arm policy"));
  v("iterations", c.iterations,
    range(1, 1e9, "iterations (offline); online: must equal passes × periods × iterations_per_period if given"));
  v("mode", c.mode, text("offline bootstrap or online periods"));
  v("iterations_per_period", c.iterations_per_period, range(1, 1e6, "online: iterations on each period"));
  v("passes", c.passes, range(1, 1e6, "online: passes over the periods"));
  v("rebatch", c.rebatch,
    text("online: none (passes replay the batches) | bootstrap (resample all rows and re-cut the batches before "
         "each further pass, paper 003 section 5.2)"));
  v("time_series", c.time_series, text("online: keep row order, test = last rows of the period"));
  v("arms_per_round", c.arms_per_round, range(1, 1e6, "G: super-arms per round"));
  v("max_features", c.max_features, above(0, 1, "cap on |S| as a fraction of p"));
  v("prior_alpha", c.prior_alpha, above(0, 1e9, "Beta prior alpha"));
  v("prior_beta", c.prior_beta, above(0, 1e9, "Beta prior beta"));
  v("unplayed_as_failures", c.unplayed_as_failures, text("count unplayed arms as failures"));
  v("test_fraction", c.test_fraction, above(0, 0.9, "share of rows held out for importance"));
  v("bootstrap", c.bootstrap, text("offline: bootstrap the training rows"));
  v("max_redraws", c.max_redraws, range(1, 1e6, "TTTS: bound on redraws of S'"));
  v("tvs_c", c.tvs_c, Spec{0, 1, {}, "TVS C in (0,1): threshold log(1/C)/log((1+C)/C)", true, true});
  v("tvs_q", c.tvs_q, range(0, 1e8, "TVS known model size q (0 = unknown)"));
  v("stop", c.stop, text("stopping rule"));
  v("stop_window", c.stop_window, range(0, 1e9, "K for the stability rules (0 = 50 / 100)"));
}

void visit_tuning(TuningConfig& c, KeyVisitor& v) {
  v("enabled", c.enabled, text("tune the estimator by grid search + k-fold CV before the first round (gbm and hgb)"));
  v("folds", c.folds, range(2, 100, "k of the k-fold cross-validation"));
  v("period", c.period, range(0, 1e7, "period whose rows are tuned on (0 = the first)"));
  v("shuffle", c.shuffle, text("shuffle rows before cutting folds (false = contiguous folds)"));
  // Each value is checked against the bounds of the [estimator] gbm key of the same name; [] keeps that key's value.
  v("learning_rate", c.learning_rate, above(0, 1, "grid of estimator.learning_rate ([] = keep)"));
  v("n_estimators", c.n_estimators, range(1, 1e6, "grid of estimator.n_estimators ([] = keep)"));
  v("max_leaves", c.max_leaves, range(0, 1e6, "grid of estimator.max_leaves ([] = keep)"));
  v("max_depth", c.max_depth, range(0, 100, "grid of estimator.max_depth ([] = keep)"));
  v("min_child_weight", c.min_child_weight, range(0, kInf, "grid of estimator.min_child_weight ([] = keep)"));
  v("lambda", c.lambda, range(0, kInf, "grid of estimator.lambda ([] = keep)"));
}

}  // namespace

void BanditParams::visit_section(std::string_view section, KeyVisitor& visitor) {
  if (section == "reward") {
    visit_reward(reward, visitor);
  } else if (section == "bandit") {
    visit_bandit(bandit, visitor);
    // Set by the parser, not a key: an online run refuses a given value other than its schedule's length.
    if (visitor.given("iterations")) bandit.iterations_given = true;
  } else if (section == "tuning") {
    visit_tuning(tuning, visitor);
  }
}

void BanditParams::validate(const JobConfig& job) const {
  validate_bandit_sections(job);
}

MethodDescription bandit_description() {
  MethodDescription description;
  description.name = "bandit";
  description.sections = {"reward", "bandit", "tuning"};
  description.make_params = [] { return std::make_unique<BanditParams>(); };
  return description;
}

JobConfig bandit_job() {
  return parse_job({bandit_description()}, "", "the bandit's defaults");
}

namespace {
/// The job's BanditParams (const or not), or a ConfigError.
template <class Job>
auto& params_of(Job& job) {
  auto* params = job.method.params.template as<BanditParams>();
  if (params == nullptr)
    throw ConfigError("method.name = \"" + job.method.name +
                      "\" without the bandit's parameters (parse the job with methods::catalog(), or start from "
                      "bandit_job())");
  return *params;
}
}  // namespace

const BanditParams& bandit_params(const JobConfig& job) {
  return params_of(job);
}

BanditParams& bandit_params(JobConfig& job) {
  return params_of(job);
}

// ---- cross-key checks ------------------------------------------------------------------------------------------

namespace {

/// data.batch_size and bandit.rebatch cut online batches (data/batches.hpp).
void validate_batches(const JobConfig& job) {
  const bool online = bandit_config(job).mode == Mode::Online;
  if (job.data.batch_size > 0 && !online)
    throw ConfigError("data.batch_size = " + std::to_string(job.data.batch_size) +
                      " cuts online batches and needs bandit.mode = \"online\"");
  if (bandit_config(job).rebatch == Rebatch::None) return;
  if (!online)
    throw ConfigError(
        "bandit.rebatch = \"bootstrap\" re-cuts the batches of online passes and needs bandit.mode = "
        "\"online\"");
  if (bandit_config(job).time_series)
    throw ConfigError(
        "bandit.rebatch = \"bootstrap\" resamples rows, which breaks the row order bandit.time_series = "
        "true keeps: use one or the other");
}

}  // namespace

void validate_bandit_sections(const JobConfig& job) {
  validate_batches(job);
  if (reward_config(job).rule == RewardRule::LassoNonzero && job.estimator.name != EstimatorName::Lasso)
    throw ConfigError("reward.rule = \"lasso-nonzero\" needs estimator.name = \"lasso\" (got \"" +
                      std::string(name_of(job.estimator.name)) + "\")");
  const bool bart_rule =
      reward_config(job).rule == RewardRule::BartLastDraw || reward_config(job).rule == RewardRule::BartMeanSplits;
  if (bart_rule && job.estimator.name != EstimatorName::Bart)
    throw ConfigError("reward.rule = \"" + std::string(name_of(reward_config(job).rule)) +
                      "\" reads BART's split counts and needs estimator.name = \"bart\" (got \"" +
                      std::string(name_of(job.estimator.name)) + "\")");
  if (reward_config(job).rule != RewardRule::BartMeanSplits &&
      reward_config(job).min_splits != RewardConfig{}.min_splits)
    throw ConfigError("reward.min_splits is used by reward.rule = \"bart-mean-splits\" only (got \"" +
                      std::string(name_of(reward_config(job).rule)) + "\")");
  if (bandit_config(job).mode == Mode::Offline && job.data.source == SourceKind::Simulate && job.data.periods != 1)
    throw ConfigError("data.periods = " + std::to_string(job.data.periods) +
                      " needs bandit.mode = \"online\" (offline runs use one data set)");
  if (bandit_config(job).tvs_q > 0 && bandit_config(job).policy != PolicyKind::Tvs)
    throw ConfigError("bandit.tvs_q is only used with bandit.policy = \"tvs\"");
  validate_reward_null(reward_config(job));
  const Metric metric = job_metric(job.data, reward_config(job));
  if (!metric_fits_task(metric, job.data.task))
    throw ConfigError("reward.metric = \"" + std::string(name_of(metric)) + "\" does not fit data.task = \"" +
                      std::string(name_of(job.data.task)) + "\" (" +
                      (job.data.task == Task::Binary ? "binary targets take auc, log_loss or accuracy"
                                                     : "regression targets take r2") +
                      ")");
  if (metric == Metric::LogLoss && reward_config(job).min_r2 > -std::numeric_limits<double>::infinity())
    throw ConfigError("reward.min_r2 = " + std::to_string(reward_config(job).min_r2) +
                      " needs a metric where higher is better (r2, auc, accuracy); reward.metric = \"log_loss\" is a "
                      "loss");
  validate_tuning(tuning_config(job), job.estimator);
  if (tuning_config(job).enabled && job.data.task == Task::Binary)
    throw ConfigError("tuning.enabled = true needs data.task = \"regression\": the grid search scores its folds by R²");
}

void validate_reward_null(const RewardConfig& reward) {
  if (reward.null == RewardNull::None) {
    if (reward.shadows != RewardConfig{}.shadows || reward.shadow_quantile != 1.0 || reward.alpha != 0.05)
      throw ConfigError(
          "reward.shadows, reward.shadow_quantile and reward.alpha need reward.null = \"shadow\" or "
          "\"paired\" (reward.null is \"none\")");
    return;
  }
  const std::string null_name(name_of(reward.null));
  if (reward.rule != RewardRule::Absolute && reward.rule != RewardRule::Relative)
    throw ConfigError("reward.null = \"" + null_name + "\" needs reward.rule = \"absolute\" or \"relative\" (got \"" +
                      std::string(name_of(reward.rule)) + "\")");
  if (reward.null == RewardNull::Paired && reward.repeats < 2)
    throw ConfigError("reward.null = \"paired\" tests the B permutation drops and needs reward.repeats >= 2 (got " +
                      std::to_string(reward.repeats) + ")");
  if (reward.null == RewardNull::Shadow && reward.alpha != 0.05)
    throw ConfigError("reward.alpha is used by reward.null = \"paired\", not \"shadow\"");
  if (reward.null == RewardNull::Paired && (reward.shadows != RewardConfig{}.shadows || reward.shadow_quantile != 1.0))
    throw ConfigError("reward.shadows and reward.shadow_quantile are used by reward.null = \"shadow\", not \"paired\"");
}

void validate_tuning(const TuningConfig& tuning, const EstimatorConfig& estimator) {
  if (!tuning.enabled) return;
  if (estimator.name != EstimatorName::Gbm && estimator.name != EstimatorName::Hgb)
    throw ConfigError("tuning.enabled = true needs estimator.name = \"gbm\" or \"hgb\" (got \"" +
                      std::string(name_of(estimator.name)) + "\"): only their parameters are tunable");
  if (tuning.folds < 2)
    throw ConfigError("tuning.folds = " + std::to_string(tuning.folds) + " is out of range: must be at least 2");
  if (tuning.period < 0)
    throw ConfigError("tuning.period = " + std::to_string(tuning.period) + " is out of range: must be >= 0");
}

}  // namespace bfs

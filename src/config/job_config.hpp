#pragma once
// One aggregate struct per job-file section (docs/design.md §5). Each field is declared here once with its default; its
// bounds, allowed values and description live next to it in the schema (config/schema.cpp), which drives parsing,
// validation, --set overrides and the canonical dump stored in results.
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/estimator_config.hpp"
#include "config/method_params.hpp"
#include "core/task.hpp"

namespace bfs {

/// data.source: simulated batches, an HDF5 file in our schema, or a CSV file.
enum class SourceKind { Simulate, Hdf5, Csv };
/// data.dgp: the data-generating processes with known truth (simulate/dgp.hpp holds their formulas); friedman1-corr
/// and forest are [TVS]'s §6.1 designs, the next four [FIRST]'s (eqs. 16–18 and §3.3).
/// cmab-hte is not an (X, y) design: it simulates contextual-bandit logs ([CMAB §3.1]) for method cmab-scores.
enum class Dgp {
  Friedman1,
  Friedman3,
  Liang,
  Linear,
  Friedman1Corr,
  Forest,
  Ishigami,
  HeavyTailed,
  FriedmanMod,
  IshigamiClassic,
  CmabHte
};
/// data.knockoffs (data/knockoffs.hpp): no knockoff columns, or second-order Gaussian model-X knockoffs of the
/// data's columns appended to every loaded period ([TVS §7.2]).
enum class Knockoffs { None, Gaussian, GaussianSdp };
constexpr std::array<std::pair<SourceKind, std::string_view>, 3> enum_table(SourceKind) {
  return {{{SourceKind::Simulate, "simulate"}, {SourceKind::Hdf5, "hdf5"}, {SourceKind::Csv, "csv"}}};
}
constexpr std::array<std::pair<Dgp, std::string_view>, 11> enum_table(Dgp) {
  return {{{Dgp::Friedman1, "friedman1"},
           {Dgp::Friedman3, "friedman3"},
           {Dgp::Liang, "liang"},
           {Dgp::Linear, "linear"},
           {Dgp::Friedman1Corr, "friedman1-corr"},
           {Dgp::Forest, "forest"},
           {Dgp::Ishigami, "ishigami"},
           {Dgp::HeavyTailed, "heavy-tailed"},
           {Dgp::FriedmanMod, "friedman-mod"},
           {Dgp::IshigamiClassic, "ishigami-classic"},
           {Dgp::CmabHte, "cmab-hte"}}};
}
constexpr std::array<std::pair<Knockoffs, std::string_view>, 3> enum_table(Knockoffs) {
  return {{{Knockoffs::None, "none"}, {Knockoffs::Gaussian, "gaussian"}, {Knockoffs::GaussianSdp, "gaussian-sdp"}}};
}

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

struct DataConfig {
  SourceKind source = SourceKind::Simulate;
  std::string path;                   ///< hdf5 / csv file
  std::string target;                 ///< CSV target column
  std::vector<std::string> features;  ///< optional CSV feature subset (empty = all but target)
  Dgp dgp = Dgp::Friedman1;           ///< simulate only
  std::int64_t n = 300;
  std::int64_t p = 1000;
  double rho = 0.0;                 ///< simulate: [FIRST]'s copula correlation, Σ_jk = ρ^|j−k|, in [0, 1)
  std::uint64_t seed = 0;           ///< simulate: data seed (0 = use run.seed)
  int periods = 1;                  ///< simulate: number of fresh batches (online mode)
  std::int64_t noise_features = 0;  ///< N(0,1) columns appended on the fly
  Task task = Task::Regression;     ///< regression | binary (labels validated by data/labels.hpp)
  /// binary: the label that becomes 1 when y's two values are neither {0,1} nor {−1,1}.
  std::optional<double> positive_label;
  /// Model-X knockoff columns appended on the fly, between the data's columns and the noise columns.
  Knockoffs knockoffs = Knockoffs::None;
  /// Online: cut a data set without periods into batches of this many rows, in row order (0 = off).
  std::int64_t batch_size = 0;
  // Contextual-bandit logs (context, arm served, 0/1 reward), read instead of (X, y) by a method whose description
  // says logged_data (cmab-scores, [CMAB]); refused for the others.
  std::string arm;                       ///< CSV: the column of the arm served
  std::string reward;                    ///< CSV: the column of the 0/1 reward
  std::vector<std::string> categorical;  ///< CSV: numeric columns to treat as categorical (codes, sorted labels)
  std::vector<std::string> arms;         ///< the allowed arm labels (empty = those seen, sorted)
};

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

/// [method]: the method's name and its own keys (config/method_params.hpp; the registry in src/methods/ supplies
/// each method's parameter struct).
struct MethodConfig {
  std::string name = "bandit";
  MethodParamsBox params;  ///< the chosen method's keys besides name (empty when it has none)
  /// Sections this method does not read (other methods' sections; [estimator] for a method without one): refused
  /// in its job file and left out of its canonical dump. Empty for the bandit, which reads every section.
  std::vector<std::string> unused_sections;
  /// The method reads contextual-bandit logs (data.arm, data.reward, ...) rather than (X, y): MethodDescription.
  bool logged_data = false;
  /// The method takes binary targets only (MethodDescription): data.task defaults to "binary".
  bool binary_only = false;
  bool uses(const std::string& section) const {
    for (const auto& s : unused_sections)
      if (s == section) return false;
    return true;
  }
};

struct RunConfig {
  std::uint64_t seed = 1;
  std::string out = "results/run";
  int threads = 0;  ///< 0 = all hardware threads
  int checkpoint_every = 0;
  double progress_seconds = 2.0;
  /// Worker ranks per bandit group (MPI runs): 0 = one group per arm of a round, min(arms_per_round, workers);
  /// N = max(1, min(arms_per_round, workers / N)) groups, so a group of N or more ranks (a node, several nodes)
  /// evaluates each arm and, with random_forest or hgb, fits it together. Results do not depend on it.
  int group_size = 0;
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

/// The metric a job scores with: reward.metric, or the task's default.
inline Metric job_metric(const DataConfig& data, const RewardConfig& reward) {
  return reward.metric ? *reward.metric : default_metric(data.task);
}

struct JobConfig {
  DataConfig data;
  EstimatorConfig estimator;
  RewardConfig reward;
  BanditConfig bandit;
  MethodConfig method;
  RunConfig run;
  TuningConfig tuning;
};

}  // namespace bfs

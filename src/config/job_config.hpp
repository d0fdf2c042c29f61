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
/// data.missing: how estimators treat missing cells (native where the estimator has a rule, else the training
/// rows' column mean; impute everywhere; or refuse the data).
enum class MissingRule { Native, Impute, Error };
constexpr std::array<std::pair<MissingRule, std::string_view>, 3> enum_table(MissingRule) {
  return {{{MissingRule::Native, "native"}, {MissingRule::Impute, "impute"}, {MissingRule::Error, "error"}}};
}
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

struct DataConfig {
  SourceKind source = SourceKind::Simulate;
  std::string path;                   ///< hdf5 / csv file
  std::string target;                 ///< CSV target column
  std::vector<std::string> features;  ///< optional CSV feature subset (empty = all but target)
  std::vector<std::string> exclude;   ///< CSV columns that are not features (a date, an id)
  /// CSV cells that mean "missing": pandas' default NA tokens (read_csv's na_values), the empty cell included.
  std::vector<std::string> na_values = {"",     "#N/A",   "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN",
                                        "-nan", "1.#IND", "1.#QNAN",  "<NA>", "N/A",     "NA",       "NULL",
                                        "NaN",  "None",   "n/a",      "nan",  "null"};
  MissingRule missing = MissingRule::Native;
  /// Categorical features: levels seen in fewer rows pool into one level "other".
  std::int64_t min_level_count = 10;
  /// Categorical features: more levels than this (after pooling) is an error naming the column.
  std::int64_t max_levels = 64;
  Dgp dgp = Dgp::Friedman1;  ///< simulate only
  std::int64_t n = 300;
  std::int64_t p = 1000;
  double rho = 0.0;                 ///< simulate: [FIRST]'s copula correlation, Σ_jk = ρ^|j−k|, in [0, 1)
  std::uint64_t seed = 0;           ///< simulate: data seed (0 = use run.seed)
  int periods = 1;                  ///< simulate: number of fresh batches (online mode)
  std::int64_t noise_features = 0;  ///< N(0,1) columns appended on the fly
  Task task = Task::Regression;     ///< regression | binary (labels validated by data/labels.hpp)
  /// binary: the label that becomes 1 when y's two values are neither {0,1} nor {−1,1}: a number, or a text for a
  /// target column of text labels.
  std::optional<ClassLabel> positive_label;
  /// Model-X knockoff columns appended on the fly, between the data's columns and the noise columns.
  Knockoffs knockoffs = Knockoffs::None;
  /// Online: cut a data set without periods into batches of this many rows, in row order (0 = off).
  std::int64_t batch_size = 0;
  // Contextual-bandit logs (context, arm served, 0/1 reward), read instead of (X, y) by a method whose description
  // says logged_data (cmab-scores, [CMAB]); refused for the others.
  std::string arm;                       ///< CSV: the column of the arm served
  std::string reward;                    ///< CSV: the column of the 0/1 reward
  std::vector<std::string> categorical;  ///< CSV: numeric columns to treat as categorical (text ones always are)
  std::vector<std::string> arms;         ///< the allowed arm labels (empty = those seen, sorted)
};

/// [method]: the method's name and its own keys (config/method_params.hpp; the registry in src/methods/ supplies
/// each method's parameter struct).
struct MethodConfig {
  std::string name = "bandit";
  MethodParamsBox params;  ///< the chosen method's keys besides name (empty when it has none)
  /// The method's own sections (MethodDescription::sections), which params visits: read, dumped, described.
  std::vector<std::string> sections;
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
  std::string out = "results/run";  ///< a job file's default is results/<its stem> (load_job)
  bool out_given = false;           ///< run.out set by the job file or --set
  int threads = 0;                  ///< 0 = all hardware threads
  int checkpoint_every = 0;
  double progress_seconds = 2.0;
  /// Worker ranks per bandit group (MPI runs): 0 = one group per arm of a round, min(arms_per_round, workers);
  /// N = max(1, min(arms_per_round, workers / N)) groups, so a group of N or more ranks (a node, several nodes)
  /// evaluates each arm and, with random_forest or hgb, fits it together. Results do not depend on it.
  int group_size = 0;
  /// Level of the interval written beside each importance (importance_lo, importance_hi): the bandit's equal-tailed
  /// credible interval of each feature's Beta posterior; an aggregate's range of the importance over its runs.
  double interval = 0.9;
};

/// [stability]: stability selection with complementary pairs around any method ([ShahSamworth §2],
/// docs/stability.md): the method runs on both halves of `pairs` random splits of the rows, and the features that at
/// least a share `threshold` of those 2·pairs runs select are the result. Either the threshold is given, or the
/// expected number of false selections wanted (`max_false`), from which the threshold follows by
/// [MeinshausenBuhlmann Thm 1]; neither: threshold 0.6. Off by default: a job without the section is unchanged (the
/// section is dumped only when enabled, so no canonical text or job hash changes).
struct StabilityConfig {
  bool enabled = false;
  int pairs = 50;                   ///< B: complementary pairs of half-samples (2B runs)
  std::optional<double> threshold;  ///< π_thr in (0.5, 1]
  std::optional<double> max_false;  ///< the E[V] wanted; π_thr derived from the measured q
};

/// π_thr when neither stability.threshold nor stability.max_false is given: the low end of [MeinshausenBuhlmann
/// §2.4]'s range 0.6–0.9, over which they found results insensitive.
inline constexpr double kDefaultStabilityThreshold = 0.6;

struct JobConfig {
  DataConfig data;
  EstimatorConfig estimator;
  MethodConfig method;
  RunConfig run;
  StabilityConfig stability;
};

}  // namespace bfs

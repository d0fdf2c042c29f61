// HIE/HDD feature scores of contextual-bandit logs as a method ([CMAB §2, eq. 1]): every feature is
// binned, its (bin, arm, reward) cells counted and scored independently, so the features are the Executor's tasks.
// Features go in waves of kWaveColumns per rank: each rank reads only its share of a wave's columns (Executor::block,
// the partition map uses), so a rank holds at most rows × kWaveColumns values of X, never all of it. A task's
// doubles are its scores, its bins and edges and its cells (counts below 2^53, exact as doubles); results come back
// in feature order on every rank, so result.h5 does not depend on the rank or thread count. A stop signal ends the
// run at a wave boundary with a checkpoint of the features scored (cmab_checkpoint.hpp); --resume scores the rest.
//
// Own datasets (group /cmab): hie, hdd, kl, ed, chi, mi [p]; bins [p] (bins used, the NaN bin included when it
// holds rows); bin_edges [p, W + 1] (NaN-padded; W = the widest feature's value bins, at least method.bins);
// cells int64 [p, W + 1, k, 2] (rows with reward 0 / 1; slot W is the NaN bin); arm_labels [k].
//
// select = "shadow" (the default; methods/common/shadow_rule.hpp): the task of a feature with shadows also scores
// its k = shadow_copies shadows — the feature's bins with the log's rows shuffled by the stream (seed, 0, copy,
// Shadow, feature), so a shadow keeps the feature's values and bins and loses their link to (arm, reward) — and
// appends their HIE and HDD. The shadows' eq. 1 score is taken on the features' min-max scale (scores.hpp
// combine_on); a feature is selected when its score beats the r-th largest shadow score, r = ⌊α(S + 1)/p⌋ (α =
// shadow_max_false), or shadow_quantile. Only that threshold, its rank and its bound are written (facts); no shadow
// score is a dataset.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "core/byte_codec.hpp"
#include "core/error.hpp"
#include "data/logged_data.hpp"
#include "methods/cmab/binning.hpp"
#include "methods/cmab/cell_counts.hpp"
#include "methods/cmab/cmab_checkpoint.hpp"
#include "methods/cmab/cmab_params.hpp"
#include "methods/cmab/scores.hpp"
#include "methods/common/shadow_rule.hpp"
#include "methods/common/top_k.hpp"
#include "methods/method.hpp"
#include "run/data_sources.hpp"
#include "run/truth_metrics.hpp"

namespace bfs {
namespace {

using Clock = std::chrono::steady_clock;
constexpr Index kWaveColumns = 64;      // columns a rank reads at once: the HDF5 chunk width of a log's /X
constexpr std::size_t kScoreCount = 6;  // hie, hdd, kl, ed, chi, mi: the head of a task's doubles
const char* const kScoreNames[kScoreCount] = {"hie", "hdd", "kl", "ed", "chi", "mi"};

/// The parameters as enums, parsed once (the keys are checked strings).
struct Settings {
  int bins = 10;
  cmab::Missing missing = cmab::Missing::Bin;
  cmab::HieReference reference = cmab::HieReference::InBin;
  int control_arm = 0;
  std::vector<std::uint8_t> has_shadow;  ///< per feature, select = "shadow": scored with shadows (empty: none)
  std::int64_t copies = 0;               ///< shadows per feature with shadows (method.shadow_copies)
  std::uint64_t seed = 0;                ///< the run's seed, for the shadows' row shuffles
};

Settings settings_of(const cmab::CmabParams& params, const LoggedHeader& header, std::uint64_t seed) {
  Settings s;
  s.seed = seed;
  s.bins = params.bins;
  s.missing = params.missing;
  s.reference = params.hie_reference;
  if (!params.control_arm.empty()) {
    const auto& labels = header.arm_labels;
    const auto it = std::find(labels.begin(), labels.end(), params.control_arm);
    if (it == labels.end()) {
      std::string known;
      for (const auto& label : labels) known += (known.empty() ? "\"" : ", \"") + label + "\"";
      throw ConfigError("method.control_arm = \"" + params.control_arm + "\" is not an arm of " + header.origin +
                        " (arms: " + known + ")");
    }
    s.control_arm = static_cast<int>(it - labels.begin());
  }
  methods::check_top_k("select_top", params.select_top, header.cols, header.origin);
  if (params.select == cmab::Select::Shadow) {
    const std::int64_t count = methods::shadow_count(params.shadows, header.cols, header.origin);
    s.copies = params.shadow_copies;
    s.has_shadow.assign(static_cast<std::size_t>(header.cols), 0);
    for (const FeatureId f : methods::shadow_sources(header.cols, count, seed))
      s.has_shadow[static_cast<std::size_t>(f)] = 1;
  }
  return s;
}

/// The HIE and HDD of copy `copy` of feature `feature`'s shadow: its bins at the rows of that copy's shuffle.
std::pair<double, double> shadow_scores(const cmab::FeatureBins& bins, FeatureId feature, std::int64_t copy,
                                        const LoggedHeader& header, const Settings& s) {
  const std::vector<std::int64_t> perm = methods::shadow_rows(header.rows, s.seed, feature, copy);
  cmab::FeatureBins shadow = bins;
  for (std::size_t r = 0; r < shadow.bin.size(); ++r) shadow.bin[r] = bins.bin[static_cast<std::size_t>(perm[r])];
  const int arms = static_cast<int>(header.arm_labels.size());
  const cmab::FeatureScores f =
      cmab::score_feature(cmab::count_cells(shadow, header.arm, arms, header.reward), s.reference, s.control_arm);
  return {f.hie, f.hdd};
}

bool has_shadow(const Settings& s, std::size_t feature) {
  return !s.has_shadow.empty() && s.has_shadow[feature] != 0;
}

/// One feature's task result: scores, value bins, has-NaN, the edge count and edges, the cells, then (with a shadow)
/// the shadow's HIE and HDD.
std::vector<double> score_column(std::span<const float> column, std::size_t feature, bool categorical,
                                 const std::string& name, const LoggedHeader& header, const Settings& s) {
  if (s.missing == cmab::Missing::Error) {  // named here, where the row's place in the file is known
    const auto nan = std::find_if(column.begin(), column.end(), [](float v) { return std::isnan(v); });
    if (nan != column.end())
      throw InputError(row_location(header, nan - column.begin()) + ", column '" + name +
                       "': the value is missing (an empty cell or NaN) and [method] missing = \"error\"; set "
                       "missing = \"bin\" to give missing values a bin of their own");
  }
  const cmab::FeatureBins bins = cmab::bin_feature(column, categorical, s.bins, s.missing, name);
  const int arms = static_cast<int>(header.arm_labels.size());
  const cmab::CellCounts cells = cmab::count_cells(bins, header.arm, arms, header.reward);
  const cmab::FeatureScores f = cmab::score_feature(cells, s.reference, s.control_arm);
  std::vector<double> out = {f.hie,
                             f.hdd,
                             f.kl,
                             f.ed,
                             f.chi,
                             f.mi,
                             static_cast<double>(bins.value_bins),
                             bins.has_missing ? 1.0 : 0.0,
                             static_cast<double>(bins.edges.size())};
  out.insert(out.end(), bins.edges.begin(), bins.edges.end());
  for (const std::int64_t c : cells.count) out.push_back(static_cast<double>(c));
  if (has_shadow(s, feature)) {
    for (std::int64_t copy = 0; copy < s.copies; ++copy) {
      const auto [hie, hdd] = shadow_scores(bins, static_cast<FeatureId>(feature), copy, header, s);
      out.push_back(hie);
      out.push_back(hdd);
    }
  }
  return out;
}

/// True when `t` has the layout score_column gives for a log of `arms` arms, with the scores of `shadows` shadows
/// (a checkpoint's task results are checked before add_datasets indexes them).
bool well_formed(const std::vector<double>& t, std::size_t arms, std::size_t shadows) {
  if (t.size() < 9) return false;
  const auto is_count = [](double v) { return v >= 0 && v < 1e9 && std::floor(v) == v; };
  const double value_bins = t[6], edge_count = t[8];
  if (!is_count(value_bins) || !is_count(edge_count)) return false;
  return t.size() ==
         9 + static_cast<std::size_t>(edge_count) + (static_cast<std::size_t>(value_bins) + 1) * arms * 2 + 2 * shadows;
}

/// Checkpoints and resume at wave boundaries, on the methods' common run-state path (methods::Checkpointing: rank
/// 0 reads and checks the checkpoint, every rank gets the scored features).
class Checkpointing {
 public:
  Checkpointing(const MethodRun& run, const LoggedHeader& header, const Settings& settings)
      : common_(run, cmab::logged_fingerprint(header)), header_(header), settings_(settings) {}

  /// The task results to start from: none, or the checkpoint's on --resume (the same on every rank).
  std::vector<std::vector<double>> resumed() const {
    const std::optional<std::string> bytes = common_.resume(cmab::read_cmab_checkpoint, [&](const auto& checkpoint) {
      const std::string& path = common_.path();
      const std::size_t done = checkpoint.scored.size(), p = static_cast<std::size_t>(header_.cols);
      if (done >= p)
        throw InputError(path + " holds " + std::to_string(done) + " scored features, but the log has " +
                         std::to_string(p) + ": not a checkpoint of an unfinished run");
      for (std::size_t j = 0; j < done; ++j)
        if (!well_formed(checkpoint.scored[j], header_.arm_labels.size(),
                         has_shadow(settings_, j) ? static_cast<std::size_t>(settings_.copies) : 0))
          throw InputError(path + ": the scores of feature " + std::to_string(j) + " are damaged");
      common_.log_resume("feature " + std::to_string(done) + " of " + std::to_string(p));
      ByteWriter w;
      w.put_vectors(checkpoint.scored);
      return w.take();
    });
    if (!bytes) return {};
    ByteReader r(*bytes, "cmab-scores checkpoint");
    std::vector<std::vector<double>> scored = r.get_vectors<double>("feature");
    r.finish();
    return scored;
  }

  /// After wave `wave` of this start (1-based): true when the run must stop (the checkpoint then holds `scored`).
  bool stop_after(std::int64_t wave, const std::vector<std::vector<double>>& scored) const {
    return common_.stop_after(wave, [&] { cmab::write_cmab_checkpoint(common_.path(), {common_.key(), scored}); });
  }

 private:
  methods::Checkpointing common_;
  const LoggedHeader& header_;
  const Settings& settings_;
};

/// Every feature's task result, in feature order, on every rank; `interrupted` when a stop request ended the
/// scoring after `scored.size()` features (a checkpoint holds them).
struct Scoring {
  std::vector<std::vector<double>> scored;
  bool interrupted = false;
};

/// After `scored` of the `p` features: the fraction scored. The top select_top are chosen once every feature is
/// scored: no selected count before.
RoundReport progress(std::size_t scored, std::size_t p) {
  RoundReport report;  // field by field: GCC 12 warns on designated initializers that leave members defaulted
  report.round = static_cast<std::int32_t>(scored);
  report.total_rounds = static_cast<std::int32_t>(p);
  report.unit = "feature";
  report.label = "scored";
  report.value = static_cast<double>(scored) / static_cast<double>(p);
  return report;
}

Scoring score_all(const MethodRun& run, const LoggedSource& source, const Settings& s,
                  const Checkpointing& checkpointing) {
  const LoggedHeader& header = source.header();
  const auto rows = static_cast<std::size_t>(header.rows);
  const Index p = header.cols;
  const Index wave = kWaveColumns * run.comm.size();
  Scoring out{checkpointing.resumed()};
  std::vector<std::vector<double>>& all = out.scored;
  all.reserve(static_cast<std::size_t>(p));
  std::int64_t waves = 0;
  for (auto first = static_cast<Index>(all.size()); first < p; first += wave) {
    const auto count = static_cast<std::size_t>(std::min(wave, p - first));
    const auto [begin, end] = run.executor.block(count);
    const std::vector<float> mine = source.columns(first + static_cast<Index>(begin), static_cast<Index>(end - begin));
    auto task = [&, begin = begin](std::size_t index) {
      const auto feature = static_cast<std::size_t>(first) + index;
      const std::span<const float> column(mine.data() + (index - begin) * rows, rows);
      return score_column(column, feature, header.categorical[feature] != 0, header.feature_names[feature], header, s);
    };
    for (auto& result : run.executor.map(count, task)) all.push_back(std::move(result));
    if (run.on_round && run.comm.rank() == 0) {
      run.on_round(progress(all.size(), static_cast<std::size_t>(p)));
    }
    if (first + static_cast<Index>(count) < p && checkpointing.stop_after(++waves, all)) {
      out.interrupted = true;
      return out;
    }
  }
  return out;
}

/// The /cmab datasets from the task results; fills importance (eq. 1) too.
void add_datasets(const std::vector<std::vector<double>>& scored, const LoggedHeader& header,
                  const cmab::CmabParams& params, MethodResult& r) {
  const std::size_t p = scored.size();
  const std::size_t arms = header.arm_labels.size();
  std::vector<std::vector<double>> score(kScoreCount, std::vector<double>(p));
  std::vector<std::int32_t> bins_used(p);
  std::size_t width = static_cast<std::size_t>(params.bins);
  for (std::size_t j = 0; j < p; ++j) width = std::max(width, static_cast<std::size_t>(scored[j][6]));
  std::vector<double> edges(p * (width + 1), std::numeric_limits<double>::quiet_NaN());
  std::vector<std::int64_t> cells(p * (width + 1) * arms * 2, 0);
  for (std::size_t j = 0; j < p; ++j) {
    const std::vector<double>& t = scored[j];
    for (std::size_t k = 0; k < kScoreCount; ++k) score[k][j] = t[k];
    const auto value_bins = static_cast<std::size_t>(t[6]);
    const bool has_missing = t[7] != 0.0;
    const auto edge_count = static_cast<std::size_t>(t[8]);
    bins_used[j] = static_cast<std::int32_t>(value_bins + (has_missing ? 1 : 0));
    std::copy_n(t.begin() + 9, edge_count, edges.begin() + static_cast<std::ptrdiff_t>(j * (width + 1)));
    const double* counts = t.data() + 9 + edge_count;  // [value_bins + 1][arms][2], the last bin = NaN
    for (std::size_t b = 0; b <= value_bins; ++b) {
      const std::size_t slot = b == value_bins ? width : b;
      for (std::size_t c = 0; c < arms * 2; ++c)
        cells[((j * (width + 1) + slot) * arms * 2) + c] = static_cast<std::int64_t>(counts[b * arms * 2 + c]);
    }
  }
  r.importance = cmab::combine(score[0], score[1], params.alpha_hie, params.alpha_hdd);
  for (std::size_t k = 0; k < kScoreCount; ++k) r.datasets.push_back({kScoreNames[k], score[k], {}});
  r.datasets.push_back({"bins", bins_used, {}});
  r.datasets.push_back({"bin_edges", edges, {p, width + 1}});
  r.datasets.push_back({"cells", cells, {p, width + 1, arms, 2}});
  r.datasets.push_back({"arm_labels", header.arm_labels, {}});
  r.feature_columns = {"hie", "hdd", "kl", "ed", "chi", "mi", "bins"};
}

/// select = "shadow": the shadows' eq. 1 scores on the features' min-max scale, the threshold of the rule
/// (shadow_rule.hpp), and r.selected = the features whose importance beats it; returns the threshold.
methods::ShadowThreshold select_by_shadows(const std::vector<std::vector<double>>& scored,
                                           const cmab::CmabParams& params, const Settings& s, MethodResult& r) {
  std::vector<double> hie, hdd, shadow_hie, shadow_hdd;
  for (std::size_t j = 0; j < scored.size(); ++j) {
    const std::vector<double>& t = scored[j];
    hie.push_back(t[0]);
    hdd.push_back(t[1]);
    if (!has_shadow(s, j)) continue;
    for (auto at = t.size() - static_cast<std::size_t>(2 * s.copies); at < t.size(); at += 2) {
      shadow_hie.push_back(t[at]);
      shadow_hdd.push_back(t[at + 1]);
    }
  }
  const std::vector<double> shadow =
      cmab::combine_on(hie, hdd, shadow_hie, shadow_hdd, params.alpha_hie, params.alpha_hdd);
  const methods::ShadowThreshold threshold = methods::shadow_rule(shadow, static_cast<std::int64_t>(scored.size()),
                                                                  params.shadow_quantile, params.shadow_max_false);
  r.selected = methods::select_above(r.importance, threshold.value);
  return threshold;
}

/// The selection's facts; with shadows, what the rule selected (also logged by rank 0).
void add_selection_facts(const MethodRun& run, const cmab::CmabParams& params, const Settings& s,
                         const methods::ShadowThreshold& threshold, MethodResult& r) {
  r.facts.push_back({"select", std::string(name_of(params.select))});
  if (params.select != cmab::Select::Shadow) return;
  const auto shadows = static_cast<std::int64_t>(std::count(s.has_shadow.begin(), s.has_shadow.end(), 1)) * s.copies;
  methods::add_shadow_facts(r.facts, threshold, shadows, s.copies, params.shadow_quantile, params.shadow_max_false,
                            /*single_threshold=*/true);
  if (run.context.log)
    run.context.log->info(
        "select = \"shadow\": {} of {} features have a combined score above {:.6g}, {} scores (false selections "
        "expected: at most {:.3g})",
        r.selected.size(), r.importance.size(), threshold.value,
        methods::describe_shadow_threshold(threshold, shadows, params.shadow_quantile), threshold.false_bound);
}

/// With a known truth: precision of the top |truth| by the combined score, and whether the truth leads.
void add_truth_facts(MethodResult& r) {
  if (r.truth.empty()) return;
  const std::size_t t = r.truth.size();
  std::size_t hits = 0;
  for (std::size_t j = 0; j < r.rank.size(); ++j)
    if (static_cast<std::size_t>(r.rank[j]) <= t &&
        std::binary_search(r.truth.begin(), r.truth.end(), static_cast<FeatureId>(j)))
      ++hits;
  r.facts.push_back({"precision_at_truth", static_cast<double>(hits) / static_cast<double>(t)});
  r.facts.push_back({"truth_leads", std::int64_t{hits == t ? 1 : 0}});
}

MethodResult make_result(const MethodRun& run, const LoggedHeader& header, const cmab::CmabParams& params,
                         const Settings& s, const std::vector<std::vector<double>>& scored) {
  MethodResult r = result_of(run, "cmab-scores");
  r.group = "cmab";
  r.task = "bandit-log";
  r.data_origin = header.origin;
  r.iterations = static_cast<std::int32_t>(header.cols);
  r.iteration_unit = "features scored";
  r.stop_reason = "every feature scored";
  r.importance_meaning = "combined";
  r.feature_names = header.feature_names;
  add_datasets(scored, header, params, r);
  rank_by_importance(r);
  methods::ShadowThreshold threshold;
  if (params.select == cmab::Select::Shadow) {
    threshold = select_by_shadows(scored, params, s, r);
  } else {
    const std::vector<FeatureId> order = importance_order(r.importance);
    r.selected.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(params.select_top));
    std::sort(r.selected.begin(), r.selected.end());
  }
  if (header.has_truth) {
    r.truth = header.truth;
    r.metrics = truth_metrics(r.selected, r.truth);
    add_truth_facts(r);
  }
  add_selection_facts(run, params, s, threshold, r);
  r.facts.push_back({"n", static_cast<std::int64_t>(header.rows)});
  r.facts.push_back({"arms", static_cast<std::int64_t>(header.arm_labels.size())});
  r.facts.push_back({"control_arm", header.arm_labels[static_cast<std::size_t>(s.control_arm)]});
  r.facts.push_back({"bins", std::int64_t{params.bins}});
  r.facts.push_back({"missing", std::string(name_of(params.missing))});
  r.facts.push_back({"hie_reference", std::string(name_of(params.hie_reference))});
  r.facts.push_back({"alpha_hie", params.alpha_hie});
  r.facts.push_back({"alpha_hdd", params.alpha_hdd});
  return r;
}

class CmabScoresMethod final : public Method {
 public:
  MethodDescription describe() const override {
    MethodDescription description;
    description.name = "cmab-scores";
    description.make_params = [] { return std::make_unique<cmab::CmabParams>(); };
    description.uses_estimator = false;
    description.logged_data = true;
    return description;
  }

  void validate(const JobConfig& job) const override {
    const auto* params = job.method.params.as<cmab::CmabParams>();
    if (params == nullptr)
      throw ConfigError("method.name = \"cmab-scores\" without its parameters (parse the job with methods::catalog())");
    if (params->alpha_hie == 0.0 && params->alpha_hdd == 0.0)
      throw ConfigError(
          "method.alpha_hie = method.alpha_hdd = 0: the combined score (eq. 1) would be 0 for every "
          "feature; give one of them a positive weight");
    if (job.data.periods != 1)
      throw ConfigError("data.periods = " + std::to_string(job.data.periods) + ": cmab-scores reads one log");
    methods::check_shadow_keys(params->shadow_quantile, params->shadow_max_false);
    if (params->select == cmab::Select::Shadow && params->select_top > 0)
      throw ConfigError("method.select_top = " + std::to_string(params->select_top) +
                        " is read only with method.select = \"top\"; the default select = \"shadow\" selects the "
                        "features that beat their shadows. Add select = \"top\" to keep the top " +
                        std::to_string(params->select_top) + ", or remove select_top");
    if (job.data.noise_features != 0)
      throw ConfigError("data.noise_features = " + std::to_string(job.data.noise_features) +
                        " does not apply to cmab-scores (simulate cmab-hte takes data.p)");
  }

  std::optional<MethodResult> run(const MethodRun& run) const override {
    const auto start = Clock::now();
    const auto& params = *run.job.method.params.as<cmab::CmabParams>();
    const std::shared_ptr<const LoggedSource> source =
        run.logged ? run.logged : make_logged_source(run.job.data, run.context.seed);
    const Settings settings = settings_of(params, source->header(), run.context.seed);
    const Checkpointing checkpointing(run, source->header(), settings);
    const Scoring scoring = score_all(run, *source, settings, checkpointing);
    if (run.comm.rank() != 0) return std::nullopt;
    if (scoring.interrupted) {
      MethodResult stopped;
      stopped.method = "cmab-scores";
      stopped.stop_reason = "interrupted after feature " + std::to_string(scoring.scored.size()) + " of " +
                            std::to_string(source->header().cols) + " (checkpoint " + run.control.checkpoint_path + ")";
      return stopped;
    }
    MethodResult result = make_result(run, source->header(), params, settings, scoring.scored);
    result.timings = {{"wall_seconds", std::chrono::duration<double>(Clock::now() - start).count()}};
    report_final(run, progress(scoring.scored.size(), scoring.scored.size()), result);
    return result;
  }
};

}  // namespace

std::unique_ptr<Method> make_cmab_method() {
  return std::make_unique<CmabScoresMethod>();
}

}  // namespace bfs

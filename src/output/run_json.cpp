// run.json: the machine-readable manifest of a run (DESIGN §5). Keys keep insertion order so the file reads
// top-down: identity, run facts, selection, timings, metrics, top features.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "output/detail/ranking.hpp"
#include "output/result_io.hpp"

namespace bfs {
namespace {

/// Number of top features listed in run.json.
constexpr std::size_t kJsonTopFeatures = 25;

/// "tuning": where it ran, the chosen parameters with their CV score, and the whole table (one row per point).
nlohmann::ordered_json tuning_json(const TuningReport& t) {
  using Json = nlohmann::ordered_json;
  Json j;
  j["estimator"] = t.estimator;
  j["period"] = t.period;
  j["rows"] = t.rows;
  j["features"] = t.features;
  j["folds"] = t.folds;
  j["seed"] = t.seed;
  j["points"] = t.points();
  j["seconds"] = t.seconds;
  j["parameters"] = t.parameters;
  j["chosen_index"] = t.chosen;
  auto row = [&](std::size_t i) {
    Json r;
    for (std::size_t c = 0; c < t.parameters.size(); ++c) r[t.parameters[c]] = t.value(i, c);
    r["mean_r2"] = t.mean_r2[i];
    r["std_r2"] = t.std_r2[i];
    return r;
  };
  if (t.chosen >= 0 && static_cast<std::size_t>(t.chosen) < t.points()) j["chosen"] = row(static_cast<std::size_t>(t.chosen));
  Json table = Json::array();
  for (std::size_t i = 0; i < t.points(); ++i) table.push_back(row(i));
  j["table"] = std::move(table);
  return j;
}

}  // namespace

void write_run_json(const RunResult& result, const std::string& path) {
  using Json = nlohmann::ordered_json;
  const std::size_t p = result.feature_names.size();
  if (result.alpha.size() != p || result.beta.size() != p) {
    throw Error(detail::concat("cannot write '", path, "': alpha/beta do not have one entry per feature (", p, ")"));
  }
  const auto means = detail::feature_means(result);
  const auto order = detail::ranking_order(means);
  const auto selected_flag = detail::selected_flags(result, p);
  const auto truth_flag = detail::truth_flags(result, p);

  Json j;
  j["version"] = result.version;
  j["method"] = result.method;
  j["policy"] = result.policy;
  j["estimator"] = result.estimator;
  j["data_origin"] = result.data_origin;
  j["seed"] = result.seed;
  j["ranks"] = result.ranks;
  j["threads"] = result.threads;
  j["iterations"] = result.iterations;
  j["stop_reason"] = result.stop_reason;
  j["num_features"] = p;
  j["num_evaluations"] = result.evaluations.size();

  Json selected = Json::array();
  for (FeatureId k : result.selected) {
    if (k < 0 || static_cast<std::size_t>(k) >= p) {
      throw Error(detail::concat("cannot write '", path, "': selected feature ", k, " is out of range"));
    }
    selected.push_back({{"feature", k}, {"name", result.feature_names[k]}, {"mean", means[k]}});
  }
  j["num_selected"] = result.selected.size();
  j["selected"] = std::move(selected);

  const Timings& t = result.timings;
  for_each_timing(t, [&](const char* name, double value) { j["timings"][name] = value; });
  j["timings"]["per_iteration_seconds"] = result.iterations > 0 ? t.wall_seconds / result.iterations : 0.0;

  if (result.tuning.present) j["tuning"] = tuning_json(result.tuning);

  if (result.metrics.known) {
    j["metrics"] = {{"fdp", result.metrics.fdp},
                    {"power", result.metrics.power},
                    {"hamming", result.metrics.hamming},
                    {"separation_iteration", result.metrics.separation_iteration}};
    j["truth"] = result.truth;
  }

  Json top = Json::array();
  for (std::size_t i = 0; i < std::min(kJsonTopFeatures, order.size()); ++i) {
    const FeatureId k = order[i];
    Json row = {{"rank", i + 1},         {"feature", k},
                {"name", result.feature_names[k]}, {"mean", means[k]},
                {"alpha", result.alpha[k]}, {"beta", result.beta[k]},
                {"selected", static_cast<bool>(selected_flag[k])}};
    if (result.metrics.known) row["true"] = static_cast<bool>(truth_flag[k]);
    top.push_back(std::move(row));
  }
  j["top_features"] = std::move(top);

  detail::write_text_atomic(path, j.dump(2) + "\n");
}

}  // namespace bfs

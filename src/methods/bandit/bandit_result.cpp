#include "methods/bandit/bandit_result.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

#include "data/knockoffs.hpp"
#include "methods/bandit/beta_posterior.hpp"

namespace bfs::bandit {
namespace {

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
  if (t.chosen >= 0 && static_cast<std::size_t>(t.chosen) < t.points())
    j["chosen"] = row(static_cast<std::size_t>(t.chosen));
  Json table = Json::array();
  for (std::size_t i = 0; i < t.points(); ++i) table.push_back(row(i));
  j["table"] = std::move(table);
  return j;
}

/// One column of the evaluation records.
template <class T>
MethodDataset evaluation_column(const char* name, const std::vector<EvaluationRecord>& records,
                                T EvaluationRecord::*field) {
  std::vector<T> values;
  values.reserve(records.size());
  for (const auto& record : records) values.push_back(record.*field);
  return {std::string("evaluations/") + name, std::move(values), {}};
}

void add_tuning(const TuningReport& t, MethodResult& out) {
  const std::size_t points = t.points();
  out.datasets.push_back({"tuning/parameters", t.parameters, {}});
  out.datasets.push_back({"tuning/values", t.values, {points, t.parameters.size()}});
  out.datasets.push_back({"tuning/mean_r2", t.mean_r2, {}});
  out.datasets.push_back({"tuning/std_r2", t.std_r2, {}});
  out.datasets.push_back({"tuning/fold_r2", t.fold_r2, {points, static_cast<std::size_t>(std::max(0, t.folds))}});
  out.facts.push_back({"tuning/estimator", t.estimator});
  out.facts.push_back({"tuning/chosen", std::int64_t{t.chosen}});
  out.facts.push_back({"tuning/folds", std::int64_t{t.folds}});
  out.facts.push_back({"tuning/period", std::int64_t{t.period}});
  out.facts.push_back({"tuning/rows", std::int64_t{t.rows}});
  out.facts.push_back({"tuning/features", std::int64_t{t.features}});
  out.facts.push_back({"tuning/seed", static_cast<std::int64_t>(t.seed)});
  out.timings.emplace_back("tuning_seconds", t.seconds);
}

}  // namespace

MethodResult to_method_result(const RunResult& run) {
  MethodResult out;
  out.method = "bandit";
  out.version = run.version;
  out.task = run.task;
  out.data_origin = run.data_origin;
  out.missing = run.missing;
  out.rows_without_target = run.rows_without_target;
  out.job_text = run.job_text;
  out.seed = run.seed;
  out.ranks = run.ranks;
  out.threads = run.threads;
  out.iterations = run.iterations;
  out.stop_reason = run.stop_reason;
  out.importance_meaning = "posterior mean";

  const std::size_t p = run.feature_names.size();
  out.feature_names = run.feature_names;
  out.importance.resize(p);
  for (std::size_t k = 0; k < p; ++k) out.importance[k] = run.posterior_mean(static_cast<FeatureId>(k));
  out.selected = run.selected;
  rank_by_importance(out);
  out.trajectory = run.trajectory;
  out.truth = run.truth;
  out.metrics = run.metrics;
  for_each_timing(run.timings, [&](const char* name, double value) { out.timings.emplace_back(name, value); });

  out.facts.push_back({"policy", run.policy});
  out.facts.push_back({"estimator", run.estimator});
  out.facts.push_back({"metric", run.metric});
  out.facts.push_back({"evaluations/metric", run.metric});
  out.datasets.push_back({"alpha", run.alpha, {}});
  out.datasets.push_back({"beta", run.beta, {}});
  out.datasets.push_back({"iteration_period", run.iteration_period, {}});
  const auto& records = run.evaluations;
  out.datasets.push_back(evaluation_column("iteration", records, &EvaluationRecord::iteration));
  out.datasets.push_back(evaluation_column("slot", records, &EvaluationRecord::slot));
  out.datasets.push_back(evaluation_column("period", records, &EvaluationRecord::period));
  out.datasets.push_back(evaluation_column("arm_size", records, &EvaluationRecord::arm_size));
  out.datasets.push_back(evaluation_column("rewards", records, &EvaluationRecord::rewards));
  out.datasets.push_back(evaluation_column("updated", records, &EvaluationRecord::updated));
  out.datasets.push_back(evaluation_column("test_score", records, &EvaluationRecord::test_score));
  out.feature_columns = {"alpha", "beta"};

  nlohmann::ordered_json manifest;
  manifest["policy"] = run.policy;
  manifest["estimator"] = run.estimator;
  manifest["metric"] = run.metric;
  manifest["num_evaluations"] = run.evaluations.size();
  if (run.tuning.present) {
    add_tuning(run.tuning, out);
    manifest["tuning"] = tuning_json(run.tuning);
  }
  out.manifest_json = manifest.dump();
  return out;
}

void add_credible_interval(const RunResult& run, double level, MethodResult& result) {
  const std::size_t p = run.alpha.size();
  result.importance_lo.resize(p);
  result.importance_hi.resize(p);
  for (std::size_t k = 0; k < p; ++k)
    std::tie(result.importance_lo[k], result.importance_hi[k]) =
        beta_credible_interval(run.alpha[k], run.beta[k], level);
  result.interval_level = level;
}

void add_knockoff_facts(MethodResult& result) {
  const std::string prefix = knockoff_name("");
  std::int64_t knockoffs = 0;
  for (FeatureId k : result.selected)
    if (result.feature_names[static_cast<std::size_t>(k)].starts_with(prefix)) ++knockoffs;
  const auto originals = static_cast<std::int64_t>(result.selected.size()) - knockoffs;
  result.facts.push_back({"knockoffs/selected", knockoffs});
  result.facts.push_back(
      {"knockoffs/ratio", static_cast<double>(knockoffs) / static_cast<double>(std::max<std::int64_t>(1, originals))});
}

}  // namespace bfs::bandit

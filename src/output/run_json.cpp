// run.json: the machine-readable manifest of a run (docs/design.md §4), from the method-neutral result. Keys keep
// insertion order so the file reads top-down: identity, run facts, selection, timings, metrics, the method's own
// object, top features.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "output/detail/result_checks.hpp"
#include "output/result_io.hpp"
#include "output/run_directory.hpp"

namespace bfs {
namespace {

using Json = nlohmann::ordered_json;

/// Number of top features listed in run.json.
constexpr std::size_t kJsonTopFeatures = 25;

/// Value k of a feature column as JSON: strings as strings, integers as integers, floats as their shortest form
/// (a float32 0.1 is 0.1, not 0.10000000149011612).
Json column_json(const MethodDataset& d, std::size_t k) {
  return std::visit(
      [&](const auto& v) -> Json {
        using V = typename std::decay_t<decltype(v)>::value_type;
        if constexpr (std::is_same_v<V, float>) {
          return std::stod(detail::shortest(v[k]));
        } else {
          return v[k];
        }
      },
      d.values);
}

/// The method's object: its facts without a '/' (policy, estimator, ...), then the keys of its manifest_json (which
/// win over a fact of the same name).
Json method_json(const MethodResult& r, const std::string& path) {
  Json j = Json::object();
  for (const MethodFact& f : r.facts) {
    if (f.name.find('/') != std::string::npos) continue;
    std::visit([&](const auto& value) { j[f.name] = value; }, f.value);
  }
  if (r.manifest_json.empty()) return j;
  Json manifest;
  try {
    manifest = Json::parse(r.manifest_json);
  } catch (const Json::exception& e) {
    throw Error(
        detail::concat("cannot write '", path, "': the manifest of method ", r.method, " is not JSON: ", e.what()));
  }
  if (!manifest.is_object())
    throw Error(
        detail::concat("cannot write '", path, "': the manifest of method ", r.method, " is not a JSON object"));
  for (auto& [key, value] : manifest.items()) j[key] = value;
  return j;
}

/// "stability": R, the selection threshold, stability selection's B, q and bounds, and, for separate results, each
/// run's file and seed.
Json stability_json(const StabilitySummary& s) {
  Json j = {{"runs", s.runs}, {"threshold", s.threshold}};
  if (s.pairs > 0) {  // stability selection: B, q and the bounds on E[false selections] (NaN: not defined → null)
    j["pairs"] = s.pairs;
    j["mean_selected"] = s.mean_selected;
    if (s.max_false > 0.0) j["max_false"] = s.max_false;
    j["bound_meinshausen_buhlmann"] = s.bound_mb;
    j["bound_shah_samworth"] = s.bound_ss;
  }
  if (s.run_sources.empty()) return j;
  Json runs = Json::array();
  for (std::size_t i = 0; i < s.run_sources.size(); ++i) {
    Json run = {{"result", s.run_sources[i]}};
    if (i < s.run_seeds.size()) run["seed"] = s.run_seeds[i];
    runs.push_back(std::move(run));
  }
  j["sources"] = std::move(runs);
  return j;
}

}  // namespace

void write_run_json(const MethodResult& r, const std::string& path, const std::vector<FileDigest>& outputs) {
  detail::validate_per_feature(r, path);
  const std::size_t p = r.feature_names.size();
  const auto order = detail::rank_order(r);
  const auto rank = detail::ranks_of(r);
  const auto selected_flag = detail::flags_of(r.selected, p);
  const auto truth_flag = detail::flags_of(r.truth, p);

  Json j;
  j["version"] = r.version;
  j["method"] = r.method;
  j["task"] = r.task;
  j["data_origin"] = r.data_origin;
  j["seed"] = r.seed;
  j["ranks"] = r.ranks;
  j["threads"] = r.threads;
  j["iterations"] = r.iterations;
  j["stop_reason"] = r.stop_reason;
  j["num_features"] = p;
  if (!r.missing.empty()) {  // every feature's count, in feature order: the data's facts, not only the top ones
    Json missing = Json::array();
    for (std::size_t k = 0; k < p; ++k)
      missing.push_back({{"feature", k}, {"name", r.feature_names[k]}, {"missing", r.missing[k]}});
    j["missing"] = std::move(missing);
    j["rows_without_target"] = r.rows_without_target;
  }

  Json selected = Json::array();
  for (FeatureId k : r.selected)
    selected.push_back({{"feature", k}, {"name", r.feature_names[k]}, {"importance", r.importance[k]}});
  j["num_selected"] = r.selected.size();
  j["selected"] = std::move(selected);

  j["timings"] = Json::object();
  for (const auto& [name, seconds] : r.timings) j["timings"][name] = seconds;
  j["timings"]["per_iteration_seconds"] = r.iterations > 0 ? r.timing("wall_seconds") / r.iterations : 0.0;

  if (r.metrics.known) {
    j["metrics"] = {{"fdp", r.metrics.fdp},
                    {"power", r.metrics.power},
                    {"hamming", r.metrics.hamming},
                    {"separation_iteration", r.metrics.separation_iteration}};
    j["truth"] = r.truth;
  }

  if (!r.importance_lo.empty()) j["interval"] = r.interval_level;
  if (!r.stability.empty()) j["stability"] = stability_json(r.stability);
  if (!r.method.empty()) j[r.method] = method_json(r, path);

  Json top = Json::array();
  for (std::size_t i = 0; i < std::min(kJsonTopFeatures, order.size()); ++i) {
    const auto k = static_cast<std::size_t>(order[i]);
    Json row = {{"rank", rank[k]}, {"feature", k}, {"name", r.feature_names[k]}, {"importance", r.importance[k]}};
    if (!r.importance_lo.empty()) {
      row["importance_lo"] = r.importance_lo[k];
      row["importance_hi"] = r.importance_hi[k];
    }
    if (!r.stability.empty()) {
      row["selection_frequency"] = r.stability.selection_frequency[k];
      row["rank_mean"] = r.stability.rank_mean[k];
    }
    for (const auto& name : r.feature_columns) row[name] = column_json(*r.dataset(name), k);
    if (!r.missing.empty()) row["missing"] = r.missing[k];
    row["selected"] = static_cast<bool>(selected_flag[k]);
    if (r.metrics.known) row["true"] = static_cast<bool>(truth_flag[k]);
    top.push_back(std::move(row));
  }
  j["top_features"] = std::move(top);
  if (!outputs.empty()) {
    Json files = Json::array();
    for (const auto& f : outputs) files.push_back({{"name", f.name}, {"bytes", f.bytes}, {"fnv1a64", f.fnv1a64}});
    j["outputs"] = std::move(files);
  }

  detail::write_text_atomic(path, j.dump(2) + "\n");
}

void write_run_json(const MethodResult& r, const std::string& path) {
  write_run_json(r, path, {});
}

}  // namespace bfs

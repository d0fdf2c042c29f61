// result.h5 reader: everything write_result_h5 wrote (the layout in output/result_io.hpp), and the bandit's result
// files of the earlier bandit-only layout (/posterior_mean, /alpha, /beta at the root) as method "bandit". Errors are
// InputError naming the file and the missing or malformed dataset / attribute.
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_result_reader.hpp"
#include "output/result_io.hpp"

namespace bfs {
namespace {

using detail::Reader;

std::string string_attr_or(const Reader& in, const char* name, const std::string& fallback = "") {
  return in.has_attr(name) ? in.string_attr(name) : fallback;
}

/// One own dataset at `file_path`, its dtype kept (float32/float64, int32/int64, strings); 1-D → empty shape.
MethodDataset read_dataset(const Reader& in, const std::string& file_path, const std::string& name) {
  MethodDataset d;
  d.name = name;
  std::size_t size = 0;
  std::vector<hsize_t> dims;
  switch (in.dataset_class(file_path, size)) {
    case H5T_FLOAT:
      if (size <= 4) {
        d.values = in.read_nd<float>(file_path, dims);
      } else {
        d.values = in.read_nd<double>(file_path, dims);
      }
      break;
    case H5T_INTEGER:
      if (size <= 4) {
        d.values = in.read_nd<std::int32_t>(file_path, dims);
      } else {
        d.values = in.read_nd<std::int64_t>(file_path, dims);
      }
      break;
    case H5T_STRING:
      d.values = in.read_strings_nd(file_path, dims);
      break;
    default:
      in.fail(detail::concat("/", file_path, " is neither numbers nor strings"));
  }
  if (dims.size() != 1) d.shape.assign(dims.begin(), dims.end());
  return d;
}

/// Every attribute of `object` as a fact named prefix + attribute name (strings, floats as double, integers as int64).
void read_facts(const Reader& in, const std::string& object, const std::string& prefix,
                const std::set<std::string>& skip, std::vector<MethodFact>& facts) {
  for (const std::string& name : in.attr_names(object.c_str())) {
    if (skip.count(name) != 0) continue;
    MethodFact f;
    f.name = prefix + name;
    switch (in.attr_class(name.c_str(), object.c_str())) {
      case H5T_STRING:
        f.value = in.string_attr(name.c_str(), object.c_str());
        break;
      case H5T_FLOAT:
        f.value = in.attr<double>(name.c_str(), object.c_str());
        break;
      case H5T_INTEGER:
        f.value = in.attr<std::int64_t>(name.c_str(), object.c_str());
        break;
      default:
        in.fail(detail::concat("attribute ", name, " of /", object, " is neither a number nor a string"));
    }
    facts.push_back(std::move(f));
  }
}

/// The method's own datasets and facts below `group` (the method's group; "." for an old file's root, whose
/// neutral datasets and attributes `skip_root` leaves out).
void read_own(const Reader& in, const std::string& group, const std::set<std::string>& skip_root, MethodResult& r) {
  std::vector<std::string> datasets, groups;
  in.walk(group, datasets, groups);
  const std::string base = group == "." ? "" : group + "/";
  for (const std::string& name : datasets) {
    if (skip_root.count(name) != 0) continue;
    r.datasets.push_back(read_dataset(in, base + name, name));
  }
  for (const std::string& name : groups) read_facts(in, base + name, name + "/", {}, r.facts);
}

void read_timings(const Reader& in, MethodResult& r) {
  for (const std::string& name : in.attr_names(".")) {
    const bool seconds = name.size() > 8 && name.compare(name.size() - 8, 8, "_seconds") == 0;
    if (!seconds && name != "bytes_sent") continue;
    const double value = in.attr<double>(name.c_str());
    if (name == "wall_seconds") {
      r.timings.insert(r.timings.begin(), {name, value});
    } else {
      r.timings.emplace_back(name, value);
    }
  }
}

/// The one reader of pre-layout results: a result.h5 written before the neutral layout, which is the bandit's run
/// state (methods/bandit/run_result_h5.hpp's layout, tests/unit/output/test_result_io.cpp
/// old_layout_reads_as_the_bandit), as is the body of the bandit's checkpoint.h5 (bandit_checkpoint.hpp), which
/// `inspect` thus reads too.
void read_old_layout(const Reader& in, MethodResult& r) {
  const std::size_t p = r.feature_names.size();
  r.method = "bandit";
  r.importance_meaning = "posterior mean";
  r.importance = in.read_1d<double>("posterior_mean");
  if (r.importance.size() != p)
    in.fail(detail::concat("/posterior_mean must have one entry per feature name (", p, ")"));
  rank_by_importance(r);
  if (in.has("trajectory")) {
    std::size_t rows = 0;
    r.trajectory = in.read_2d("trajectory", p, rows);
  }
  // alpha and beta first (the feature columns), then the rest of the bandit's own datasets in name order.
  for (const char* name : {"alpha", "beta"}) r.datasets.push_back(read_dataset(in, name, name));
  for (const auto& d : r.datasets) {
    const auto* values = std::get_if<std::vector<double>>(&d.values);
    if (values == nullptr || values->size() != p || !d.shape.empty())
      in.fail(detail::concat("/", d.name, " must be float64 with one entry per feature name (", p, ")"));
  }
  r.feature_columns = {"alpha", "beta"};
  const std::set<std::string> neutral = {"feature_names", "posterior_mean",  "selected", "trajectory",
                                         "truth",         "resume_stop_key", "alpha",    "beta"};
  read_own(in, ".", neutral, r);
  std::vector<MethodFact> root_facts;  // the bandit's facts that were root attributes
  for (const char* name : {"policy", "estimator"})
    if (in.has_attr(name)) root_facts.push_back({name, in.string_attr(name)});
  r.facts.insert(r.facts.begin(), root_facts.begin(), root_facts.end());
}

void read_new_layout(const Reader& in, MethodResult& r) {
  const std::size_t p = r.feature_names.size();
  r.method = string_attr_or(in, "method");
  if (r.method.empty() || r.method.find('/') != std::string::npos) in.fail("missing attribute method");
  r.importance_meaning = string_attr_or(in, "importance_meaning", "importance");
  r.importance = in.read_1d<double>("importance");
  r.rank = in.read_1d<std::int32_t>("rank");
  if (r.importance.size() != p || r.rank.size() != p)
    in.fail(detail::concat("/importance and /rank must have one entry per feature name (", p, ")"));
  if (in.has("trajectory")) {
    std::size_t rows = 0;
    r.trajectory = in.read_2d("trajectory", p, rows);
  }
  r.group = string_attr_or(in, "group");
  if (r.group.find('/') != std::string::npos) in.fail("attribute group holds a '/'");
  const std::string& group = r.own_group();
  if (!in.is_group(group)) in.fail(detail::concat("missing group /", group));
  read_facts(in, group, "", {"feature_columns"}, r.facts);
  read_own(in, group, {}, r);
  if (in.has_attr("feature_columns", group.c_str())) {
    const std::string columns = in.string_attr("feature_columns", group.c_str());
    for (std::size_t start = 0; !columns.empty() && start <= columns.size();) {
      const auto end = std::min(columns.find(',', start), columns.size());
      r.feature_columns.push_back(columns.substr(start, end - start));
      start = end + 1;
    }
  }
  for (const auto& name : r.feature_columns) {
    const MethodDataset* d = r.dataset(name);
    if (d == nullptr) in.fail(detail::concat("missing dataset /", group, "/", name, " (a feature column)"));
    if (std::visit([](const auto& v) { return v.size(); }, d->values) != p || !d->shape.empty())
      in.fail(detail::concat("/", group, "/", name, " must have one entry per feature name (", p, ")"));
  }
}

/// The optional neutral parts: the importance interval (with its level) and the summary of R runs in /stability.
void read_interval_and_stability(const Reader& in, MethodResult& r) {
  const std::size_t p = r.feature_names.size();
  if (in.has("importance_lo") || in.has("importance_hi")) {
    r.importance_lo = in.read_1d<double>("importance_lo");
    r.importance_hi = in.read_1d<double>("importance_hi");
    if (r.importance_lo.size() != p || r.importance_hi.size() != p)
      in.fail(detail::concat("/importance_lo and /importance_hi must have one entry per feature name (", p, ")"));
    r.interval_level = in.attr_or<double>("interval", 0.0);
  }
  if (!in.is_group("stability")) return;
  StabilitySummary& s = r.stability;
  s.runs = in.attr<std::int64_t>("runs", "stability");
  s.threshold = in.attr<double>("threshold", "stability");
  if (s.runs < 1) in.fail(detail::concat("/stability has runs = ", s.runs, ", not at least 1"));
  for (auto& [name, column] : s.columns()) {
    *column = in.read_1d<double>("stability/" + name);
    if (column->size() != p)
      in.fail(detail::concat("/stability/", name, " must have one entry per feature name (", p, ")"));
  }
  if (in.has("stability/seeds")) s.run_seeds = in.read_1d<std::uint64_t>("stability/seeds");
  if (!in.has_attr("pairs", "stability")) return;
  s.pairs = in.attr<std::int64_t>("pairs", "stability");
  s.mean_selected = in.attr<double>("mean_selected", "stability");
  if (in.has_attr("max_false", "stability")) s.max_false = in.attr<double>("max_false", "stability");
  s.bound_mb = in.attr<double>("bound_meinshausen_buhlmann", "stability");
  s.bound_ss = in.attr<double>("bound_shah_samworth", "stability");
}

}  // namespace

MethodResult read_result_h5(const std::string& path) {
  detail::silence_hdf5_errors();
  Reader in(path);
  MethodResult r;
  r.feature_names = in.read_strings("feature_names");
  const std::size_t p = r.feature_names.size();
  if (!in.has("importance") && in.has("posterior_mean")) {
    read_old_layout(in, r);
  } else {
    read_new_layout(in, r);
  }
  r.selected = in.read_1d<FeatureId>("selected");
  for (FeatureId k : r.selected)
    if (k < 0 || static_cast<std::size_t>(k) >= p) in.fail(detail::concat("/selected holds ", k, ", not a feature"));

  r.version = string_attr_or(in, "version");
  r.task = string_attr_or(in, "task", "regression");
  r.data_origin = string_attr_or(in, "data_origin");
  r.rows_without_target = in.attr_or<std::int64_t>("rows_without_target", 0);
  if (in.has("missing")) {
    r.missing = in.read_1d<std::int64_t>("missing");
    if (r.missing.size() != p) in.fail(detail::concat("/missing must have one entry per feature name (", p, ")"));
  }
  r.job_text = string_attr_or(in, "job");
  r.seed = in.attr_or<std::uint64_t>("seed", 0);
  r.ranks = in.attr_or<std::int32_t>("ranks", 1);
  r.threads = in.attr_or<std::int32_t>("threads", 1);
  r.iterations = in.attr_or<std::int32_t>("iterations", 0);
  r.iteration_unit = string_attr_or(in, "iteration_unit", "iterations");
  r.stop_reason = string_attr_or(in, "stop_reason");
  if (in.has("truth")) {
    r.truth = in.read_1d<FeatureId>("truth");
    r.metrics.known = true;
    r.metrics.fdp = in.attr_or<double>("fdp", 0.0);
    r.metrics.power = in.attr_or<double>("power", 0.0);
    r.metrics.hamming = in.attr_or<std::int64_t>("hamming", 0);
    r.metrics.separation_iteration = in.attr_or<std::int32_t>("separation_iteration", -1);
  }
  read_interval_and_stability(in, r);
  read_timings(in, r);
  return r;
}

}  // namespace bfs

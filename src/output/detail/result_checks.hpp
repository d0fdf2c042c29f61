#pragma once
// Shared by the writers of output/ (result.h5, summary.csv, run.json, inspect): the consistency checks of a
// MethodResult, its ranking and its feature columns, so every output agrees on them.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "methods/result.hpp"

namespace bfs::detail {

/// Number of values of a dataset.
inline std::size_t value_count(const MethodDataset& d) {
  return std::visit([](const auto& v) { return v.size(); }, d.values);
}

/// The dataset holding feature column `name`, or nullptr.
inline const MethodDataset* feature_column(const MethodResult& r, const std::string& name) {
  return r.dataset(name);
}

/// Empty when the per-feature parts agree with the p feature names (importance, rank, selected, truth, feature
/// columns); otherwise what is wrong.
inline std::string per_feature_problem(const MethodResult& r) {
  const std::size_t p = r.feature_names.size();
  if (r.importance.size() != p)
    return concat("importance has ", r.importance.size(), " values, not one per feature (", p, ")");
  if (!r.rank.empty() && r.rank.size() != p)
    return concat("rank has ", r.rank.size(), " values, not one per feature (", p, ")");
  for (FeatureId k : r.selected)
    if (k < 0 || static_cast<std::size_t>(k) >= p)
      return concat("selected feature ", k, " is out of range (p = ", p, ")");
  if (!r.missing.empty() && r.missing.size() != p)
    return concat("missing has ", r.missing.size(), " counts, not one per feature (", p, ")");
  if (r.metrics.known)
    for (FeatureId k : r.truth)
      if (k < 0 || static_cast<std::size_t>(k) >= p)
        return concat("true feature ", k, " is out of range (p = ", p, ")");
  if (r.importance_lo.size() != r.importance_hi.size() || (!r.importance_lo.empty() && r.importance_lo.size() != p))
    return concat("importance_lo and importance_hi have ", r.importance_lo.size(), " and ", r.importance_hi.size(),
                  " values, not both none or both one per feature (", p, ")");
  if (!r.stability.empty())
    for (const auto& [name, values] : r.stability.columns())
      if (values->size() != p)
        return concat("stability column ", name, " has ", values->size(), " values, not one per feature (", p, ")");
  for (const auto& name : r.feature_columns) {
    const MethodDataset* d = feature_column(r, name);
    if (d == nullptr) return concat("feature column '", name, "' is not one of the method's datasets");
    if (value_count(*d) != p || d->shape.size() > 1)
      return concat("feature column '", name, "' has ", value_count(*d), " values in ",
                    d->shape.size() > 1 ? "a multi-dimensional" : "one", " dataset, not one per feature (", p, ")");
  }
  return {};
}

/// Throws Error "cannot write '<path>': <problem>" when the per-feature parts are inconsistent.
inline void validate_per_feature(const MethodResult& r, const std::string& path) {
  const std::string problem = per_feature_problem(r);
  if (!problem.empty()) throw Error(concat("cannot write '", path, "': ", problem));
}

/// A name of an object below /<method>: non-empty parts separated by single '/', none of them "." or "..".
inline bool valid_h5_path(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.back() == '/' || name.find("//") != std::string::npos) return false;
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto end = std::min(name.find('/', start), name.size());
    const std::string part = name.substr(start, end - start);
    if (part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

/// Everything write_result_h5 needs beyond validate_per_feature: the method's name, the trajectory's shape, the own
/// datasets' names and shapes, the facts' names, the timings' names. Throws Error naming the file and the problem.
inline void validate_for_h5(const MethodResult& r, const std::string& path) {
  validate_per_feature(r, path);
  auto fail = [&](const auto&... parts) { throw Error(concat("cannot write '", path, "': ", parts...)); };
  const std::size_t p = r.feature_names.size();
  static const std::set<std::string> root_names = {"feature_names", "importance", "importance_lo", "importance_hi",
                                                   "selected",      "rank",       "trajectory",    "truth",
                                                   "missing",       "stability"};
  if (r.method.empty() || r.method.find('/') != std::string::npos || r.method == "." || r.method == ".." ||
      root_names.count(r.method) != 0)
    fail("the method name '", r.method, "' cannot name its group");
  if (p == 0 ? !r.trajectory.empty() : r.trajectory.size() % p != 0)
    fail("trajectory has ", r.trajectory.size(), " values, not a multiple of the ", p, " features");

  std::set<std::string> datasets, groups;
  auto add_parents = [&](const std::string& name) {
    for (auto slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
      groups.insert(name.substr(0, slash));
  };
  for (const MethodDataset& d : r.datasets) {
    if (!valid_h5_path(d.name)) fail("dataset name '", d.name, "' of method ", r.method, " is not a valid path");
    if (!datasets.insert(d.name).second) fail("method ", r.method, " has two datasets named '", d.name, "'");
    add_parents(d.name);
    std::size_t count = 1;
    for (std::size_t extent : d.shape) count *= extent;
    if (!d.shape.empty() && count != value_count(d))
      fail("dataset ", r.method, "/", d.name, " has ", value_count(d), " values, not the ", count, " of its shape");
  }
  std::set<std::string> facts;
  for (const MethodFact& f : r.facts) {
    if (!valid_h5_path(f.name)) fail("fact name '", f.name, "' of method ", r.method, " is not a valid path");
    if (f.name == "feature_columns") fail("fact name 'feature_columns' is reserved for the feature columns");
    if (!facts.insert(f.name).second) fail("method ", r.method, " has two facts named '", f.name, "'");
    const auto slash = f.name.rfind('/');
    if (slash != std::string::npos) {
      groups.insert(f.name.substr(0, slash));
      add_parents(f.name.substr(0, slash));
    }
  }
  for (const auto& g : groups)
    if (datasets.count(g) != 0) fail("'", g, "' of method ", r.method, " is both a dataset and a group");

  std::set<std::string> timings;  // (no root attribute of the layout is named like a timing)
  for (const auto& [name, seconds] : r.timings) {
    const bool seconds_name = name.size() > 8 && name.compare(name.size() - 8, 8, "_seconds") == 0;
    if (!seconds_name && name != "bytes_sent") fail("timing '", name, "' must be named *_seconds or bytes_sent");
    if (!timings.insert(name).second) fail("timing '", name, "' is given twice");
  }
}

/// r.rank, or computed from the importance when empty (rank 1 = most important, ties by lower feature index).
inline std::vector<std::int32_t> ranks_of(const MethodResult& r) {
  if (!r.rank.empty()) return r.rank;
  MethodResult copy;
  copy.importance = r.importance;
  rank_by_importance(copy);
  return copy.rank;
}

/// Feature ids in rank order (order[0] has rank 1): by r.rank when it is a permutation of 1..p, else by importance.
inline std::vector<FeatureId> rank_order(const MethodResult& r) {
  const std::size_t p = r.importance.size();
  if (r.rank.size() == p) {
    std::vector<FeatureId> order(p, -1);
    bool ok = true;
    for (std::size_t k = 0; k < p && ok; ++k) {
      const auto at = static_cast<std::size_t>(r.rank[k]) - 1;
      ok = r.rank[k] >= 1 && at < p && order[at] < 0;
      if (ok) order[at] = static_cast<FeatureId>(k);
    }
    if (ok) return order;
  }
  return importance_order(r.importance);
}

/// Membership flags (p entries) of a set of feature ids; out-of-range ids are ignored.
inline std::vector<bool> flags_of(const std::vector<FeatureId>& ids, std::size_t p) {
  std::vector<bool> flags(p, false);
  for (FeatureId k : ids)
    if (k >= 0 && static_cast<std::size_t>(k) < p) flags[static_cast<std::size_t>(k)] = true;
  return flags;
}

/// Shortest text that reads back to the same number (floats as float, so 0.1f prints "0.1").
template <class T>
std::string shortest(T value) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, ec == std::errc{} ? end : buffer);
}

/// Value k of a feature column as a number (NaN for strings).
inline double column_number(const MethodDataset& d, std::size_t k) {
  return std::visit(
      [&](const auto& v) -> double {
        using V = typename std::decay_t<decltype(v)>::value_type;
        if constexpr (std::is_same_v<V, std::string>) {
          return std::nan("");
        } else {
          return static_cast<double>(v[k]);
        }
      },
      d.values);
}

/// Value k of a feature column as text: shortest round trip for numbers, the string itself for strings.
inline std::string column_text(const MethodDataset& d, std::size_t k) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using V = typename std::decay_t<decltype(v)>::value_type;
        if constexpr (std::is_same_v<V, std::string>) {
          return v[k];
        } else {
          return shortest(v[k]);
        }
      },
      d.values);
}

/// True when the column holds strings.
inline bool column_is_text(const MethodDataset& d) {
  return std::holds_alternative<std::vector<std::string>>(d.values);
}

}  // namespace bfs::detail

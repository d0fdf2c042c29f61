// result.h5 writer (docs/design.md §4; the layout rule in methods/result.hpp): the method-neutral datasets at the
// root, the method's own datasets and facts in group /<method>. Datasets hold only deterministic quantities and object
// time tracking is off, so identical results give byte-identical datasets; timings are root attributes only.
#include <hdf5.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_result_write.hpp"
#include "data/detail/h5_types.hpp"
#include "output/detail/result_checks.hpp"
#include "output/result_io.hpp"

namespace bfs {
namespace {

using detail::check;
using detail::check_id;
using detail::H5Handle;
using namespace detail::h5w;

/// The groups of /<method>, created on first use (intermediate ones too), all without time stamps.
class Groups {
 public:
  Groups(hid_t root, const std::string& method) : method_(method) {
    groups_.emplace("", untimed_group(root, method.c_str()));
  }
  /// The group at `path` below /<method> ("" = the method's group itself).
  hid_t at(const std::string& path) {
    auto it = groups_.find(path);
    if (it != groups_.end()) return it->second.get();
    const auto slash = path.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : path.substr(0, slash);
    const std::string leaf = slash == std::string::npos ? path : path.substr(slash + 1);
    const hid_t parent_id = at(parent);
    return groups_.emplace(path, untimed_group(parent_id, leaf.c_str())).first->second.get();
  }

 private:
  std::string method_;
  std::map<std::string, H5Handle> groups_;
};

/// "evaluations/test_score" → {"evaluations", "test_score"}; "alpha" → {"", "alpha"}.
std::pair<std::string, std::string> split_path(const std::string& name) {
  const auto slash = name.rfind('/');
  if (slash == std::string::npos) return {"", name};
  return {name.substr(0, slash), name.substr(slash + 1)};
}

void write_dataset(Groups& groups, const MethodDataset& d) {
  const auto path = split_path(d.name);
  const std::string& leaf = path.second;  // a named variable: clang 14 cannot capture a structured binding
  const hid_t loc = groups.at(path.first);
  std::visit(
      [&](const auto& values) {
        using V = typename std::decay_t<decltype(values)>::value_type;
        if constexpr (std::is_same_v<V, std::string>) {
          write_strings_nd(loc, leaf.c_str(), values, d.shape);
        } else {
          write_nd(loc, leaf.c_str(), values, d.shape);
        }
      },
      d.values);
}

void write_fact(Groups& groups, const MethodFact& f) {
  const auto path = split_path(f.name);
  const std::string& leaf = path.second;
  const hid_t loc = groups.at(path.first);
  std::visit([&](const auto& value) { write_attr(loc, leaf.c_str(), value); }, f.value);
}

/// /stability: the per-feature summary of R runs (run/stability_summary.hpp), the runs' seeds when they are separate
/// results, attributes runs and threshold; stability selection's own facts when it made the runs (pairs > 0).
void write_stability(hid_t root, const StabilitySummary& s) {
  const H5Handle group = untimed_group(root, "stability");
  for (const auto& [name, values] : s.columns()) write_1d(group.get(), name.c_str(), *values);
  if (!s.run_seeds.empty()) write_1d(group.get(), "seeds", s.run_seeds);
  write_attr(group.get(), "runs", s.runs);
  write_attr(group.get(), "threshold", s.threshold);
  if (s.pairs == 0) return;  // an aggregate of separate runs: no stability selection facts
  write_attr(group.get(), "pairs", s.pairs);
  write_attr(group.get(), "mean_selected", s.mean_selected);
  if (s.max_false > 0.0) write_attr(group.get(), "max_false", s.max_false);
  write_attr(group.get(), "bound_meinshausen_buhlmann", s.bound_mb);
  write_attr(group.get(), "bound_shah_samworth", s.bound_ss);
}

void write_file(const MethodResult& r, const std::vector<std::int32_t>& rank, const std::string& tmp) {
  const std::size_t p = r.feature_names.size();
  H5Handle fcpl = detail::h5_plist(check_id(H5Pcreate(H5P_FILE_CREATE), "file properties"));
  check(H5Pset_obj_track_times(fcpl.get(), 0), "disable time tracking");
  H5Handle file = detail::h5_file(
      check_id(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT), detail::concat("create ", tmp)));
  const hid_t root = file.get();

  write_strings(root, "feature_names", r.feature_names);
  write_1d(root, "importance", r.importance);
  write_1d(root, "selected", r.selected);
  write_1d(root, "rank", rank);
  if (!r.importance_lo.empty()) {
    write_1d(root, "importance_lo", r.importance_lo);
    write_1d(root, "importance_hi", r.importance_hi);
  }
  if (!r.trajectory.empty()) write_trajectory(root, r.trajectory, p);
  if (r.metrics.known) write_1d(root, "truth", r.truth);
  if (!r.missing.empty()) write_1d(root, "missing", r.missing);

  if (!r.stability.empty()) write_stability(root, r.stability);
  {
    Groups groups(root, r.own_group());
    for (const MethodDataset& d : r.datasets) write_dataset(groups, d);
    for (const MethodFact& f : r.facts) write_fact(groups, f);
    std::string columns;
    for (std::size_t i = 0; i < r.feature_columns.size(); ++i) columns += (i ? "," : "") + r.feature_columns[i];
    write_attr(groups.at(""), "feature_columns", columns);
  }

  write_attr(root, "version", r.version);
  write_attr(root, "method", r.method);
  if (!r.group.empty()) write_attr(root, "group", r.group);
  write_attr(root, "task", r.task);
  write_attr(root, "data_origin", r.data_origin);
  if (r.rows_without_target > 0) write_attr(root, "rows_without_target", r.rows_without_target);
  write_attr(root, "job", r.job_text);
  write_attr(root, "seed", r.seed);
  write_attr(root, "ranks", std::int32_t{r.ranks});
  write_attr(root, "threads", std::int32_t{r.threads});
  write_attr(root, "iterations", r.iterations);
  if (r.iteration_unit != "iterations") write_attr(root, "iteration_unit", r.iteration_unit);
  write_attr(root, "stop_reason", r.stop_reason);
  write_attr(root, "importance_meaning", r.importance_meaning);
  if (!r.importance_lo.empty()) write_attr(root, "interval", r.interval_level);
  if (r.metrics.known) {
    write_attr(root, "fdp", r.metrics.fdp);
    write_attr(root, "power", r.metrics.power);
    write_attr(root, "hamming", r.metrics.hamming);
    write_attr(root, "separation_iteration", r.metrics.separation_iteration);
  }
  for (const auto& [name, seconds] : r.timings) write_attr(root, name.c_str(), seconds);

  check(file.close(), detail::concat("close ", tmp));
}

}  // namespace

void write_result_h5(const MethodResult& r, const std::string& path) {
  detail::validate_for_h5(r, path);
  const auto rank = detail::ranks_of(r);
  detail::silence_hdf5_errors();
  detail::atomic_write(path, [&](const std::string& tmp) { write_file(r, rank, tmp); });
}

}  // namespace bfs

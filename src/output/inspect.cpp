// `banditfs inspect`: a human-readable report of a result (the run's facts, then the top features), for any method.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <utility>
#include <variant>

#include "output/detail/result_checks.hpp"
#include "output/result_io.hpp"

namespace bfs {
namespace {

/// Longest feature name shown in the table; longer names are cut with "...".
constexpr std::size_t kMaxNameWidth = 32;

template <class... Args>
std::string format(const char* fmt, Args... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer), fmt, args...);
  return buffer;
}

std::string or_dash(const std::string& s) {
  return s.empty() ? "-" : s;
}

std::string shorten(const std::string& name, std::size_t width = kMaxNameWidth) {
  if (name.size() <= width) return name;
  return name.substr(0, width - 3) + "...";
}

/// An importance in a fixed-width cell: 4 decimals in the usual range, %g outside it.
std::string importance_text(double value) {
  const double a = std::fabs(value);
  return (a == 0.0 || (a >= 1e-3 && a < 1e4)) ? format("%.4f", value) : format("%.4g", value);
}

/// "method bandit, policy ttts, estimator random_forest": the method and its root-level string facts.
std::string method_line(const MethodResult& r) {
  std::string line = or_dash(r.method);
  for (const MethodFact& f : r.facts) {
    if (f.name.find('/') != std::string::npos) continue;
    if (const auto* s = std::get_if<std::string>(&f.value)) line += ", " + f.name + " " + or_dash(*s);
  }
  return line;
}

/// "num_evaluations 24, noise_variance 0.25": the method's root-level numeric facts (empty when none).
std::string numeric_facts(const MethodResult& r) {
  std::string line;
  for (const MethodFact& f : r.facts) {
    if (f.name.find('/') != std::string::npos) continue;
    if (const auto* d = std::get_if<double>(&f.value)) line += (line.empty() ? "" : ", ") + f.name + format(" %g", *d);
    if (const auto* i = std::get_if<std::int64_t>(&f.value))
      line += (line.empty() ? "" : ", ") + f.name + " " + std::to_string(*i);
  }
  return line;
}

/// The facts of the method's subgroups (e.g. /bandit/knockoffs: "knockoffs     selected 3, ratio 0.5"), one line per
/// subgroup, in the order the method wrote them.
void print_group_facts(const MethodResult& r, std::ostream& out) {
  std::vector<std::pair<std::string, std::string>> groups;  // subgroup -> "name value, ..."
  for (const MethodFact& f : r.facts) {
    const auto slash = f.name.rfind('/');
    if (slash == std::string::npos) continue;
    std::string value;
    if (const auto* d = std::get_if<double>(&f.value)) value = format("%g", *d);
    if (const auto* i = std::get_if<std::int64_t>(&f.value)) value = std::to_string(*i);
    if (const auto* s = std::get_if<std::string>(&f.value)) value = or_dash(*s);
    const std::string group = f.name.substr(0, slash);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == group; });
    if (it == groups.end()) it = groups.insert(groups.end(), {group, ""});
    it->second += (it->second.empty() ? "" : ", ") + f.name.substr(slash + 1) + " " + value;
  }
  for (const auto& [group, line] : groups) out << "  " << format("%-13s", group.c_str()) << " " << line << "\n";
}

void print_timings(const MethodResult& r, std::ostream& out) {
  const bool any = std::any_of(r.timings.begin(), r.timings.end(), [](const auto& t) { return t.second > 0.0; });
  if (!any) return;
  const double wall = r.timing("wall_seconds");
  out << "  timings       wall " << format("%.3f s", wall);
  if (r.iterations > 0 && r.iteration_unit == "iterations")
    out << format(" (%.3f ms/iteration)", 1e3 * wall / r.iterations);
  out << "\n";
  std::string parts;
  for (const auto& [name, value] : r.timings) {
    if (name == "wall_seconds" || !(value > 0.0)) continue;
    const bool seconds = name.size() > 8 && name.compare(name.size() - 8, 8, "_seconds") == 0;
    parts += seconds ? format(" %s %.3f s", name.substr(0, name.size() - 8).c_str(), value)
                     : format(" %s %.0f", name.c_str(), value);
  }
  if (!parts.empty()) out << "               " << parts << "\n";
}

/// FDP, power and Hamming against the known truth, and when the trajectory first separated it.
void print_truth_line(const MethodResult& r, std::ostream& out) {
  out << "  truth         " << r.truth.size() << " true features: "
      << format("FDP %.3f, power %.3f, Hamming %lld", r.metrics.fdp, r.metrics.power,
                static_cast<long long>(r.metrics.hamming));
  // Separation is a property of a trajectory (the first iteration after which it split truth from noise).
  if (r.trajectory.empty())
    out << "\n";
  else if (r.metrics.separation_iteration >= 0)
    out << ", separated after iteration " << r.metrics.separation_iteration << "\n";
  else
    out << ", never separated\n";
}

/// The interval's level and the summary of R runs, when the result has them.
void print_neutral_facts(const MethodResult& r, std::ostream& out) {
  if (!r.importance_lo.empty())
    out << "  interval      level " << format("%g", r.interval_level) << " (columns lo, hi)\n";
  if (!r.stability.empty())
    out << "  stability     " << r.stability.runs
        << " runs; selected: frequency >= " << format("%g", r.stability.threshold) << "\n";
  if (r.stability.pairs > 0)
    out << "  bound         " << r.stability.pairs
        << " complementary pairs, q = " << format("%.3g", r.stability.mean_selected)
        << " selected per run: E[false selections] <= " << format("%.3g", r.stability.bound_mb)
        << " (Meinshausen-Buehlmann), " << format("%.3g", r.stability.bound_ss) << " (Shah-Samworth, unimodal)\n";
}

/// The neutral per-feature columns of the table: the interval, the selection frequency.
std::vector<std::pair<std::string, const std::vector<double>*>> neutral_columns(const MethodResult& r) {
  std::vector<std::pair<std::string, const std::vector<double>*>> columns;
  if (!r.importance_lo.empty()) columns = {{"lo", &r.importance_lo}, {"hi", &r.importance_hi}};
  if (!r.stability.empty()) columns.emplace_back("frequency", &r.stability.selection_frequency);
  return columns;
}

}  // namespace

void print_inspection(const MethodResult& r, std::ostream& out, int top) {
  const std::size_t p = r.feature_names.size();
  const std::string problem = detail::per_feature_problem(r);
  const auto selected = detail::flags_of(r.selected, p);
  const auto truth = detail::flags_of(r.truth, p);

  out << "banditfs result" << (r.version.empty() ? "" : " (banditfs " + r.version + ")") << "\n";
  out << "  data          " << or_dash(r.data_origin) << (r.task.empty() ? "" : " (" + r.task + ")") << "\n";
  out << "  method        " << method_line(r) << "\n";
  const std::string numbers = numeric_facts(r);
  if (!numbers.empty()) out << "                " << numbers << "\n";
  out << "  seed          " << r.seed << "   (ranks " << r.ranks << ", threads " << r.threads << ")\n";
  if (r.iteration_unit == "iterations")
    out << "  iterations    " << r.iterations;
  else
    out << "  done          " << r.iterations << " " << r.iteration_unit;
  out << "   stop: " << or_dash(r.stop_reason) << "\n";
  out << "  features      " << p << ", selected " << r.selected.size() << "\n";
  print_group_facts(r, out);
  print_neutral_facts(r, out);
  if (r.metrics.known) print_truth_line(r, out);
  print_timings(r, out);
  if (!problem.empty()) {
    out << "  (" << problem << ": no feature table)\n";
    return;
  }

  const auto order = detail::rank_order(r);
  const auto rank = detail::ranks_of(r);
  const std::size_t shown = std::min<std::size_t>(order.size(), static_cast<std::size_t>(std::max(top, 0)));
  if (shown == 0) return;
  std::size_t name_width = 4;
  for (std::size_t i = 0; i < shown; ++i) name_width = std::max(name_width, shorten(r.feature_names[order[i]]).size());
  const std::string meaning = r.importance_meaning.empty() ? "importance" : r.importance_meaning;
  const int w = static_cast<int>(name_width);
  const int iw = static_cast<int>(std::max<std::size_t>(8, meaning.size()));
  const auto neutral = neutral_columns(r);  // before the method's own columns
  std::vector<const MethodDataset*> columns;
  std::vector<int> column_width;
  for (const auto& name : r.feature_columns) {
    columns.push_back(r.dataset(name));
    column_width.push_back(static_cast<int>(std::max<std::size_t>(10, name.size())));
  }

  out << "\n  top " << shown << " of " << p << " features by " << meaning << "  (sel: * = selected"
      << (r.metrics.known ? ", true: T = truly relevant" : "") << ")\n";
  out << format("  %5s %8s  %-*s %*s", "rank", "feature", w, "name", iw, meaning.c_str());
  for (const auto& column : neutral) out << format(" %9s", column.first.c_str());
  for (std::size_t c = 0; c < columns.size(); ++c) out << format(" %*s", column_width[c], r.feature_columns[c].c_str());
  out << "  sel" << (r.metrics.known ? "  true" : "") << "\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const auto k = static_cast<std::size_t>(order[i]);
    out << format("  %5d %8zu  %-*s %*s", static_cast<int>(rank[k]), k, w, shorten(r.feature_names[k]).c_str(), iw,
                  importance_text(r.importance[k]).c_str());
    for (const auto& column : neutral) out << format(" %9s", importance_text((*column.second)[k]).c_str());
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (detail::column_is_text(*columns[c])) {
        out << format(" %*s", column_width[c], shorten(detail::column_text(*columns[c], k), 10).c_str());
      } else {
        out << format(" %*.4g", column_width[c], detail::column_number(*columns[c], k));
      }
    }
    out << "   " << (selected[k] ? "*" : " ");
    if (r.metrics.known) out << "     " << (truth[k] ? "T" : " ");
    out << "\n";
  }
  if (r.metrics.known) {
    std::size_t missed = 0;
    for (FeatureId k : r.truth) {
      const auto pos = std::find(order.begin(), order.end(), k) - order.begin();
      if (static_cast<std::size_t>(pos) >= shown) ++missed;
    }
    if (missed > 0) out << "  (" << missed << " true feature(s) rank below the top " << shown << ")\n";
  }
}

}  // namespace bfs

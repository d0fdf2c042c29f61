// `banditfs inspect`: a human-readable report of a result.h5 (the run's facts, then the top features).
#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>

#include "output/detail/ranking.hpp"
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

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string shorten(const std::string& name) {
  if (name.size() <= kMaxNameWidth) return name;
  return name.substr(0, kMaxNameWidth - 3) + "...";
}

void print_timings(const RunResult& r, std::ostream& out) {
  const Timings& t = r.timings;
  if (t.wall_seconds <= 0.0 && t.fit_seconds <= 0.0 && t.importance_seconds <= 0.0 && t.split_seconds <= 0.0 &&
      t.data_seconds <= 0.0 && t.policy_seconds <= 0.0) {
    return;
  }
  out << "  timings       wall " << format("%.3f s", t.wall_seconds);
  if (r.iterations > 0) out << format(" (%.3f ms/iteration)", 1e3 * t.wall_seconds / r.iterations);
  out << "\n";
  const std::pair<const char*, double> parts[] = {{"fit", t.fit_seconds},     {"importance", t.importance_seconds},
                                                  {"split", t.split_seconds}, {"data", t.data_seconds},
                                                  {"policy", t.policy_seconds}};
  out << "               ";
  for (const auto& [name, seconds] : parts) out << format(" %s %.3f s", name, seconds);
  out << "\n";
}

/// One line: where the tuning ran and the chosen point with its CV score.
void print_tuning(const TuningReport& t, std::ostream& out) {
  if (!t.present || t.chosen < 0 || static_cast<std::size_t>(t.chosen) >= t.points()) return;
  const auto c = static_cast<std::size_t>(t.chosen);
  out << "  tuning        " << t.estimator << " on period " << t.period << " (" << t.rows << " rows, " << t.folds
      << "-fold CV, " << t.points() << " grid points): ";
  for (std::size_t j = 0; j < t.parameters.size(); ++j)
    out << (j ? ", " : "") << t.parameters[j] << " " << format("%g", t.value(c, j));
  out << format("; CV R^2 %.4f +- %.4f\n", t.mean_r2[c], t.std_r2[c]);
}

}  // namespace

void print_inspection(const RunResult& r, std::ostream& out, int top) {
  const std::size_t p = r.feature_names.size();
  const bool consistent = r.alpha.size() == p && r.beta.size() == p;
  const auto means = consistent ? detail::feature_means(r) : std::vector<double>{};
  const auto order = detail::ranking_order(means);
  const auto selected = detail::selected_flags(r, p);
  const auto truth = detail::truth_flags(r, p);

  out << "banditfs result" << (r.version.empty() ? "" : " (banditfs " + r.version + ")") << "\n";
  out << "  data          " << or_dash(r.data_origin) << "\n";
  out << "  method        " << or_dash(r.method) << ", policy " << or_dash(r.policy) << ", estimator "
      << or_dash(r.estimator) << "\n";
  out << "  seed          " << r.seed << "   (ranks " << r.ranks << ", threads " << r.threads << ")\n";
  out << "  iterations    " << r.iterations << "   stop: " << or_dash(r.stop_reason) << "\n";
  out << "  evaluations   " << r.evaluations.size() << "\n";
  out << "  features      " << p << ", selected " << r.selected.size() << "\n";
  if (r.metrics.known) {
    out << "  truth         " << r.truth.size() << " true features: "
        << format("FDP %.3f, power %.3f, Hamming %lld, ", r.metrics.fdp, r.metrics.power,
                  static_cast<long long>(r.metrics.hamming));
    if (r.metrics.separation_iteration >= 0) {
      out << "separated after iteration " << r.metrics.separation_iteration << "\n";
    } else {
      out << "never separated\n";
    }
  }
  print_tuning(r.tuning, out);
  print_timings(r, out);
  if (!consistent) {
    out << "  (alpha/beta do not match the feature names: no feature table)\n";
    return;
  }

  const std::size_t shown = std::min<std::size_t>(order.size(), static_cast<std::size_t>(std::max(top, 0)));
  if (shown == 0) return;
  std::size_t name_width = 4;
  for (std::size_t i = 0; i < shown; ++i) name_width = std::max(name_width, shorten(r.feature_names[order[i]]).size());

  out << "\n  top " << shown << " of " << p << " features by posterior mean  (sel: * = selected"
      << (r.metrics.known ? ", true: T = truly relevant" : "") << ")\n";
  const int w = static_cast<int>(name_width);
  out << format("  %5s %8s  %-*s %8s %10s %10s  sel", "rank", "feature", w, "name", "mean", "alpha", "beta")
      << (r.metrics.known ? "  true" : "") << "\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const FeatureId k = order[i];
    out << format("  %5zu %8d  %-*s %8.4f %10.4g %10.4g   %s", i + 1, k, w, shorten(r.feature_names[k]).c_str(),
                  means[k], r.alpha[k], r.beta[k], selected[k] ? "*" : " ");
    if (r.metrics.known) out << "     " << (truth[k] ? "T" : " ");
    out << "\n";
  }
  if (r.metrics.known) {
    std::size_t missed = 0;
    for (FeatureId k : r.truth) {
      auto pos = std::find(order.begin(), order.end(), k) - order.begin();
      if (static_cast<std::size_t>(pos) >= shown) ++missed;
    }
    if (missed > 0) out << "  (" << missed << " true feature(s) rank below the top " << shown << ")\n";
  }
}

}  // namespace bfs

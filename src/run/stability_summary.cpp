#include "run/stability_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/error.hpp"

namespace bfs {
namespace {

double mean_of(const std::vector<double>& x) {
  double sum = 0.0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

/// Sample standard deviation (divisor n − 1); NaN for one value, as numpy's std(ddof=1).
double sd_of(const std::vector<double>& x, double mean) {
  if (x.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0.0;
  for (double v : x) sum += (v - mean) * (v - mean);
  return std::sqrt(sum / static_cast<double>(x.size() - 1));
}

/// The columns of `s` (const or not) in output order.
template <class Summary, class Column>
std::vector<std::pair<std::string, Column*>> columns_of(Summary& s) {
  return {{"selection_frequency", &s.selection_frequency},
          {"importance_mean", &s.importance_mean},
          {"importance_sd", &s.importance_sd},
          {"importance_q05", &s.importance_q05},
          {"importance_q50", &s.importance_q50},
          {"importance_q95", &s.importance_q95},
          {"rank_mean", &s.rank_mean},
          {"rank_sd", &s.rank_sd}};
}

}  // namespace

std::vector<std::pair<std::string, const std::vector<double>*>> StabilitySummary::columns() const {
  return columns_of<const StabilitySummary, const std::vector<double>>(*this);
}

std::vector<std::pair<std::string, std::vector<double>*>> StabilitySummary::columns() {
  return columns_of<StabilitySummary, std::vector<double>>(*this);
}

double linear_quantile(std::vector<double> values, double q) {
  BFS_CHECK(!values.empty(), "a quantile of no values");
  if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }))
    return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const double below = std::floor(position);
  const auto i = static_cast<std::size_t>(below);
  if (i + 1 >= values.size()) return values.back();
  const double t = position - below, a = values[i], b = values[i + 1];
  // numpy's _lerp: a + (b − a)·t, and b − (b − a)·(1 − t) from t ≥ 0.5 on (exact at both ends, monotone).
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

StabilitySummary summarize_runs(const std::vector<RunOutcome>& runs) {
  BFS_CHECK(!runs.empty(), "a summary of no runs");
  const std::size_t p = runs.front().importance.size();
  for (const RunOutcome& run : runs)
    BFS_CHECK(run.importance.size() == p && run.selected.size() == p && run.rank.size() == p, "a run with other than ",
              p, " features");
  StabilitySummary s;
  s.runs = static_cast<std::int64_t>(runs.size());
  const auto R = static_cast<double>(runs.size());
  for (auto& [name, column] : s.columns()) column->resize(p);
  std::vector<double> importance(runs.size()), rank(runs.size());
  for (std::size_t k = 0; k < p; ++k) {
    std::size_t selected = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      importance[r] = runs[r].importance[k];
      rank[r] = static_cast<double>(runs[r].rank[k]);
      selected += runs[r].selected[k] != 0 ? 1 : 0;
    }
    s.selection_frequency[k] = static_cast<double>(selected) / R;
    s.importance_mean[k] = mean_of(importance);
    s.importance_sd[k] = sd_of(importance, s.importance_mean[k]);
    s.importance_q05[k] = linear_quantile(importance, 0.05);
    s.importance_q50[k] = linear_quantile(importance, 0.50);
    s.importance_q95[k] = linear_quantile(importance, 0.95);
    s.rank_mean[k] = mean_of(rank);
    s.rank_sd[k] = sd_of(rank, s.rank_mean[k]);
  }
  return s;
}

FeatureSet stable_set(const StabilitySummary& summary, double threshold) {
  FeatureSet out;
  for (std::size_t k = 0; k < summary.selection_frequency.size(); ++k)
    if (summary.selection_frequency[k] >= threshold) out.push_back(static_cast<FeatureId>(k));
  return out;
}

std::pair<std::vector<double>, std::vector<double>> importance_range(const std::vector<RunOutcome>& runs,
                                                                     double level) {
  BFS_CHECK(!runs.empty(), "the importance range of no runs");
  const std::size_t p = runs.front().importance.size();
  std::vector<double> lo(p), hi(p), values(runs.size());
  for (std::size_t k = 0; k < p; ++k) {
    for (std::size_t r = 0; r < runs.size(); ++r) values[r] = runs[r].importance[k];
    lo[k] = linear_quantile(values, (1.0 - level) / 2.0);
    hi[k] = linear_quantile(values, (1.0 + level) / 2.0);
  }
  return {std::move(lo), std::move(hi)};
}

double mean_selected(const std::vector<RunOutcome>& runs) {
  BFS_CHECK(!runs.empty(), "the mean selection of no runs");
  double sum = 0.0;
  for (const RunOutcome& run : runs)
    for (std::uint8_t s : run.selected) sum += s != 0 ? 1.0 : 0.0;
  return sum / static_cast<double>(runs.size());
}

}  // namespace bfs

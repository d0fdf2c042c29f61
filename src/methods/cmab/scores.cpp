#include "methods/cmab/scores.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/error.hpp"

namespace bfs::cmab {
namespace {

constexpr double kFloor = 1e-6;  // causalml's 0.1**6: KL's clip of q and Chi's denominators

/// One (bin, arm) cell, or an arm's total over all bins.
struct Cell {
  std::int64_t zeros = 0, ones = 0;
  std::int64_t rows() const { return zeros + ones; }
  double rate() const { return static_cast<double>(ones) / static_cast<double>(rows()); }
  /// causalml's smooth=True: a reward value that never occurs counts once, so P is in (0, 1) and KL stays finite.
  double smoothed_rate() const {
    const double z = zeros == 0 ? 1.0 : static_cast<double>(zeros);
    const double o = ones == 0 ? 1.0 : static_cast<double>(ones);
    return o / (z + o);
  }
};

Cell cell_at(const CellCounts& cells, int bin, int arm) {
  return {cells.at(bin, arm, 0), cells.at(bin, arm, 1)};
}

/// Per arm, the cells summed over the bins (the arm's N_i and P_i over all rows).
std::vector<Cell> arm_totals(const CellCounts& cells) {
  std::vector<Cell> totals(static_cast<std::size_t>(cells.arms));
  for (int b = 0; b < cells.bins; ++b) {
    for (int i = 0; i < cells.arms; ++i) {
      totals[static_cast<std::size_t>(i)].zeros += cells.at(b, i, 0);
      totals[static_cast<std::size_t>(i)].ones += cells.at(b, i, 1);
    }
  }
  return totals;
}

std::int64_t rows_of(std::span<const Cell> arms) {
  std::int64_t rows = 0;
  for (const Cell& c : arms) rows += c.rows();
  return rows;
}

std::vector<Cell> bin_cells(const CellCounts& cells, int bin) {
  std::vector<Cell> out(static_cast<std::size_t>(cells.arms));
  for (int i = 0; i < cells.arms; ++i) out[static_cast<std::size_t>(i)] = cell_at(cells, bin, i);
  return out;
}

/// argmax_i P_i over the arms with rows (ties: the lower arm); -1 when no arm has rows.
int winner(std::span<const Cell> arms) {
  int best = -1;
  for (int i = 0; i < static_cast<int>(arms.size()); ++i) {
    const Cell& c = arms[static_cast<std::size_t>(i)];
    if (c.rows() > 0 && (best < 0 || c.rate() > arms[static_cast<std::size_t>(best)].rate())) best = i;
  }
  return best;
}

/// KL(p‖q) of two Bernoulli laws, q clipped to [1e-6, 1 − 1e-6] (causalml's _kl_divergence).
double bernoulli_kl(double p, double q) {
  q = std::clamp(q, kFloor, 1.0 - kFloor);
  return p * std::log(p / q) + (1.0 - p) * std::log((1.0 - p) / (1.0 - q));
}

/// Σ_i Σ_j (N_i N_j / N²) KL(P_i‖P_j) over the arms with rows, P smoothed (A.1's D).
double pairwise_divergence(std::span<const Cell> arms) {
  const auto total = static_cast<double>(rows_of(arms));
  double sum = 0.0;
  for (const Cell& a : arms) {
    if (a.rows() == 0) continue;
    for (const Cell& b : arms) {
      if (b.rows() == 0) continue;
      const double weight = (static_cast<double>(a.rows()) * static_cast<double>(b.rows())) / (total * total);
      sum += weight * bernoulli_kl(a.smoothed_rate(), b.smoothed_rate());
    }
  }
  return sum;
}

double hie_score(const CellCounts& cells, std::span<const Cell> totals, HieReference reference) {
  const auto n = static_cast<double>(rows_of(totals));
  const int global_winner = winner(totals);
  double sum = 0.0;
  for (int b = 0; b < cells.bins; ++b) {
    const std::vector<Cell> arms = bin_cells(cells, b);
    const int bin_winner = winner(arms);
    if (bin_winner < 0) continue;  // an empty bin
    const Cell& reference_cell = reference == HieReference::InBin ? arms[static_cast<std::size_t>(global_winner)]
                                                                  : totals[static_cast<std::size_t>(global_winner)];
    if (reference_cell.rows() == 0) continue;  // in-bin: w* has no rows in b
    const double gain = arms[static_cast<std::size_t>(bin_winner)].rate() - reference_cell.rate();
    sum += (static_cast<double>(rows_of(arms)) / n) * gain;
  }
  return sum;
}

double hdd_score(const CellCounts& cells, std::span<const Cell> totals) {
  const auto n = static_cast<double>(rows_of(totals));
  double children = 0.0;
  for (int b = 0; b < cells.bins; ++b) {
    const std::vector<Cell> arms = bin_cells(cells, b);
    const std::int64_t rows = rows_of(arms);
    if (rows == 0) continue;
    children += (static_cast<double>(rows) / n) * pairwise_divergence(arms);
  }
  return children - pairwise_divergence(totals);
}

/// causalml's per-node divergences between a treatment cell t and the control cell c (both with rows).
struct TreatmentDivergences {
  double kl = 0, ed = 0, chi = 0;
};
TreatmentDivergences divergences(const Cell& t, const Cell& c) {
  if (t.rows() == 0 || c.rows() == 0) return {};
  const double difference = t.rate() - c.rate();
  const double squared = difference * difference;
  return {bernoulli_kl(t.smoothed_rate(), c.smoothed_rate()), 2.0 * squared,
          squared / std::max(kFloor, c.rate()) + squared / std::max(kFloor, 1.0 - c.rate())};
}

/// Adds, for treatment arm t, Σ_b (N_b/N) D_b − D_all on the rows of t and the control only.
void add_baselines(const CellCounts& cells, std::span<const Cell> totals, int t, int control, FeatureScores& out) {
  const std::int64_t pair_rows =
      totals[static_cast<std::size_t>(t)].rows() + totals[static_cast<std::size_t>(control)].rows();
  if (pair_rows == 0) return;
  const auto n = static_cast<double>(pair_rows);
  TreatmentDivergences children;
  for (int b = 0; b < cells.bins; ++b) {
    const Cell treated = cell_at(cells, b, t), controlled = cell_at(cells, b, control);
    const double weight = static_cast<double>(treated.rows() + controlled.rows()) / n;
    const TreatmentDivergences d = divergences(treated, controlled);
    children.kl += weight * d.kl;
    children.ed += weight * d.ed;
    children.chi += weight * d.chi;
  }
  const TreatmentDivergences parent =
      divergences(totals[static_cast<std::size_t>(t)], totals[static_cast<std::size_t>(control)]);
  out.kl += children.kl - parent.kl;
  out.ed += children.ed - parent.ed;
  out.chi += children.chi - parent.chi;
}

/// I(bin; reward) in nats over all rows, arms pooled; 0·ln 0 = 0.
double mutual_information(const CellCounts& cells, std::int64_t rows) {
  std::int64_t reward_rows[2] = {0, 0};
  for (int b = 0; b < cells.bins; ++b)
    for (int i = 0; i < cells.arms; ++i)
      for (int y = 0; y < 2; ++y) reward_rows[y] += cells.at(b, i, y);
  const auto n = static_cast<double>(rows);
  double sum = 0.0;
  for (int b = 0; b < cells.bins; ++b) {
    std::int64_t joint[2] = {0, 0};
    for (int i = 0; i < cells.arms; ++i)
      for (int y = 0; y < 2; ++y) joint[y] += cells.at(b, i, y);
    const auto bin_rows = static_cast<double>(joint[0] + joint[1]);
    for (int y = 0; y < 2; ++y) {
      if (joint[y] == 0) continue;
      const auto both = static_cast<double>(joint[y]);
      sum += (both / n) * std::log((both * n) / (bin_rows * static_cast<double>(reward_rows[y])));
    }
  }
  return sum;
}

/// (v − min)/(max − min), all 0 when max = min.
std::vector<double> minmax(std::span<const double> v) {
  std::vector<double> out(v.size(), 0.0);
  if (v.empty()) return out;
  const auto [low, high] = std::minmax_element(v.begin(), v.end());
  const double range = *high - *low;
  if (!(range > 0.0)) return out;
  for (std::size_t f = 0; f < v.size(); ++f) out[f] = (v[f] - *low) / range;
  return out;
}

}  // namespace

FeatureScores score_feature(const CellCounts& cells, HieReference reference, int control_arm) {
  BFS_CHECK(cells.arms >= 1 && control_arm >= 0 && control_arm < cells.arms, "control arm ", control_arm, " of ",
            cells.arms);
  BFS_CHECK(cells.count.size() == static_cast<std::size_t>(cells.bins) * static_cast<std::size_t>(cells.arms) * 2);
  FeatureScores out;
  const std::vector<Cell> totals = arm_totals(cells);
  const std::int64_t rows = rows_of(totals);
  if (rows == 0) return out;
  out.hie = hie_score(cells, totals, reference);
  out.hdd = hdd_score(cells, totals);
  for (int t = 0; t < cells.arms; ++t)
    if (t != control_arm) add_baselines(cells, totals, t, control_arm, out);
  out.mi = mutual_information(cells, rows);
  return out;
}

std::vector<double> combine(std::span<const double> hie, std::span<const double> hdd, double alpha_hie,
                            double alpha_hdd) {
  BFS_CHECK(hie.size() == hdd.size(), "hie ", hie.size(), " vs hdd ", hdd.size());
  const std::vector<double> hie01 = minmax(hie), hdd01 = minmax(hdd);
  std::vector<double> out(hie.size());
  for (std::size_t f = 0; f < out.size(); ++f) out[f] = alpha_hie * hie01[f] + alpha_hdd * hdd01[f];
  return out;
}

}  // namespace bfs::cmab

#include "methods/cmab/scores.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/error.hpp"

namespace bfs::cmab {
namespace {

constexpr double kFloor = 1e-6;  // HDD's clip of q ([CMAB A.1] has none: causalml's, as 1e-6)
// causalml's filters' floor, 0.1**6 as Python evaluates it (two ulps above 1e-6): their KL clip of q and Chi's
// denominators, so that KL / ED / Chi equal filter_D's to the last bits.
constexpr double kUpliftFloor = 1.0000000000000004e-06;

/// One (bin, arm) cell, or an arm's total over all bins.
struct Cell {
  std::int64_t zeros = 0, ones = 0;
  std::int64_t rows() const { return zeros + ones; }
  double rate() const { return static_cast<double>(ones) / static_cast<double>(rows()); }
  /// HDD's smoothing (causalml's smooth=True applied per cell): a reward value the cell lacks counts once, so P is in
  /// (0, 1) and KL stays finite. causalml's filters smooth per node instead (uplift_node).
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

/// KL(p‖q) of two Bernoulli laws, q clipped to [floor, 1 − floor] (causalml's _kl_divergence).
double bernoulli_kl(double p, double q, double floor = kFloor) {
  q = std::clamp(q, floor, 1.0 - floor);
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

/// A node of causalml's filters (a bin, or all rows) as its _GetNodeSummary(smooth=True) sees it: per arm with rows,
/// its rate and size after a zero count of a label that occurs in the node became 1.
struct UpliftNode {
  std::vector<double> rate;        ///< per arm; meaningful where size > 0
  std::vector<std::int64_t> size;  ///< per arm, smoothed; 0 = no rows in the node
  std::int64_t rows = 0;           ///< Σ size: the node's weight numerator
  bool one_label = false;          ///< every row has the same reward
};

UpliftNode uplift_node(std::span<const Cell> arms) {
  bool any_zero = false, any_one = false;
  for (const Cell& c : arms) {
    any_zero = any_zero || c.zeros > 0;
    any_one = any_one || c.ones > 0;
  }
  UpliftNode node;
  node.rate.assign(arms.size(), 0.0);
  node.size.assign(arms.size(), 0);
  node.one_label = any_zero != any_one;
  for (std::size_t i = 0; i < arms.size(); ++i) {
    const Cell& c = arms[i];
    if (c.rows() == 0) continue;
    const std::int64_t zeros = any_zero ? std::max<std::int64_t>(c.zeros, 1) : 0;
    const std::int64_t ones = any_one ? std::max<std::int64_t>(c.ones, 1) : 0;
    node.size[i] = zeros + ones;
    node.rate[i] = static_cast<double>(ones) / static_cast<double>(node.size[i]);
    node.rows += node.size[i];
  }
  return node;
}

struct UpliftScores {
  double kl = 0, ed = 0, chi = 0;
};

/// The node's Σ over treatment arms t with rows of D(p_t, p_c); 0 without control rows, and 0 when every row has
/// the same reward (all rates equal, so nothing diverges; causalml's KL is 0·ln 0 = NaN there).
UpliftScores node_scores(const UpliftNode& node, int control) {
  UpliftScores d;
  const auto c = static_cast<std::size_t>(control);
  if (node.size[c] == 0 || node.one_label) return d;
  const double pc = node.rate[c];
  for (std::size_t t = 0; t < node.size.size(); ++t) {
    if (t == c || node.size[t] == 0) continue;
    const double pt = node.rate[t], squared = (pt - pc) * (pt - pc);
    d.kl += bernoulli_kl(pt, pc, kUpliftFloor);
    d.ed += 2.0 * squared;
    d.chi += squared / std::max(kUpliftFloor, pc) + squared / std::max(kUpliftFloor, 1.0 - pc);
  }
  return d;
}

/// causalml's filter_D: Σ_b (rows_b / N) D_b − D_all, rows_b the bin's smoothed sizes over all arms, N all rows.
void add_uplift_filters(const CellCounts& cells, std::span<const Cell> totals, int control, FeatureScores& out) {
  const auto n = static_cast<double>(rows_of(totals));
  UpliftScores children;
  for (int b = 0; b < cells.bins; ++b) {
    const UpliftNode node = uplift_node(bin_cells(cells, b));
    if (node.rows == 0) continue;
    const double weight = static_cast<double>(node.rows) / n;
    const UpliftScores d = node_scores(node, control);
    children.kl += weight * d.kl;
    children.ed += weight * d.ed;
    children.chi += weight * d.chi;
  }
  const UpliftScores parent = node_scores(uplift_node(totals), control);
  out.kl = children.kl - parent.kl;
  out.ed = children.ed - parent.ed;
  out.chi = children.chi - parent.chi;
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

/// (v − min)/(max − min) with min and max those of `reference`, all 0 when max = min (or reference is empty).
std::vector<double> minmax(std::span<const double> reference, std::span<const double> v) {
  std::vector<double> out(v.size(), 0.0);
  if (reference.empty()) return out;
  const auto [low, high] = std::minmax_element(reference.begin(), reference.end());
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
  add_uplift_filters(cells, totals, control_arm, out);
  out.mi = mutual_information(cells, rows);
  return out;
}

std::vector<double> combine(std::span<const double> hie, std::span<const double> hdd, double alpha_hie,
                            double alpha_hdd) {
  return combine_on(hie, hdd, hie, hdd, alpha_hie, alpha_hdd);
}

std::vector<double> combine_on(std::span<const double> feature_hie, std::span<const double> feature_hdd,
                               std::span<const double> hie, std::span<const double> hdd, double alpha_hie,
                               double alpha_hdd) {
  BFS_CHECK(hie.size() == hdd.size(), "hie ", hie.size(), " vs hdd ", hdd.size());
  const std::vector<double> hie01 = minmax(feature_hie, hie), hdd01 = minmax(feature_hdd, hdd);
  std::vector<double> out(hie.size());
  for (std::size_t f = 0; f < out.size(); ++f) out[f] = alpha_hie * hie01[f] + alpha_hdd * hdd01[f];
  return out;
}

}  // namespace bfs::cmab

// DART's draws (Linero 2018 §3; the R package BART's draw_s and draw_theta0): the split-column probabilities
// s | counts ~ Dirichlet(θ/p′ + counts) and the concentration θ | s. See bart.hpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "estimators/bart.hpp"

namespace bfs::bart {

namespace {

/// log G for G ~ Gamma(shape, 1): for shape < 1, G = G′·U^{1/shape} with G′ ~ Gamma(shape + 1), taken on the log
/// scale so that a shape of 10⁻⁴ (θ/p′ with many columns) does not underflow to log 0.
double log_gamma_draw(double shape, Rng& rng) {
  if (shape >= 1.0) return std::log(rng.gamma(shape));
  const double boosted = rng.gamma(shape + 1.0);
  double u = rng.uniform();
  while (u == 0.0) u = rng.uniform();
  return std::log(boosted) + std::log(u) / shape;
}

double log_sum_exp(std::span<const double> values) {
  const double top = *std::max_element(values.begin(), values.end());
  if (!std::isfinite(top)) return top;
  double sum = 0.0;
  for (double v : values) sum += std::exp(v - top);
  return top + std::log(sum);
}

}  // namespace

std::vector<double> draw_log_dirichlet(std::span<const double> shapes, Rng& rng) {
  std::vector<double> out(shapes.size());
  for (std::size_t j = 0; j < shapes.size(); ++j) out[j] = log_gamma_draw(shapes[j], rng);
  const double total = log_sum_exp(out);
  for (double& v : out) v -= total;
  return out;
}

ThetaGrid::ThetaGrid(double a, double b, double rho, std::size_t columns) {
  constexpr int kGrid = 1000;
  const auto p = static_cast<double>(columns);
  for (int k = 0; k < kGrid; ++k) {
    const double lambda = static_cast<double>(k + 1) / (kGrid + 1.0);
    const double t = lambda * rho / (1.0 - lambda);
    theta.push_back(t);
    theta_over_p.push_back(t / p);
    gamma_part.push_back(std::lgamma(t) - p * std::lgamma(t / p));
    prior_a_part.push_back((a - 1.0) * std::log(lambda));
    prior_b_part.push_back((b - 1.0) * std::log(1.0 - lambda));
  }
}

double draw_theta(std::span<const double> log_s, const ThetaGrid& grid, Rng& rng) {
  double sum_log_s = 0.0;
  for (double v : log_s) sum_log_s += v;
  const std::size_t size = grid.theta.size();
  std::vector<double>& weight = grid.scratch;
  weight.resize(size);
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < size; ++k) {
    // log Dirichlet(s | θ/p′) as a function of θ, plus the Beta(a, b) log prior of λ = θ/(θ + ρ).
    weight[k] = grid.gamma_part[k] + grid.theta_over_p[k] * sum_log_s + grid.prior_a_part[k] + grid.prior_b_part[k];
    top = std::max(top, weight[k]);
  }
  if (!std::isfinite(top)) return grid.theta.back();  // no usable weight (a log s of −∞): the grid's end, as ever
  // Weights relative to the largest, which is 1. A weight below e^−40 (4·10⁻¹⁸) is taken as 0 without calling exp:
  // most of the grid is that far down, and all of them together hold under 1000·e^−40 < 5·10⁻¹⁵ of the total, a
  // change to the draw's probabilities at the level of their rounding.
  constexpr double kNegligible = -40.0;
  double total = 0.0;
  for (std::size_t k = 0; k < size; ++k) {
    const double relative = weight[k] - top;
    weight[k] = relative < kNegligible ? 0.0 : std::exp(relative);
    total += weight[k];
  }
  double u = rng.uniform() * total;
  for (std::size_t k = 0; k < size; ++k) {
    u -= weight[k];
    if (u < 0.0) return grid.theta[k];
  }
  return grid.theta.back();  // rounding left u ≥ 0 after the last weight
}

}  // namespace bfs::bart

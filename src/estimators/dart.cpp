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

double draw_theta(std::span<const double> log_s, double a, double b, double rho, Rng& rng) {
  constexpr int kGrid = 1000;
  const auto p = static_cast<double>(log_s.size());
  double sum_log_s = 0.0;
  for (double v : log_s) sum_log_s += v;
  std::vector<double> theta(kGrid), log_weight(kGrid);
  for (int k = 0; k < kGrid; ++k) {
    const double lambda = static_cast<double>(k + 1) / (kGrid + 1.0);
    theta[static_cast<std::size_t>(k)] = lambda * rho / (1.0 - lambda);
    const double t = theta[static_cast<std::size_t>(k)];
    // log Dirichlet(s | θ/p′) as a function of θ, plus the Beta(a, b) log prior of λ = θ/(θ + ρ).
    log_weight[static_cast<std::size_t>(k)] = std::lgamma(t) - p * std::lgamma(t / p) + (t / p) * sum_log_s +
                                              (a - 1.0) * std::log(lambda) + (b - 1.0) * std::log(1.0 - lambda);
  }
  const double total = log_sum_exp(log_weight);
  double u = rng.uniform();
  for (int k = 0; k < kGrid; ++k) {
    u -= std::exp(log_weight[static_cast<std::size_t>(k)] - total);
    if (u < 0.0) return theta[static_cast<std::size_t>(k)];
  }
  return theta.back();  // rounding left u ≥ 0 after the last weight
}

}  // namespace bfs::bart

// L1-penalised logistic regression for make_lasso(params, Task::Binary): glmnet's coordinate descent on the IRLS
// quadratic approximation (Friedman, Hastie & Tibshirani 2010, §3, eqs. (16)–(17)), on the regression lasso's
// standardised columns, with warm starts down the λ path and k-fold CV on the held-out log-loss.
//
// Two departures from a bare Newton iteration, both standard: the weights are floored at 1e-5 (glmnet does the same
// for p within 1e-5 of 0 or 1) while the working residual keeps the true p, so the fixed point is still the exact
// optimum (Σ w x (z − η) = Σ x (y − p)); and a step that raises the penalised objective is halved until it does not
// (proximal Newton with backtracking), which guarantees descent where IRLS alone can overshoot.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "config/estimator_config.hpp"
#include "core/error.hpp"
#include "estimators/detail/binary.hpp"
#include "estimators/detail/lasso_common.hpp"
#include "estimators/lasso.hpp"

namespace bfs::detail {

namespace {

constexpr double kMinWeight = 1e-5;

/// A binary problem on standardised columns: xs from s, the 0/1 targets of the same rows.
struct Problem {
  const Standardised& s;
  const Vector& y;
  double threshold;  ///< convergence threshold tol·var(y) on the weighted squared coefficient change (glmnet's rule)
};

/// The fit on standardised columns: margin η = b0 + Xs β, kept in step.
struct Fit {
  double b0 = 0.0;
  Vector beta;
  Vector eta;
};

double logit(double p) {
  return std::log(p / (1.0 - p));
}

Fit null_fit(const Problem& pr) {
  Fit f;
  f.b0 = logit(pr.s.y_mean);
  f.beta = Vector::Zero(pr.s.xs.cols());
  f.eta = Vector::Constant(pr.y.size(), f.b0);
  return f;
}

void recompute_margin(const Problem& pr, Fit& f) {
  f.eta.setConstant(f.b0);
  for (Index j : pr.s.usable) {
    if (f.beta[j] != 0.0) f.eta.noalias() += f.beta[j] * pr.s.xs.col(j);
  }
}

double mean_loss(const Vector& eta, const Vector& y) {
  double total = 0.0;
  for (Index i = 0; i < y.size(); ++i) total += logistic_loss(eta[i], y[i]);
  return total / static_cast<double>(y.size());
}

double objective(const Fit& f, const Vector& y, double lambda) {
  return mean_loss(f.eta, y) + lambda * f.beta.lpNorm<1>();
}

/// The IRLS weights of one outer step and what the inner loop divides by.
struct Weights {
  Vector w;     ///< max(p(1 − p), kMinWeight)
  Vector norm;  ///< (1/n) Σ_i w_i xs_ij² per column
  double sum = 0.0;
};

/// Inner loop: coordinate descent on 1/(2n) Σ w_i (z_i − b0 − x_iβ)² + λ||β||₁ from the current (b0, β), with the
/// working residual r = z − η updated in place; the unpenalised intercept is updated after every pass. Passes as in
/// the regression lasso: a full pass, then passes over the active set until converged, until a full pass is.
void weighted_cd(const Problem& pr, const Weights& wt, double lambda, Fit& f, Vector& r, int max_iter) {
  const Standardised& s = pr.s;
  const double inv_n = 1.0 / static_cast<double>(s.xs.rows());
  auto update = [&](Index j) {
    const auto col = s.xs.col(j);
    const double old = f.beta[j];
    const double g = (col.array() * wt.w.array() * r.array()).sum() * inv_n;
    const double fresh = soft_threshold(g + wt.norm[j] * old, lambda) / wt.norm[j];
    if (fresh == old) return 0.0;
    const double step = fresh - old;
    r.noalias() -= step * col;  // z is fixed within the outer step; η moved by step·x_j
    f.beta[j] = fresh;
    return wt.norm[j] * step * step;
  };
  auto update_intercept = [&] {
    const double step = wt.w.dot(r) / wt.sum;
    f.b0 += step;
    r.array() -= step;
    return wt.sum * inv_n * step * step;
  };
  std::vector<Index> active;
  int iter = 0;
  while (iter < max_iter) {
    double delta = update_intercept();
    for (Index j : s.usable) delta = std::max(delta, update(j));
    ++iter;
    if (delta < pr.threshold) return;
    active.clear();
    for (Index j : s.usable) {
      if (f.beta[j] != 0.0) active.push_back(j);
    }
    while (iter < max_iter) {
      double d = update_intercept();
      for (Index j : active) d = std::max(d, update(j));
      ++iter;
      if (d < pr.threshold) break;
    }
  }
}

/// Outer loop for one λ from the warm start f: IRLS steps until the weighted change of (b0, β) between two steps is
/// below the threshold, at most max_iter steps.
void solve(const Problem& pr, double lambda, Fit& f, int max_iter) {
  const Standardised& s = pr.s;
  const Index n = s.xs.rows();
  Weights wt{Vector(n), Vector::Zero(s.xs.cols()), 0.0};
  Vector r(n);
  double current = objective(f, pr.y, lambda);
  for (int outer = 0; outer < max_iter; ++outer) {
    for (Index i = 0; i < n; ++i) {
      const double p = logistic(f.eta[i]);
      wt.w[i] = std::max(p * (1.0 - p), kMinWeight);
      r[i] = (pr.y[i] - p) / wt.w[i];
    }
    wt.sum = wt.w.sum();
    for (Index j : s.usable) wt.norm[j] = (s.xs.col(j).array().square() * wt.w.array()).sum() / static_cast<double>(n);
    const Fit start = f;
    weighted_cd(pr, wt, lambda, f, r, max_iter);
    recompute_margin(pr, f);
    double next = objective(f, pr.y, lambda);
    // Backtrack towards the start while the step raises the objective (beyond rounding).
    const double b0_full = f.b0;
    const Vector beta_full = f.beta;
    double t = 1.0;
    for (int halving = 0; halving < 30 && next > current + 1e-13 * std::abs(current); ++halving) {
      t *= 0.5;
      f.b0 = start.b0 + t * (b0_full - start.b0);
      f.beta = start.beta + t * (beta_full - start.beta);
      recompute_margin(pr, f);
      next = objective(f, pr.y, lambda);
    }
    double change = wt.sum / static_cast<double>(n) * (f.b0 - start.b0) * (f.b0 - start.b0);
    for (Index j : s.usable) change = std::max(change, wt.norm[j] * std::pow(f.beta[j] - start.beta[j], 2));
    current = next;
    if (change < pr.threshold) return;
  }
}

/// Warm-started fits down `path`, calling visit(l, fit) after each λ; glmnet's early end (after at least 5 values,
/// once the deviance explained exceeds 0.999 or grew by less than 1e-5 relative). Returns the number of λ fitted.
template <class Visit>
std::size_t fit_path(const Problem& pr, const std::vector<double>& path, const LassoParams& params, Visit&& visit) {
  Fit f = null_fit(pr);
  const double null_loss = mean_loss(f.eta, pr.y);
  double previous = 0.0;
  for (std::size_t l = 0; l < path.size(); ++l) {
    solve(pr, path[l], f, params.max_iter);
    visit(l, f);
    const double explained = 1.0 - mean_loss(f.eta, pr.y) / null_loss;
    if (l >= 4 && (explained > 0.999 || explained - previous < 1e-5 * explained)) return l + 1;
    previous = explained;
  }
  return path.size();
}

/// Original scale: coef_j = β_j/sd_j, intercept = b0 − Σ coef_j·mean_j.
std::unique_ptr<LassoModel> to_model(const Standardised& s, const Fit& f, double lambda) {
  Vector coef = Vector::Zero(f.beta.size());
  double intercept = f.b0;
  for (Index j : s.usable) {
    if (f.beta[j] == 0.0) continue;
    coef[j] = f.beta[j] / s.sd[j];
    intercept -= coef[j] * s.mean[j];
  }
  return std::make_unique<LassoModel>(std::move(coef), intercept, lambda, Link::Logistic);
}

Vector subset(const Vector& y, const std::vector<Index>& rows) {
  Vector out(static_cast<Index>(rows.size()));
  for (std::size_t t = 0; t < rows.size(); ++t) out[static_cast<Index>(t)] = y[rows[t]];
  return out;
}

double threshold_of(const Standardised& s, double tol) {
  return tol * s.y_mean * (1.0 - s.y_mean);
}

/// The k × m table of held-out mean log-losses along `path` (a fold path that ends early keeps its last fit). A
/// training fold with one class only predicts its (clipped) class share at every λ.
std::vector<double> fold_losses(const LassoParams& params, const Matrix& X, const Vector& y,
                                const std::vector<Fold>& folds, const std::vector<double>& path) {
  const std::size_t m = path.size();
  std::vector<double> loss(folds.size() * m, 0.0);
  for (std::size_t f = 0; f < folds.size(); ++f) {
    const Vector y_train = subset(y, folds[f].train), y_test = subset(y, folds[f].test);
    const Standardised s = standardise(X, y, folds[f].train);
    const Eigen::MatrixXd xt = standardise_rows(X, folds[f].test, s);
    double* out = loss.data() + f * m;
    if (!(s.y_mean > 0.0 && s.y_mean < 1.0)) {
      const double b0 = logit(std::clamp(s.y_mean, 1e-15, 1.0 - 1e-15));
      std::fill(out, out + m, mean_loss(Vector::Constant(y_test.size(), b0), y_test));
      continue;
    }
    const Problem pr{s, y_train, threshold_of(s, params.tol)};
    const std::size_t done = fit_path(pr, path, params, [&](std::size_t l, const Fit& fit) {
      Vector eta = Vector::Constant(y_test.size(), fit.b0);
      for (Index j : s.usable) {
        if (fit.beta[j] != 0.0) eta.noalias() += fit.beta[j] * xt.col(j);
      }
      out[l] = mean_loss(eta, y_test);
    });
    std::fill(out + done, out + m, out[done - 1]);
  }
  return loss;
}

}  // namespace

std::unique_ptr<LassoModel> fit_logistic_lasso(const LassoParams& params, const Matrix& X, const Vector& y,
                                               std::uint64_t seed) {
  const Standardised all = standardise(X, y, {});
  if (!(all.y_mean > 0.0 && all.y_mean < 1.0)) {
    throw InputError(concat("lasso: binary targets need both classes in the training rows, got only y = ",
                            all.y_mean > 0.0 ? 1 : 0));
  }
  const Problem pr{all, y, threshold_of(all, params.tol)};
  if (params.cv_folds <= 0) {
    Fit f = null_fit(pr);
    solve(pr, params.lambda, f, params.max_iter);
    return to_model(all, f, params.lambda);
  }
  const double lambda_max = lambda_max_of(all);
  std::vector<double> path = log_path(lambda_max, params.n_lambdas, params.lambda_min_ratio);
  const Index n = X.rows();
  const int k = static_cast<int>(std::min<Index>(params.cv_folds, n));
  if (lambda_max == 0.0 || k < 2) return to_model(all, null_fit(pr), lambda_max);  // nothing to select
  std::vector<Fit> fits;
  const std::size_t m = fit_path(pr, path, params, [&](std::size_t, const Fit& f) { fits.push_back(f); });
  path.resize(m);
  const std::vector<Fold> folds = cv_folds(n, k, seed);
  std::vector<double> fold_size;
  fold_size.reserve(folds.size());
  for (const Fold& fold : folds) fold_size.push_back(static_cast<double>(fold.test.size()));
  CvChoice cv = choose_lambda(fold_losses(params, X, y, folds, path), fold_size, k, m, params.one_se_rule);
  auto model = to_model(all, fits[cv.chosen], path[cv.chosen]);
  model->set_cv(std::move(path), std::move(cv.mean));
  return model;
}

}  // namespace bfs::detail

namespace bfs {

std::vector<Index> logistic_lasso_entry_order(const LassoParams& params, const Matrix& X, const Vector& y) {
  using namespace detail;
  const Standardised all = standardise(X, y, {});
  if (!(all.y_mean > 0.0 && all.y_mean < 1.0))
    throw InputError(concat("lasso: binary targets need both classes in the training rows, got only y = ",
                            all.y_mean > 0.0 ? 1 : 0));
  const Index p = X.cols();
  std::vector<std::size_t> entered(static_cast<std::size_t>(p), SIZE_MAX);
  std::vector<double> size_at_entry(static_cast<std::size_t>(p), 0.0);
  const double lambda_max = lambda_max_of(all);
  if (lambda_max > 0.0) {
    const Problem pr{all, y, threshold_of(all, params.tol)};
    fit_path(pr, log_path(lambda_max, params.n_lambdas, params.lambda_min_ratio), params,
             [&](std::size_t l, const Fit& f) {
               for (Index j : all.usable) {
                 const auto k = static_cast<std::size_t>(j);
                 if (entered[k] == SIZE_MAX && f.beta[j] != 0.0) {
                   entered[k] = l;
                   size_at_entry[k] = std::abs(f.beta[j]);
                 }
               }
             });
  }
  std::vector<Index> order(static_cast<std::size_t>(p));
  for (Index j = 0; j < p; ++j) order[static_cast<std::size_t>(j)] = j;
  std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) {
    const auto i = static_cast<std::size_t>(a), k = static_cast<std::size_t>(b);
    if (entered[i] != entered[k]) return entered[i] < entered[k];
    return size_at_entry[i] > size_at_entry[k];
  });
  return order;
}

}  // namespace bfs

// LASSO: cyclic coordinate descent with naive (covariance-free) residual updates and active-set iterations, on
// columns centred and divided by their population standard deviation (Friedman, Hastie & Tibshirani 2010, §2.1–2.6).
// Optional k-fold CV over a warm-started, log-spaced λ path as in glmnet's cv.glmnet (min rule or one-SE rule); the
// returned model is the all-rows path's solution at the chosen λ (the "refit on all rows"). X is converted once per
// fit into a column-major double matrix so every coordinate update is one contiguous dot product and one axpy.
// Task::Binary fits go to logistic_lasso.cpp, which shares the helpers of detail/lasso_common.hpp defined here.
#include "estimators/lasso.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/detail/binary.hpp"
#include "estimators/detail/lasso_common.hpp"
#include "estimators/detail/model_text.hpp"

namespace bfs {

namespace detail {

Standardised standardise(const Matrix& X, const Vector& y, const std::vector<Index>& rows) {
  const Index n = rows.empty() ? X.rows() : static_cast<Index>(rows.size());
  const Index p = X.cols();
  auto row_of = [&](Index r) { return rows.empty() ? r : rows[static_cast<std::size_t>(r)]; };
  Standardised s;
  s.mean = Vector::Zero(p);
  s.sd = Vector::Zero(p);
  s.norm = Vector::Zero(p);
  s.xs.resize(n, p);
  // Copy into column-major double, accumulating the column sums on the way.
  for (Index r = 0; r < n; ++r) {
    const float* row = X.row(row_of(r)).data();
    for (Index j = 0; j < p; ++j) {
      const double v = row[j];
      s.xs(r, j) = v;
      s.mean[j] += v;
    }
  }
  s.mean /= static_cast<double>(n);
  for (Index j = 0; j < p; ++j) {
    auto col = s.xs.col(j);
    col.array() -= s.mean[j];
    const double var = col.squaredNorm() / static_cast<double>(n);  // two-pass variance
    const double sd = std::sqrt(var);
    // A column whose spread is at rounding level relative to its mean is treated as constant.
    if (!(sd > 1e-12 * std::abs(s.mean[j])) || sd == 0.0) {
      col.setZero();
      continue;
    }
    s.sd[j] = sd;
    col /= sd;
    s.norm[j] = col.squaredNorm() / static_cast<double>(n);
    s.usable.push_back(j);
  }
  s.yc.resize(n);
  for (Index r = 0; r < n; ++r) s.yc[r] = y[row_of(r)];
  s.y_mean = s.yc.mean();
  s.yc.array() -= s.y_mean;
  s.y_sd = std::sqrt(s.yc.squaredNorm() / static_cast<double>(n));
  return s;
}

double lambda_max_of(const Standardised& s) {
  double best = 0.0;
  const double inv_n = 1.0 / static_cast<double>(s.xs.rows());
  for (Index j : s.usable) best = std::max(best, std::abs(s.xs.col(j).dot(s.yc)) * inv_n);
  return best;
}

double soft_threshold(double z, double gamma) {
  if (z > gamma) return z - gamma;
  if (z < -gamma) return z + gamma;
  return 0.0;
}

std::vector<double> log_path(double lambda_max, int n_lambdas, double ratio) {
  std::vector<double> path(static_cast<std::size_t>(n_lambdas));
  for (int l = 0; l < n_lambdas; ++l) {
    const double t = n_lambdas == 1 ? 0.0 : static_cast<double>(l) / static_cast<double>(n_lambdas - 1);
    path[static_cast<std::size_t>(l)] = lambda_max * std::pow(ratio, t);
  }
  return path;
}

Eigen::MatrixXd standardise_rows(const Matrix& X, const std::vector<Index>& rows, const Standardised& s) {
  const Index p = X.cols();
  Eigen::MatrixXd xt(static_cast<Index>(rows.size()), p);
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const float* row = X.row(rows[t]).data();
    for (Index j = 0; j < p; ++j) xt(static_cast<Index>(t), j) = s.sd[j] > 0.0 ? (row[j] - s.mean[j]) / s.sd[j] : 0.0;
  }
  return xt;
}

std::vector<Fold> cv_folds(Index n, int k, std::uint64_t seed) {
  Rng rng = Rng::stream(seed, 0, 0, Purpose::Fit);
  const std::vector<std::int64_t> perm = rng.permutation(n);
  std::vector<Fold> folds(static_cast<std::size_t>(k));
  for (int f = 0; f < k; ++f) {
    Fold& fold = folds[static_cast<std::size_t>(f)];
    for (Index i = 0; i < n; ++i) (static_cast<int>(i % k) == f ? fold.test : fold.train).push_back(perm[i]);
  }
  return folds;
}

CvChoice choose_lambda(const std::vector<double>& fold_loss, const std::vector<double>& fold_size, int k, std::size_t m,
                       bool one_se) {
  // cv.glmnet's summaries: fold-size-weighted mean and its standard error.
  CvChoice c;
  c.mean.assign(m, 0.0);
  c.se.assign(m, 0.0);
  double total = 0.0;
  for (int f = 0; f < k; ++f) total += fold_size[f];
  for (std::size_t l = 0; l < m; ++l) {
    for (int f = 0; f < k; ++f) c.mean[l] += fold_size[f] * fold_loss[static_cast<std::size_t>(f) * m + l];
    c.mean[l] /= total;
    double var = 0.0;
    for (int f = 0; f < k; ++f) {
      const double d = fold_loss[static_cast<std::size_t>(f) * m + l] - c.mean[l];
      var += fold_size[f] * d * d;
    }
    c.se[l] = std::sqrt(var / total / static_cast<double>(k - 1));
  }
  std::size_t best = 0;
  for (std::size_t l = 1; l < m; ++l) {
    if (c.mean[l] < c.mean[best]) best = l;
  }
  c.chosen = best;
  if (one_se) {  // the largest λ whose CV error is within one standard error of the minimum
    c.chosen = 0;
    while (c.chosen < best && c.mean[c.chosen] > c.mean[best] + c.se[best]) ++c.chosen;
  }
  return c;
}

}  // namespace detail

namespace {

using detail::soft_threshold;
using detail::Standardised;

/// Coordinate descent for one λ from the warm start `beta` (residual r = yc − Xs·β kept in step).
/// One iteration = one pass over the coordinates (all usable ones, or the active set). Convergence is glmnet's rule:
/// a pass is converged when max_j (||xs_j||²/n)·Δβ_j² < tol·var(y), i.e. max_j |Δβ_j|·(1/sd_y) < √tol on standardised
/// columns (scale-free; tol = 1e-7 ⇒ no coefficient moved by more than 3.2e-4·sd_y). A converged pass over the
/// active set is always followed by a full pass, so the KKT conditions are checked on every column before returning.
void coordinate_descent(const Standardised& s, double lambda, Vector& beta, Vector& r, int max_iter, double tol) {
  const double inv_n = 1.0 / static_cast<double>(s.xs.rows());
  const double threshold = tol * (s.y_sd > 0.0 ? s.y_sd * s.y_sd : 1.0);
  auto update = [&](Index j) {
    const auto col = s.xs.col(j);
    const double old = beta[j];
    const double z = col.dot(r) * inv_n + s.norm[j] * old;
    const double fresh = soft_threshold(z, lambda) / s.norm[j];
    if (fresh == old) return 0.0;
    const double step = fresh - old;
    r.noalias() -= step * col;
    beta[j] = fresh;
    return s.norm[j] * step * step;
  };
  std::vector<Index> active;
  int iter = 0;
  while (iter < max_iter) {
    double delta = 0.0;
    for (Index j : s.usable) delta = std::max(delta, update(j));
    ++iter;
    if (delta < threshold) return;  // a full pass that moved nothing: converged on all columns
    active.clear();
    for (Index j : s.usable) {
      if (beta[j] != 0.0) active.push_back(j);
    }
    while (iter < max_iter) {
      double d = 0.0;
      for (Index j : active) d = std::max(d, update(j));
      ++iter;
      if (d < threshold) break;
    }
  }
}

/// Original-scale coefficients from standardised β: coef_j = β_j/sd_j, intercept = ȳ − Σ coef_j·mean_j.
std::unique_ptr<LassoModel> to_model(const Standardised& s, const Vector& beta, double lambda) {
  Vector coef = Vector::Zero(beta.size());
  double intercept = s.y_mean;
  for (Index j : s.usable) {
    if (beta[j] == 0.0) continue;
    coef[j] = beta[j] / s.sd[j];
    intercept -= coef[j] * s.mean[j];
  }
  return std::make_unique<LassoModel>(std::move(coef), intercept, lambda);
}

class LassoEstimator final : public Estimator {
 public:
  LassoEstimator(const LassoParams& params, Task task) : params_(params), task_(task) {}
  std::string_view name() const override { return "lasso"; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, "lasso", /*allow_nan_x=*/false);
    if (task_ == Task::Binary) {
      validate_binary_target(y, "lasso");
      return detail::fit_logistic_lasso(params_, X, y, options.seed);
    }
    const Standardised all = detail::standardise(X, y, {});
    const Index p = X.cols();
    if (params_.cv_folds <= 0) {
      Vector beta = Vector::Zero(p);
      Vector r = all.yc;
      coordinate_descent(all, params_.lambda, beta, r, params_.max_iter, params_.tol);
      return to_model(all, beta, params_.lambda);
    }
    const double lambda_max = detail::lambda_max_of(all);
    std::vector<double> path = detail::log_path(lambda_max, params_.n_lambdas, params_.lambda_min_ratio);
    const Index n = X.rows();
    const int k = static_cast<int>(std::min<Index>(params_.cv_folds, n));
    if (lambda_max == 0.0 || k < 2) {
      // Nothing to select (constant y or columns, or a single row): the all-zero model at λ_max.
      return to_model(all, Vector::Zero(p), lambda_max);
    }
    // The full-data path first: it fixes how many λ are used (glmnet's early end) and gives the final coefficients,
    // so the chosen model is the all-rows solution at the chosen λ without a separate refit.
    std::vector<Vector> betas;
    const std::size_t m = fit_path(all, path, [&](std::size_t, const Vector& beta) { betas.push_back(beta); });
    path.resize(m);
    const std::vector<detail::Fold> folds = detail::cv_folds(n, k, options.seed);
    std::vector<double> fold_mse(static_cast<std::size_t>(k) * m, 0.0);
    std::vector<double> fold_size(static_cast<std::size_t>(k), 0.0);
    for (int f = 0; f < k; ++f) {
      const std::vector<Index>& test = folds[static_cast<std::size_t>(f)].test;
      fold_size[f] = static_cast<double>(test.size());
      const Standardised s = detail::standardise(X, y, folds[static_cast<std::size_t>(f)].train);
      // The test rows on the training fold's scale, so a prediction is ȳ_train + Xt_s·β.
      const Eigen::MatrixXd xt = detail::standardise_rows(X, test, s);
      Vector yt(static_cast<Index>(test.size()));
      for (std::size_t t = 0; t < test.size(); ++t) yt[static_cast<Index>(t)] = y[test[t]] - s.y_mean;
      double* mse = fold_mse.data() + static_cast<std::size_t>(f) * m;
      const std::size_t done = fit_path(s, path, [&](std::size_t l, const Vector& beta) {
        Vector err = -yt;
        for (Index j : s.usable) {
          if (beta[j] != 0.0) err.noalias() += beta[j] * xt.col(j);
        }
        mse[l] = err.squaredNorm() / static_cast<double>(test.size());
      });
      for (std::size_t l = done; l < m; ++l) mse[l] = mse[done - 1];  // a fold path that ended early keeps its last fit
    }
    detail::CvChoice cv = detail::choose_lambda(fold_mse, fold_size, k, m, params_.one_se_rule);
    auto model = to_model(all, betas[cv.chosen], path[cv.chosen]);
    model->set_cv(std::move(path), std::move(cv.mean));
    return model;
  }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override { return LassoModel::deserialize(bytes); }

 private:
  /// Warm-started coordinate descent down `path`, calling visit(l, β) after each λ. Ends early like glmnet: after at
  /// least 5 values, once the fraction of variance explained exceeds 0.999 or grew by less than 1e-5 (relative) from
  /// the previous λ — the tail of a p > n path is slow to fit and only interpolates. Returns the number of λ fitted.
  template <class Visit>
  std::size_t fit_path(const Standardised& s, const std::vector<double>& path, Visit&& visit) const {
    Vector beta = Vector::Zero(s.xs.cols());
    Vector r = s.yc;
    const double tss = s.yc.squaredNorm();
    double previous = 0.0;
    for (std::size_t l = 0; l < path.size(); ++l) {
      coordinate_descent(s, path[l], beta, r, params_.max_iter, params_.tol);
      visit(l, beta);
      if (tss <= 0.0) continue;
      const double explained = 1.0 - r.squaredNorm() / tss;
      if (l >= 4 && (explained > 0.999 || explained - previous < 1e-5 * explained)) return l + 1;
      previous = explained;
    }
    return path.size();
  }

  LassoParams params_;
  Task task_;
};

}  // namespace

LassoModel::LassoModel(Vector coef, double intercept, double lambda, Link link) : lambda_(lambda) {
  linear_.coef = std::move(coef);
  linear_.intercept = intercept;
  linear_.link = link;
  for (Index j = 0; j < linear_.coef.size(); ++j) {
    if (linear_.coef[j] != 0.0) nonzero_.push_back(j);
  }
}

void LassoModel::set_cv(std::vector<double> path, std::vector<double> loss) {
  path_ = std::move(path);
  cv_loss_ = std::move(loss);
}

Vector LassoModel::predict(const Matrix& X) const {
  if (X.cols() != num_features()) {
    throw InputError(detail::concat("lasso: model has ", num_features(), " features but X has ", X.cols(), " columns"));
  }
  // Exactly m = intercept + Σ_j coef_j·x_j in ascending j; skipping coef_j == 0 changes no bit (adds ±0).
  // The logistic link maps the margin through detail::logistic, as the importance fast path does.
  Vector out(X.rows());
  const double* coef = linear_.coef.data();
  const bool logistic = linear_.link == Link::Logistic;
  for (Index i = 0; i < X.rows(); ++i) {
    const float* row = X.row(i).data();
    double sum = linear_.intercept;
    for (Index j : nonzero_) sum += coef[j] * static_cast<double>(row[j]);
    out[i] = logistic ? detail::logistic(sum) : sum;
  }
  return out;
}

std::string LassoModel::serialize() const {
  std::string out = "banditfs-lasso 2\n";
  out += detail::link_name(linear_.link);
  out += ' ';
  out += std::to_string(num_features());
  out += ' ';
  detail::append_double(out, lambda_);
  out += ' ';
  detail::append_double(out, linear_.intercept);
  out += '\n';
  for (Index j = 0; j < num_features(); ++j) {
    detail::append_double(out, linear_.coef[j]);
    out += j + 1 == num_features() ? '\n' : ' ';
  }
  return out;
}

std::unique_ptr<LassoModel> LassoModel::deserialize(std::string_view bytes) {
  std::istringstream in{std::string(bytes)};
  std::string magic;
  int version = 0;
  long long p = -1;
  if (!(in >> magic >> version) || magic != "banditfs-lasso" || version != 2) {
    throw InputError("lasso: not a serialized lasso model (expected header 'banditfs-lasso 2')");
  }
  const Link link = detail::parse_link(in, "lasso");
  if (!(in >> p) || p < 0) throw InputError("lasso: serialized model has a bad feature count");
  const double lambda = detail::parse_double(in, "lasso", "lambda");
  const double intercept = detail::parse_double(in, "lasso", "intercept");
  Vector coef(static_cast<Index>(p));
  for (Index j = 0; j < coef.size(); ++j) coef[j] = detail::parse_double(in, "lasso", "coefficients");
  return std::make_unique<LassoModel>(std::move(coef), intercept, lambda, link);
}

std::vector<double> lasso_lambda_path(const Matrix& X, const Vector& y, int n_lambdas, double lambda_min_ratio) {
  validate_fit_input(X, y, "lasso", /*allow_nan_x=*/false);
  return detail::log_path(detail::lambda_max_of(detail::standardise(X, y, {})), n_lambdas, lambda_min_ratio);
}

std::unique_ptr<Estimator> make_lasso(const LassoParams& params, Task task) {
  check_bounds(params);  // declared once, in the schema; what follows is not a bound
  if (params.cv_folds == 1) {
    throw ConfigError(detail::concat("estimator.cv_folds: must be 0 (fixed lambda) or >= 2, got ", params.cv_folds));
  }
  return std::make_unique<LassoEstimator>(params, task);
}

}  // namespace bfs

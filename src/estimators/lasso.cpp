// LASSO: cyclic coordinate descent with naive (covariance-free) residual updates and active-set iterations, on
// columns centred and divided by their population standard deviation (Friedman, Hastie & Tibshirani 2010, §2.1–2.6).
// Optional k-fold CV over a warm-started, log-spaced λ path as in glmnet's cv.glmnet (min rule or one-SE rule); the
// returned model is the all-rows path's solution at the chosen λ (the "refit on all rows"). X is converted once per fit into a column-major double matrix so every coordinate update is one
// contiguous dot product and one axpy.
#include "estimators/lasso.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/error.hpp"
#include "estimators/detail/model_text.hpp"
#include "core/rng.hpp"

namespace bfs {

namespace {


/// The rows of X (a subset, or all) standardised into a column-major double matrix, plus what undoes it.
struct Standardised {
  Eigen::MatrixXd xs;         ///< rows × p, column-major; a constant column stays all zero
  Vector mean, sd;            ///< per column; sd == 0 marks a constant column (β stays 0)
  Vector norm;                ///< ||xs_j||²/n (1 up to rounding; exactly what the update divides by)
  std::vector<Index> usable;  ///< non-constant columns
  Vector yc;                  ///< y − ȳ on these rows
  double y_mean = 0.0;
  double y_sd = 0.0;
};

/// `rows` empty = all rows of X.
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

std::vector<double> log_path(double lambda_max, int n_lambdas, double ratio) {
  std::vector<double> path(static_cast<std::size_t>(n_lambdas));
  for (int l = 0; l < n_lambdas; ++l) {
    const double t = n_lambdas == 1 ? 0.0 : static_cast<double>(l) / static_cast<double>(n_lambdas - 1);
    path[static_cast<std::size_t>(l)] = lambda_max * std::pow(ratio, t);
  }
  return path;
}



class LassoEstimator final : public Estimator {
 public:
  explicit LassoEstimator(const LassoParams& params) : params_(params) {}
  std::string_view name() const override { return "lasso"; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, "lasso", /*allow_nan_x=*/false);
    const Standardised all = standardise(X, y, {});
    const Index p = X.cols();
    if (params_.cv_folds <= 0) {
      Vector beta = Vector::Zero(p);
      Vector r = all.yc;
      coordinate_descent(all, params_.lambda, beta, r, params_.max_iter, params_.tol);
      return to_model(all, beta, params_.lambda);
    }
    const double lambda_max = lambda_max_of(all);
    std::vector<double> path = log_path(lambda_max, params_.n_lambdas, params_.lambda_min_ratio);
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
    // Folds: fold of row perm[i] is i mod k.
    Rng rng = Rng::stream(options.seed, 0, 0, Purpose::Fit);
    const std::vector<std::int64_t> perm = rng.permutation(n);
    std::vector<double> fold_mse(static_cast<std::size_t>(k) * m, 0.0);
    std::vector<double> fold_size(static_cast<std::size_t>(k), 0.0);
    for (int f = 0; f < k; ++f) {
      std::vector<Index> train, test;
      for (Index i = 0; i < n; ++i) (static_cast<int>(i % k) == f ? test : train).push_back(perm[i]);
      fold_size[f] = static_cast<double>(test.size());
      const Standardised s = standardise(X, y, train);
      // The test rows on the training fold's scale, so a prediction is ȳ_train + Xt_s·β.
      Eigen::MatrixXd xt(static_cast<Index>(test.size()), p);
      Vector yt(static_cast<Index>(test.size()));
      for (std::size_t t = 0; t < test.size(); ++t) {
        const float* row = X.row(test[t]).data();
        for (Index j = 0; j < p; ++j) {
          xt(static_cast<Index>(t), j) = s.sd[j] > 0.0 ? (row[j] - s.mean[j]) / s.sd[j] : 0.0;
        }
        yt[static_cast<Index>(t)] = y[test[t]] - s.y_mean;
      }
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
    // cv.glmnet's summaries: fold-size-weighted mean and its standard error.
    std::vector<double> cvm(m, 0.0), cvse(m, 0.0);
    const double total = static_cast<double>(n);
    for (std::size_t l = 0; l < m; ++l) {
      for (int f = 0; f < k; ++f) cvm[l] += fold_size[f] * fold_mse[static_cast<std::size_t>(f) * m + l];
      cvm[l] /= total;
      double var = 0.0;
      for (int f = 0; f < k; ++f) {
        const double d = fold_mse[static_cast<std::size_t>(f) * m + l] - cvm[l];
        var += fold_size[f] * d * d;
      }
      cvse[l] = std::sqrt(var / total / static_cast<double>(k - 1));
    }
    std::size_t best = 0;
    for (std::size_t l = 1; l < m; ++l) {
      if (cvm[l] < cvm[best]) best = l;
    }
    std::size_t chosen = best;
    if (params_.one_se_rule) {  // the largest λ whose CV error is within one standard error of the minimum
      chosen = 0;
      while (chosen < best && cvm[chosen] > cvm[best] + cvse[best]) ++chosen;
    }
    auto model = to_model(all, betas[chosen], path[chosen]);
    model->set_cv(std::move(path), std::move(cvm), std::move(cvse));
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
};

}  // namespace

LassoModel::LassoModel(Vector coef, double intercept, double lambda) : lambda_(lambda) {
  linear_.coef = std::move(coef);
  linear_.intercept = intercept;
  for (Index j = 0; j < linear_.coef.size(); ++j) {
    if (linear_.coef[j] != 0.0) nonzero_.push_back(j);
  }
}

void LassoModel::set_cv(std::vector<double> path, std::vector<double> mse, std::vector<double> se) {
  path_ = std::move(path);
  cv_mse_ = std::move(mse);
  cv_se_ = std::move(se);
}

Vector LassoModel::predict(const Matrix& X) const {
  if (X.cols() != num_features()) {
    throw InputError(detail::concat("lasso: model has ", num_features(), " features but X has ", X.cols(), " columns"));
  }
  // Exactly ŷ = intercept + Σ_j coef_j·x_j in ascending j; skipping coef_j == 0 changes no bit (adds +0).
  Vector out(X.rows());
  const double* coef = linear_.coef.data();
  for (Index i = 0; i < X.rows(); ++i) {
    const float* row = X.row(i).data();
    double sum = linear_.intercept;
    for (Index j : nonzero_) sum += coef[j] * static_cast<double>(row[j]);
    out[i] = sum;
  }
  return out;
}

std::string LassoModel::serialize() const {
  std::string out = "banditfs-lasso 1\n";
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
  if (!(in >> magic >> version) || magic != "banditfs-lasso" || version != 1) {
    throw InputError("lasso: not a serialized lasso model (expected header 'banditfs-lasso 1')");
  }
  if (!(in >> p) || p < 0) throw InputError("lasso: serialized model has a bad feature count");
  const double lambda = detail::parse_double(in, "lasso", "lambda");
  const double intercept = detail::parse_double(in, "lasso", "intercept");
  Vector coef(static_cast<Index>(p));
  for (Index j = 0; j < coef.size(); ++j) coef[j] = detail::parse_double(in, "lasso", "coefficients");
  return std::make_unique<LassoModel>(std::move(coef), intercept, lambda);
}

std::vector<double> lasso_lambda_path(const Matrix& X, const Vector& y, int n_lambdas, double lambda_min_ratio) {
  validate_fit_input(X, y, "lasso", /*allow_nan_x=*/false);
  return log_path(lambda_max_of(standardise(X, y, {})), n_lambdas, lambda_min_ratio);
}

std::unique_ptr<Estimator> make_lasso(const LassoParams& params, Task task) {
  if (task == Task::Binary) throw ConfigError("estimator.name = \"lasso\": classification mode is not built yet");
  if (!(params.lambda >= 0.0)) throw ConfigError(detail::concat("estimator.lambda: must be >= 0, got ", params.lambda));
  if (params.cv_folds < 0 || params.cv_folds == 1) {
    throw ConfigError(detail::concat("estimator.cv_folds: must be 0 (fixed lambda) or >= 2, got ", params.cv_folds));
  }
  if (params.n_lambdas < 1) throw ConfigError(detail::concat("estimator.n_lambdas: must be >= 1, got ", params.n_lambdas));
  if (!(params.lambda_min_ratio > 0.0 && params.lambda_min_ratio <= 1.0)) {
    throw ConfigError(detail::concat("estimator.lambda_min_ratio: must be in (0, 1], got ", params.lambda_min_ratio));
  }
  if (params.max_iter < 1) throw ConfigError(detail::concat("estimator.max_iter: must be >= 1, got ", params.max_iter));
  if (!(params.tol > 0.0)) throw ConfigError(detail::concat("estimator.tol: must be > 0, got ", params.tol));
  return std::make_unique<LassoEstimator>(params);
}

}  // namespace bfs

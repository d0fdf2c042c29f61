// The svm estimator (issue 14; paper 001 §7.1's learner): a Gaussian-kernel C-SVC trained by Debian's libsvm
// (Chang & Lin 2011, LIBSVM: a library for support vector machines, ACM TIST 2(3)), binary targets only.
//
//  - Columns are standardised on the training rows (mean, population sd; a constant column maps to 0), as paper
//    001 standardises its data (§7.1); K(x, x') = exp(−γ‖x − x'‖²) on the standardised columns.
//  - C and γ: estimator.c / estimator.gamma when set, else chosen by `folds`-fold CV on the training rows from
//    C ∈ 2^{−1,1,3,5,7}, γ ∈ 2^{−2,0,2}/d (d = columns), by the fewest misclassified held-out rows; ties go to the
//    earlier grid point (smaller C, then smaller γ). Folds: row i of a permutation drawn from the fit seed (stream (fit
//    seed, 0, 0, Tuning, 2)) goes to fold i mod folds, so the choice is the same for any thread count. libsvm's own
//    CV (which draws from rand()) is not used.
//  - The fitted model keeps its support vectors, their coefficients α_i·y_i and ρ, and predicts itself (libsvm is
//    only the trainer): m(x) = Σ_i coef_i K(sv_i, x) − ρ, signed so that m > 0 means class 1, and
//    ŷ = σ(m) = P̂(y = 1). σ of the decision value is a monotone score for AUC and the 0.5 cut is the SVM's own
//    decision; it is not a calibrated probability (libsvm's Platt scaling, -b 1, costs an inner CV and is not used).
//  - Training rows of one class: the model predicts that class (σ(±∞)); libsvm is not called.
#include <libsvm/svm.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <mutex>

#include "config/schema.hpp"
#include "core/byte_codec.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/estimator.hpp"

namespace bfs {
namespace {

constexpr std::array<double, 5> kLog2C = {-1, 1, 3, 5, 7};
constexpr std::array<double, 3> kLog2GammaTimesD = {-2, 0, 2};

double logistic(double m) {
  return 1.0 / (1.0 + std::exp(-m));
}

/// Standardised rows (row-major, n × p) and the column means and sds that made them.
struct Standardised {
  Eigen::MatrixXd rows;
  Eigen::VectorXd mean, sd;
};

Standardised standardise(const Matrix& X) {
  Standardised s;
  const Eigen::MatrixXd x = X.cast<double>();
  s.mean = x.colwise().mean().transpose();
  s.sd.resize(x.cols());
  for (Index j = 0; j < x.cols(); ++j) {
    const double sd = std::sqrt((x.col(j).array() - s.mean[j]).square().mean());
    s.sd[j] = sd > 0.0 ? sd : 1.0;
  }
  s.rows = (x.rowwise() - s.mean.transpose()).array().rowwise() / s.sd.transpose().array();
  return s;
}

class SvmModel final : public Model {
 public:
  SvmModel(Eigen::MatrixXd sv, Eigen::VectorXd coef, double rho, double gamma, Eigen::VectorXd mean, Eigen::VectorXd sd,
           double constant_margin)
      : sv_(std::move(sv)),
        coef_(std::move(coef)),
        rho_(rho),
        gamma_(gamma),
        mean_(std::move(mean)),
        sd_(std::move(sd)),
        constant_margin_(constant_margin) {}

  Vector predict(const Matrix& X) const override {
    Vector out(X.rows());
    Eigen::VectorXd x(X.cols());
    for (Index i = 0; i < X.rows(); ++i) {
      for (Index j = 0; j < X.cols(); ++j) x[j] = (static_cast<double>(X(i, j)) - mean_[j]) / sd_[j];
      out[i] = logistic(margin(x));
    }
    return out;
  }

  double margin(const Eigen::VectorXd& x) const {
    if (sv_.rows() == 0) return constant_margin_;
    double sum = 0.0;
    for (Index k = 0; k < sv_.rows(); ++k)
      sum += coef_[k] * std::exp(-gamma_ * (sv_.row(k).transpose() - x).squaredNorm());
    return sum - rho_;
  }

  std::string serialize() const override {
    ByteWriter w;
    w.put<std::int64_t>(sv_.rows());
    w.put<std::int64_t>(mean_.size());
    w.put_vector(std::vector<double>(sv_.data(), sv_.data() + sv_.size()));
    w.put_vector(std::vector<double>(coef_.begin(), coef_.end()));
    w.put(rho_);
    w.put(gamma_);
    w.put_vector(std::vector<double>(mean_.begin(), mean_.end()));
    w.put_vector(std::vector<double>(sd_.begin(), sd_.end()));
    w.put(constant_margin_);
    return w.take();
  }

  static std::unique_ptr<SvmModel> deserialize(std::string_view bytes) {
    ByteReader r(bytes, "svm model");
    const auto count = r.get<std::int64_t>();
    const auto p = r.get<std::int64_t>();
    const std::vector<double> sv = r.get_vector<double>();
    const std::vector<double> coef = r.get_vector<double>();
    const double rho = r.get<double>();
    const double gamma = r.get<double>();
    const std::vector<double> mean = r.get_vector<double>();
    const std::vector<double> sd = r.get_vector<double>();
    const double constant_margin = r.get<double>();
    r.finish();
    if (count < 0 || p < 0 || sv.size() != static_cast<std::size_t>(count * p) ||
        coef.size() != static_cast<std::size_t>(count) || mean.size() != static_cast<std::size_t>(p) ||
        sd.size() != static_cast<std::size_t>(p))
      throw InternalError("svm model: inconsistent sizes");
    Eigen::MatrixXd rows =
        Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>>(sv.data(), count, p);
    return std::make_unique<SvmModel>(std::move(rows), Eigen::Map<const Eigen::VectorXd>(coef.data(), count), rho,
                                      gamma, Eigen::Map<const Eigen::VectorXd>(mean.data(), p),
                                      Eigen::Map<const Eigen::VectorXd>(sd.data(), p), constant_margin);
  }

  Index num_features() const override { return mean_.size(); }
  bool supports_concurrent_predict() const override { return true; }

 private:
  Eigen::MatrixXd sv_;  ///< support vectors, standardised, one per row
  Eigen::VectorXd coef_;
  double rho_, gamma_;
  Eigen::VectorXd mean_, sd_;
  double constant_margin_;  ///< the margin when there are no support vectors (one class in training)
};

/// A trained C-SVC on some rows of the standardised data: the support vectors' rows and coefficients signed for
/// class 1, ρ likewise; or, for rows of one class, that class's constant margin.
struct Trained {
  std::vector<std::size_t> sv_rows;  ///< indices into the rows it was trained on
  std::vector<double> coef;
  double rho = 0.0;
  double constant_margin = 0.0;
};

void silence(const char*) {}

Trained train(const Eigen::MatrixXd& x, const std::vector<double>& labels, const std::vector<std::size_t>& rows,
              double c, double gamma) {
  Trained out;
  const bool has0 = std::any_of(rows.begin(), rows.end(), [&](std::size_t r) { return labels[r] == 0.0; });
  const bool has1 = std::any_of(rows.begin(), rows.end(), [&](std::size_t r) { return labels[r] == 1.0; });
  if (!has0 || !has1) {
    out.constant_margin = has1 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    return out;
  }
  static std::once_flag quiet;
  std::call_once(quiet, [] { svm_set_print_string_function(&silence); });
  const auto p = static_cast<std::size_t>(x.cols());
  std::vector<svm_node> nodes(rows.size() * (p + 1));
  std::vector<svm_node*> row_nodes(rows.size());
  std::vector<double> y(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    svm_node* node = &nodes[i * (p + 1)];
    for (std::size_t j = 0; j < p; ++j)
      node[j] = {static_cast<int>(j + 1), x(static_cast<Index>(rows[i]), static_cast<Index>(j))};
    node[p] = {-1, 0.0};
    row_nodes[i] = node;
    y[i] = labels[rows[i]];
  }
  svm_problem problem{static_cast<int>(rows.size()), y.data(), row_nodes.data()};
  svm_parameter param{};
  param.svm_type = C_SVC;
  param.kernel_type = RBF;
  param.gamma = gamma;
  param.C = c;
  param.cache_size = 100;
  param.eps = 1e-3;
  param.shrinking = 1;
  param.probability = 0;
  if (const char* error = svm_check_parameter(&problem, &param)) throw InternalError(std::string("libsvm: ") + error);
  svm_model* model = svm_train(&problem, &param);
  // label[0] is the class of positive decision values; sign everything so that m > 0 means class 1.
  const double sign = model->label[0] == 1 ? 1.0 : -1.0;
  out.rho = sign * model->rho[0];
  for (int k = 0; k < model->l; ++k) {
    out.sv_rows.push_back(rows[static_cast<std::size_t>(model->sv_indices[k] - 1)]);
    out.coef.push_back(sign * model->sv_coef[0][k]);
  }
  svm_free_and_destroy_model(&model);
  return out;
}

/// m(x_r) of a Trained model for standardised row r.
double margin_of(const Trained& t, const Eigen::MatrixXd& x, std::size_t r, double gamma) {
  if (t.sv_rows.empty()) return t.constant_margin;
  double sum = 0.0;
  for (std::size_t k = 0; k < t.sv_rows.size(); ++k)
    sum += t.coef[k] *
           std::exp(-gamma * (x.row(static_cast<Index>(t.sv_rows[k])) - x.row(static_cast<Index>(r))).squaredNorm());
  return sum - t.rho;
}

class SvmEstimator final : public Estimator {
 public:
  explicit SvmEstimator(const SvmParams& params) : params_(params) { check_bounds(params); }
  std::string_view name() const override { return "svm"; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, "svm", /*allow_nan_x=*/false);
    validate_binary_target(y, "svm");
    Standardised s = standardise(X);
    const std::vector<double> labels(y.begin(), y.end());
    const auto [c, gamma] = choose(s.rows, labels, options.seed);
    std::vector<std::size_t> all(labels.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const Trained t = train(s.rows, labels, all, c, gamma);
    Eigen::MatrixXd sv(static_cast<Index>(t.sv_rows.size()), s.rows.cols());
    for (std::size_t k = 0; k < t.sv_rows.size(); ++k)
      sv.row(static_cast<Index>(k)) = s.rows.row(static_cast<Index>(t.sv_rows[k]));
    return std::make_unique<SvmModel>(
        std::move(sv), Eigen::Map<const Eigen::VectorXd>(t.coef.data(), static_cast<Index>(t.coef.size())), t.rho,
        gamma, std::move(s.mean), std::move(s.sd), t.constant_margin);
  }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override { return SvmModel::deserialize(bytes); }

 private:
  /// (C, γ): the job's, or the CV choice over the grid for those left at 0.
  std::pair<double, double> choose(const Eigen::MatrixXd& x, const std::vector<double>& labels,
                                   std::uint64_t seed) const {
    const double d = static_cast<double>(x.cols());
    std::vector<double> cs, gammas;
    if (params_.c > 0.0) {
      cs = {params_.c};
    } else {
      for (double e : kLog2C) cs.push_back(std::exp2(e));
    }
    if (params_.gamma > 0.0) {
      gammas = {params_.gamma};
    } else {
      for (double e : kLog2GammaTimesD) gammas.push_back(std::exp2(e) / d);
    }
    if (cs.size() == 1 && gammas.size() == 1) return {cs[0], gammas[0]};
    const std::size_t n = labels.size();
    const auto folds = static_cast<std::size_t>(params_.folds);
    std::vector<std::size_t> fold(n);
    const auto order = Rng::stream(seed, 0, 0, Purpose::Tuning, 2).permutation(static_cast<std::int64_t>(n));
    for (std::size_t i = 0; i < n; ++i) fold[static_cast<std::size_t>(order[i])] = i % folds;
    std::pair<double, double> best{cs[0], gammas[0]};
    std::size_t best_errors = n + 1;
    for (double c : cs) {
      for (double gamma : gammas) {
        std::size_t errors = 0;
        for (std::size_t f = 0; f < folds; ++f) {
          std::vector<std::size_t> train_rows, test_rows;
          for (std::size_t i = 0; i < n; ++i) (fold[i] == f ? test_rows : train_rows).push_back(i);
          if (test_rows.empty()) continue;
          const Trained t = train(x, labels, train_rows, c, gamma);
          for (std::size_t r : test_rows) errors += (margin_of(t, x, r, gamma) > 0.0 ? 1.0 : 0.0) != labels[r];
        }
        if (errors < best_errors) {
          best_errors = errors;
          best = {c, gamma};
        }
      }
    }
    return best;
  }

  SvmParams params_;
};

}  // namespace

std::unique_ptr<Estimator> make_svm(const SvmParams& params, Task task) {
  if (task != Task::Binary)
    throw ConfigError("estimator.name = \"svm\" needs data.task = \"binary\" (it is a classifier; got \"" +
                      std::string(name_of(task)) + "\")");
  return std::make_unique<SvmEstimator>(params);
}

}  // namespace bfs

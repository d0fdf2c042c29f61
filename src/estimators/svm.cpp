// The svm estimator ([FUSE §7.1]'s learner): a Gaussian-kernel C-SVC trained by Debian's libsvm
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
  Eigen::RowVectorXd mean, sd;
};

Standardised standardise(const Matrix& X) {
  Standardised s;
  const Eigen::MatrixXd x = X.cast<double>();
  s.mean = x.colwise().mean();
  s.sd.resize(x.cols());
  for (Index j = 0; j < x.cols(); ++j) {
    const double sd = std::sqrt((x.col(j).array() - s.mean[j]).square().mean());
    s.sd[j] = sd > 0.0 ? sd : 1.0;
  }
  s.rows = (x.rowwise() - s.mean).array().rowwise() / s.sd.array();
  return s;
}

/// A trained C-SVC in standardised space: m(x) = Σ_k coef_k·exp(−γ‖sv_k − x‖²) − ρ, signed so that m > 0 means
/// class 1; without support vectors (training rows of one class) m is that class's ±∞. Used by the CV and the model.
struct Decision {
  Eigen::MatrixXd sv;  ///< support vectors, one per row
  Eigen::VectorXd coef;
  double rho = 0.0;
  double gamma = 0.0;
  double constant_margin = 0.0;

  template <class Row>
  double margin(const Row& x) const {
    if (sv.rows() == 0) return constant_margin;
    double sum = 0.0;
    for (Index k = 0; k < sv.rows(); ++k) sum += coef[k] * std::exp(-gamma * (sv.row(k) - x).squaredNorm());
    return sum - rho;
  }
};

class SvmModel final : public Model {
 public:
  SvmModel(Decision decision, Eigen::RowVectorXd mean, Eigen::RowVectorXd sd)
      : decision_(std::move(decision)), mean_(std::move(mean)), sd_(std::move(sd)) {}

  Vector predict(const Matrix& X) const override {
    Vector out(X.rows());
    Eigen::RowVectorXd x(X.cols());
    for (Index i = 0; i < X.rows(); ++i) {
      for (Index j = 0; j < X.cols(); ++j) x[j] = (static_cast<double>(X(i, j)) - mean_[j]) / sd_[j];
      out[i] = logistic(decision_.margin(x));
    }
    return out;
  }

  std::string serialize() const override {
    const Decision& d = decision_;
    ByteWriter w;
    w.put<std::int64_t>(d.sv.rows());
    w.put<std::int64_t>(mean_.size());
    w.put_vector(std::vector<double>(d.sv.data(), d.sv.data() + d.sv.size()));
    w.put_vector(std::vector<double>(d.coef.begin(), d.coef.end()));
    w.put(d.rho);
    w.put(d.gamma);
    w.put_vector(std::vector<double>(mean_.begin(), mean_.end()));
    w.put_vector(std::vector<double>(sd_.begin(), sd_.end()));
    w.put(d.constant_margin);
    return w.take();
  }

  static std::unique_ptr<SvmModel> deserialize(std::string_view bytes) {
    ByteReader r(bytes, "svm model");
    const auto count = r.get<std::int64_t>();
    const auto p = r.get<std::int64_t>();
    const std::vector<double> sv = r.get_vector<double>();
    const std::vector<double> coef = r.get_vector<double>();
    Decision d;
    d.rho = r.get<double>();
    d.gamma = r.get<double>();
    const std::vector<double> mean = r.get_vector<double>();
    const std::vector<double> sd = r.get_vector<double>();
    d.constant_margin = r.get<double>();
    r.finish();
    if (count < 0 || p < 0 || sv.size() != static_cast<std::size_t>(count * p) ||
        coef.size() != static_cast<std::size_t>(count) || mean.size() != static_cast<std::size_t>(p) ||
        sd.size() != static_cast<std::size_t>(p))
      throw InternalError("svm model: inconsistent sizes");
    d.sv = Eigen::Map<const Eigen::MatrixXd>(sv.data(), count, p);
    d.coef = Eigen::Map<const Eigen::VectorXd>(coef.data(), count);
    return std::make_unique<SvmModel>(std::move(d), Eigen::Map<const Eigen::RowVectorXd>(mean.data(), p),
                                      Eigen::Map<const Eigen::RowVectorXd>(sd.data(), p));
  }

  Index num_features() const override { return mean_.size(); }
  bool supports_concurrent_predict() const override { return true; }

 private:
  Decision decision_;
  Eigen::RowVectorXd mean_, sd_;  ///< the training rows' column means and sds (standardisation)
};

void silence(const char*) {}

/// libsvm's C-SVC on `rows` of the standardised data x.
Decision train(const Eigen::MatrixXd& x, const std::vector<double>& labels, const std::vector<std::size_t>& rows,
               double c, double gamma) {
  Decision out;
  out.gamma = gamma;
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
  out.sv.resize(model->l, x.cols());
  out.coef.resize(model->l);
  for (int k = 0; k < model->l; ++k) {
    out.sv.row(k) = x.row(static_cast<Index>(rows[static_cast<std::size_t>(model->sv_indices[k] - 1)]));
    out.coef[k] = sign * model->sv_coef[0][k];
  }
  svm_free_and_destroy_model(&model);
  return out;
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
    return std::make_unique<SvmModel>(train(s.rows, labels, all, c, gamma), std::move(s.mean), std::move(s.sd));
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
          const Decision d = train(x, labels, train_rows, c, gamma);
          for (std::size_t r : test_rows)
            errors += (d.margin(x.row(static_cast<Index>(r))) > 0.0 ? 1.0 : 0.0) != labels[r];
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

std::unique_ptr<Estimator> make_svm(const SvmParams& params, Task) {
  return std::make_unique<SvmEstimator>(params);
}

}  // namespace bfs

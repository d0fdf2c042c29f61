// Second-order Gaussian model-X knockoffs, equicorrelated or SDP construction ([TVS §7.2]); see knockoffs.hpp.
#include "data/knockoffs.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <utility>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace bfs {

namespace {

/// Below this smallest eigenvalue of the correlation matrix, s = 2 λ_min would make every knockoff a copy of its
/// original to six digits and the construction numerically fragile: the correlation is shrunk instead.
constexpr double kNearSingular = 1e-6;

bool is_constant(const Matrix& X, Index j) {
  return (X.col(j).array() == X(0, j)).all();
}

/// C (q × q) of the standardised columns Z (n × q, column-major): each entry one dot product of two contiguous
/// columns, so the value does not depend on the thread count (an Eigen blocked product's would).
Eigen::MatrixXd correlation_of(const Eigen::MatrixXd& Z) {
  const Index q = Z.cols();
  const auto denom = static_cast<double>(Z.rows() - 1);
  Eigen::MatrixXd C(q, q);
#pragma omp parallel for schedule(dynamic)
  for (Index j = 0; j < q; ++j) {
    for (Index k = 0; k < j; ++k) C(j, k) = C(k, j) = Z.col(j).dot(Z.col(k)) / denom;
    C(j, j) = 1.0;
  }
  return C;
}

/// Ledoit & Wolf's (2004) optimal weight of the target m·I for the covariance Cn = (1/n) Σ z zᵀ of the standardised
/// rows (so m = tr(Cn)/q = (n − 1)/n): δ = min(1, b̄² / d²), d² = ‖Cn − m I‖², b̄² = (1/n²) Σ_i ‖z_i z_iᵀ − Cn‖²
/// = (Σ_i ‖z_i‖⁴ / n − ‖Cn‖²) / n. On C's scale the target is I: δ I + (1 − δ) C.
double ledoit_wolf_weight(const Eigen::MatrixXd& Z, const Eigen::MatrixXd& C) {
  const auto n = static_cast<double>(Z.rows());
  const auto q = static_cast<double>(Z.cols());
  const Eigen::MatrixXd Cn = C * ((n - 1.0) / n);
  const double m = Cn.trace() / q;
  const double d2 = (Cn - m * Eigen::MatrixXd::Identity(Z.cols(), Z.cols())).squaredNorm();
  const double sum4 = Z.rowwise().squaredNorm().squaredNorm();
  const double b2 = std::max(0.0, (sum4 / n - Cn.squaredNorm()) / n);
  return d2 > 0.0 ? std::min(1.0, b2 / d2) : 1.0;
}

/// U diag(d) Uᵀ as a coefficient-wise product (thread-count independent, see correlation_of()).
Eigen::MatrixXd spectral(const Eigen::MatrixXd& U, const Eigen::VectorXd& d) {
  const Eigen::MatrixXd scaled = U * d.asDiagonal();
  return scaled.lazyProduct(U.transpose());
}

/// Gaussian knockoffs model numeric, complete columns ([TVS §7.2]): a categorical feature (its indicators are not
/// Gaussian, and a knockoff of each would break the feature into unrelated arms) or a missing cell (no covariance)
/// has none. ConfigError naming the column and what to do.
void refuse_tables_without_a_model(const DataSource& inner) {
  const FeatureLayout layout = inner.layout();
  const std::vector<std::string>& names = inner.feature_names();
  for (std::size_t f = 0; f < layout.levels.size(); ++f) {
    if (!layout.levels[f].empty())
      throw ConfigError(detail::concat("data.knockoffs: column '", names[static_cast<std::size_t>(f)], "' of ",
                                       inner.describe(),
                                       " is categorical, and Gaussian knockoffs model numeric columns only; leave "
                                       "it out (data.exclude) or set data.knockoffs = \"none\""));
  }
  const std::vector<std::int64_t> missing = inner.missing();
  for (std::size_t f = 0; f < missing.size(); ++f) {
    if (missing[f] > 0)
      throw ConfigError(detail::concat("data.knockoffs: column '", names[f], "' of ", inner.describe(), " has ",
                                       missing[f],
                                       " missing values, and Gaussian knockoffs need complete columns; fill them "
                                       "in, leave the column out (data.exclude) or set data.knockoffs = \"none\""));
  }
}

class KnockoffSource final : public DataSource {
 public:
  KnockoffSource(std::unique_ptr<DataSource> inner, std::int64_t noise, std::uint64_t seed,
                 KnockoffConstruction construction)
      : inner_(std::move(inner)), seed_(seed), construction_(construction) {
    const std::vector<std::string>& names = inner_->feature_names();
    refuse_tables_without_a_model(*inner_);
    BFS_CHECK(noise >= 0 && noise <= static_cast<std::int64_t>(names.size()), "noise ", noise);
    data_cols_ = static_cast<Index>(names.size()) - static_cast<Index>(noise);
    const std::unordered_set<std::string> taken(names.begin(), names.end());
    names_.assign(names.begin(), names.begin() + data_cols_);
    for (Index j = 0; j < data_cols_; ++j) {
      std::string name = knockoff_name(names[static_cast<std::size_t>(j)]);
      if (taken.count(name) != 0)
        throw InputError(
            detail::concat(inner_->describe(), ": column '", name,
                           "' clashes with the name of a knockoff column (data.knockoffs = \"gaussian\")"));
      names_.push_back(std::move(name));
    }
    names_.insert(names_.end(), names.begin() + data_cols_, names.end());
  }
  int num_periods() const override { return inner_->num_periods(); }
  Index num_features() const override { return inner_->num_features() + data_cols_; }
  /// The inner source's counts (all 0: a missing cell is refused) with 0 for each knockoff.
  std::vector<std::int64_t> missing() const override {
    return inner_->missing().empty() ? std::vector<std::int64_t>{}
                                     : std::vector<std::int64_t>(static_cast<std::size_t>(num_features()), 0);
  }
  std::int64_t rows_without_target() const override { return inner_->rows_without_target(); }
  const std::vector<std::string>& feature_names() const override { return names_; }
  const std::vector<FeatureId>& truth() const override { return inner_->truth(); }
  bool has_truth() const override { return inner_->has_truth(); }
  Dataset load_period(int k) override {
    Dataset data = inner_->load_period(k);
    append_gaussian_knockoffs(data, seed_, k, data_cols_, construction_);
    return data;
  }
  std::string describe() const override {
    return inner_->describe() +
           (construction_ == KnockoffConstruction::Sdp ? " + gaussian knockoffs (sdp)" : " + gaussian knockoffs");
  }

 private:
  std::unique_ptr<DataSource> inner_;
  std::uint64_t seed_;
  KnockoffConstruction construction_;
  Index data_cols_ = 0;
  std::vector<std::string> names_;
};

}  // namespace

Eigen::MatrixXd GaussianKnockoffModel::covariance() const {
  const Index p = mean.size(), q = static_cast<Index>(varying.size());
  Eigen::MatrixXd sigma = Eigen::MatrixXd::Zero(p, p);
  for (Index a = 0; a < q; ++a)
    for (Index b = 0; b < q; ++b) {
      const Index j = varying[static_cast<std::size_t>(a)], k = varying[static_cast<std::size_t>(b)];
      sigma(j, k) = sd[j] * sd[k] * correlation(a, b);
    }
  return sigma;
}

std::string knockoff_name(const std::string& name) {
  std::string out = "ko_";
  out += name;
  return out;
}

Eigen::VectorXd sdp_knockoff_s(const Eigen::MatrixXd& correlation_inverse) {
  const Index q = correlation_inverse.rows();
  Eigen::VectorXd s = Eigen::VectorXd::Zero(q);
  Eigen::MatrixXd g = 0.5 * correlation_inverse;  // (2C − diag(s))⁻¹ at s = 0
  Eigen::VectorXd column(q);
  for (const double mu : {1e-1, 1e-2, 1e-3, 1e-4}) {
    for (int sweep = 0; sweep < 50; ++sweep) {
      double largest_step = 0.0;
      for (Index j = 0; j < q; ++j) {
        const double m = g(j, j) / (1.0 + s[j] * g(j, j));  // (2C − diag(s_{−j}))⁻¹_jj
        const double step = std::clamp(1.0 / m - mu, 0.0, 1.0) - s[j];
        if (step == 0.0) continue;
        // 2C − diag(s) loses step·e_j e_jᵀ: Sherman–Morrison on its inverse (an outer product, no threaded GEMM).
        column = g.col(j);
        g.noalias() += (step / (1.0 - step * g(j, j))) * column * column.transpose();
        s[j] += step;
        largest_step = std::max(largest_step, std::abs(step));
      }
      if (largest_step < 1e-9) break;
    }
  }
  return s;
}

GaussianKnockoffModel fit_gaussian_knockoffs(const Matrix& X, const std::string& origin,
                                             KnockoffConstruction construction) {
  const Index n = X.rows(), p = X.cols();
  if (n < 2)
    throw InputError(detail::concat(origin,
                                    ": data.knockoffs = \"gaussian\" needs at least 2 rows to estimate a "
                                    "covariance (the period has ",
                                    n, ")"));
  GaussianKnockoffModel model;
  model.mean = Eigen::VectorXd::Zero(p);
  for (Index i = 0; i < n; ++i) model.mean += X.row(i).transpose().cast<double>();
  model.mean /= static_cast<double>(n);
  Eigen::VectorXd squares = Eigen::VectorXd::Zero(p);
  for (Index i = 0; i < n; ++i) squares += (X.row(i).transpose().cast<double>() - model.mean).array().square().matrix();
  model.sd = Eigen::VectorXd::Zero(p);
  for (Index j = 0; j < p; ++j) {
    if (is_constant(X, j)) continue;  // exactly: a computed σ of a constant column may be a rounding error, not 0
    model.varying.push_back(j);
    model.sd[j] = std::sqrt(squares[j] / static_cast<double>(n - 1));
  }
  const auto q = static_cast<Index>(model.varying.size());
  if (q == 0) return model;
  Eigen::MatrixXd Z(n, q);  // the standardised varying columns, column-major: each column contiguous for the dots
  for (Index a = 0; a < q; ++a) {
    const Index j = model.varying[static_cast<std::size_t>(a)];
    Z.col(a) = (X.col(j).cast<double>().array() - model.mean[j]) / model.sd[j];
  }
  model.correlation = correlation_of(Z);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(model.correlation);
  Eigen::VectorXd lambda = eigen.eigenvalues();  // ascending
  if (lambda[0] < kNearSingular) {
    const double floor = (kNearSingular - lambda[0]) / (1.0 - lambda[0]);  // the δ that lifts λ_min to kNearSingular
    const double delta = std::max(ledoit_wolf_weight(Z, model.correlation), floor);
    model.shrinkage = delta;
    lambda = (delta + (1.0 - delta) * lambda.array()).matrix();  // C* has C's eigenvectors
    model.correlation = delta * Eigen::MatrixXd::Identity(q, q) + (1.0 - delta) * model.correlation;
  }
  model.lambda_min = lambda[0];
  const Eigen::MatrixXd inverse = spectral(eigen.eigenvectors(), lambda.cwiseInverse());  // C*⁻¹ (C* shares C's U)
  model.s = construction == KnockoffConstruction::Sdp ? sdp_knockoff_s(inverse)
                                                      : Eigen::VectorXd::Constant(q, std::min(1.0, 2.0 * lambda[0]));
  const Eigen::MatrixXd s_inverse = model.s.asDiagonal() * inverse;  // diag(s) C*⁻¹: a row scaling
  model.shift = Eigen::MatrixXd::Identity(q, q) - s_inverse;
  Eigen::MatrixXd noise_covariance = -s_inverse * model.s.asDiagonal();  // − diag(s) C*⁻¹ diag(s): a column scaling
  noise_covariance.diagonal() += 2.0 * model.s;
  noise_covariance = 0.5 * (noise_covariance + noise_covariance.transpose());  // exactly symmetric for the solver
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> noise(noise_covariance);
  model.noise_root = spectral(noise.eigenvectors(), noise.eigenvalues().cwiseMax(0.0).cwiseSqrt());
  return model;
}

Matrix sample_gaussian_knockoffs(const Matrix& X, const GaussianKnockoffModel& model, std::uint64_t seed, int period,
                                 std::int64_t first_row) {
  const Index n = X.rows(), p = X.cols(), q = static_cast<Index>(model.varying.size());
  BFS_CHECK(model.mean.size() == p, "model of ", model.mean.size(), " columns for ", p);
  Matrix out = X;  // a constant column is its own knockoff
  if (q == 0) return out;
#pragma omp parallel
  {
    Eigen::VectorXd z(q), g(q), tilde(q);
#pragma omp for schedule(static)
    for (Index i = 0; i < n; ++i) {
      Rng rng = Rng::stream(seed, static_cast<std::uint64_t>(period), static_cast<std::uint64_t>(first_row + i),
                            Purpose::Knockoff);
      for (Index a = 0; a < q; ++a) {
        const Index j = model.varying[static_cast<std::size_t>(a)];
        z[a] = (static_cast<double>(X(i, j)) - model.mean[j]) / model.sd[j];
        g[a] = rng.normal();
      }
      // Matrix × vector products: Eigen does not thread them, so each row's value is the same on any thread.
      tilde.noalias() = model.shift * z;  // shift is symmetric: z (I − s C*⁻¹) as a row is this column
      tilde.noalias() += model.noise_root * g;
      for (Index a = 0; a < q; ++a) {
        const Index j = model.varying[static_cast<std::size_t>(a)];
        out(i, j) = static_cast<float>(model.mean[j] + model.sd[j] * tilde[a]);
      }
    }
  }
  return out;
}

GaussianKnockoffModel append_gaussian_knockoffs(Dataset& data, std::uint64_t seed, int period, Index columns,
                                                KnockoffConstruction construction) {
  BFS_CHECK(data.layout.one_column_each(), "knockoffs of a table with categorical features");
  const Index p = data.cols(), k = columns < 0 ? p : columns;
  BFS_CHECK(k <= p && static_cast<Index>(data.feature_names.size()) == p, "columns ", k, " of ", p);
  const Matrix head = data.X.leftCols(k);
  for (Index j = 0; j < k; ++j) {  // a panel's counts are not known ahead: its periods are checked as they load
    if (head.col(j).hasNaN())
      throw InputError(detail::concat(data.origin, ": data.knockoffs: column '",
                                      data.feature_names[static_cast<std::size_t>(j)],
                                      "' has missing values, and Gaussian knockoffs need complete columns; fill them "
                                      "in, leave the column out (data.exclude) or set data.knockoffs = \"none\""));
  }
  GaussianKnockoffModel model = fit_gaussian_knockoffs(head, data.origin, construction);
  const Matrix knockoffs = sample_gaussian_knockoffs(head, model, seed, period);
  Matrix X(data.rows(), p + k);
  X.leftCols(k) = head;
  X.middleCols(k, k) = knockoffs;
  X.rightCols(p - k) = data.X.rightCols(p - k);
  data.X = std::move(X);
  std::vector<std::string> names(data.feature_names.begin(), data.feature_names.begin() + k);
  for (Index j = 0; j < k; ++j) names.push_back(knockoff_name(data.feature_names[static_cast<std::size_t>(j)]));
  names.insert(names.end(), data.feature_names.begin() + k, data.feature_names.end());
  data.feature_names = std::move(names);
  if (!data.missing.empty()) data.missing.insert(data.missing.begin() + k, static_cast<std::size_t>(k), 0);
  return model;
}

std::unique_ptr<DataSource> with_gaussian_knockoffs(std::unique_ptr<DataSource> inner, std::int64_t noise_features,
                                                    std::uint64_t seed, KnockoffConstruction construction) {
  return std::make_unique<KnockoffSource>(std::move(inner), noise_features, seed, construction);
}

}  // namespace bfs

// Missing cells: the shared helpers and the mean-imputing estimator (see missing.hpp).
#include "estimators/missing.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace bfs {

bool has_missing(const Matrix& X) {
  const float* data = X.data();
  const Index size = X.size();
  for (Index k = 0; k < size; ++k)
    if (std::isnan(data[k])) return true;
  return false;
}

std::vector<std::uint8_t> missing_columns(const Matrix& X) {
  if (!has_missing(X)) return {};
  std::vector<std::uint8_t> missing(static_cast<std::size_t>(X.cols()), 0);
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = 0; j < X.cols(); ++j)
      if (std::isnan(X(i, j))) missing[static_cast<std::size_t>(j)] = 1;
  return missing;
}

std::vector<float> column_means(const Matrix& X) {
  const auto p = static_cast<std::size_t>(X.cols());
  std::vector<double> sum(p, 0.0);
  std::vector<Index> count(p, 0);
  for (Index i = 0; i < X.rows(); ++i) {
    const float* row = X.data() + i * X.cols();
    for (std::size_t j = 0; j < p; ++j) {
      if (std::isnan(row[j])) continue;
      sum[j] += static_cast<double>(row[j]);
      ++count[j];
    }
  }
  std::vector<float> mean(p, 0.0f);
  for (std::size_t j = 0; j < p; ++j)
    if (count[j] > 0) mean[j] = static_cast<float>(sum[j] / static_cast<double>(count[j]));
  return mean;
}

Matrix impute(const Matrix& X, std::span<const float> fill) {
  BFS_CHECK(static_cast<Index>(fill.size()) == X.cols(), "impute: ", fill.size(), " fill values for ", X.cols(),
            " columns");
  Matrix out = X;
  float* data = out.data();
  for (Index i = 0; i < out.rows(); ++i)
    for (Index j = 0; j < out.cols(); ++j)
      if (std::isnan(data[i * out.cols() + j])) data[i * out.cols() + j] = fill[static_cast<std::size_t>(j)];
  return out;
}

bool imputes_missing(EstimatorName name, MissingRule rule) {
  if (rule == MissingRule::Impute) return true;
  switch (name) {
    case EstimatorName::RandomForest:
    case EstimatorName::Gbm:
    case EstimatorName::Hgb:
      return false;  // their trees route missing cells (random_forest.cpp, gbm.cpp, hgb.cpp)
    default:
      return true;
  }
}

namespace {

// The serialized form: this magic, the column count (int64), the fill values (float32 each), the inner model's
// bytes. Bytes without the magic are an inner model's alone (a model fitted before imputation existed).
constexpr std::string_view kMagic = "BFSIMPUTE1";

class ImputingModel final : public Model {
 public:
  ImputingModel(std::unique_ptr<Model> inner, std::vector<float> fill) : inner_(std::move(inner)) {
    imputation_.fill = std::move(fill);
    imputation_.model = inner_.get();
  }

  Vector predict(const Matrix& X) const override {
    if (!has_missing(X)) return inner_->predict(X);
    return inner_->predict(impute(X, imputation_.fill));
  }

  std::string serialize() const override {
    std::string out(kMagic);
    const auto p = static_cast<std::int64_t>(imputation_.fill.size());
    out.append(reinterpret_cast<const char*>(&p), sizeof(p));
    out.append(reinterpret_cast<const char*>(imputation_.fill.data()), imputation_.fill.size() * sizeof(float));
    return out + inner_->serialize();
  }

  Index num_features() const override { return inner_->num_features(); }
  bool supports_concurrent_predict() const override { return inner_->supports_concurrent_predict(); }
  const LinearStructure* linear() const override { return inner_->linear(); }
  const TreeEnsemble* trees() const override { return inner_->trees(); }
  const FirstLayer* first_layer() const override { return inner_->first_layer(); }
  const std::vector<double>* impurity_importance() const override { return inner_->impurity_importance(); }
  const Vector* fitted_values() const override { return inner_->fitted_values(); }
  const SplitCounts* split_counts() const override { return inner_->split_counts(); }
  const Imputation* imputation() const override { return &imputation_; }

 private:
  std::unique_ptr<Model> inner_;
  Imputation imputation_;
};

class ImputingEstimator final : public Estimator {
 public:
  explicit ImputingEstimator(std::unique_ptr<Estimator> inner) : inner_(std::move(inner)) {}

  std::string_view name() const override { return inner_->name(); }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    std::vector<float> fill = column_means(X);
    if (!has_missing(X)) return std::make_unique<ImputingModel>(inner_->fit(X, y, options), std::move(fill));
    // The batch's prepare() saw the cells missing: a fit on the filled rows must not reuse it.
    FitOptions filled_options = options;
    filled_options.origin = FitOrigin{};
    std::unique_ptr<Model> inner = inner_->fit(impute(X, fill), y, filled_options);
    return std::make_unique<ImputingModel>(std::move(inner), std::move(fill));
  }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override {
    if (!bytes.starts_with(kMagic)) return inner_->deserialize(bytes);
    const std::string what = std::string(inner_->name()) + " model bytes (mean imputation)";
    bytes.remove_prefix(kMagic.size());
    std::int64_t p = 0;
    if (bytes.size() < sizeof(p)) throw InputError(what + ": truncated");
    std::memcpy(&p, bytes.data(), sizeof(p));
    bytes.remove_prefix(sizeof(p));
    if (p <= 0 || static_cast<std::uint64_t>(p) > bytes.size() / sizeof(float))
      throw InputError(what + ": bad column count");
    std::vector<float> fill(static_cast<std::size_t>(p));
    std::memcpy(fill.data(), bytes.data(), fill.size() * sizeof(float));
    bytes.remove_prefix(fill.size() * sizeof(float));
    std::unique_ptr<Model> inner = inner_->deserialize(bytes);
    if (inner->num_features() != p) throw InputError(what + ": column count differs from the model's");
    return std::make_unique<ImputingModel>(std::move(inner), std::move(fill));
  }

  std::shared_ptr<const PreparedData> prepare(const Matrix& X, int threads) const override {
    return inner_->prepare(X, threads);
  }
  bool fits_in_group() const override { return inner_->fits_in_group(); }

 private:
  std::unique_ptr<Estimator> inner_;
};

}  // namespace

std::unique_ptr<Estimator> make_imputing(std::unique_ptr<Estimator> inner) {
  BFS_CHECK(inner != nullptr, "make_imputing: no estimator");
  return std::make_unique<ImputingEstimator>(std::move(inner));
}

}  // namespace bfs

// BART's estimator and model: cuts, the prior's τ, σ̂ and λ, the fit, split counts and the exact encoding.
// The method is described in bart.hpp; the sampler is bart_sampler.cpp, DART's draws dart.cpp.
#include "estimators/bart.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "estimators/tree_ensemble.hpp"

namespace bfs {

namespace bart {

namespace {

/// The distinct values, ascending, when there are fewer than `limit`; nothing otherwise. A continuous column stops
/// after `limit` values, without the sort of all n that deciding this by sorting would take.
std::optional<std::vector<float>> few_distinct(std::span<const float> values, std::size_t limit) {
  std::unordered_set<float> seen;  // ±0 hash and compare equal, as std::unique's == does
  for (float x : values) {
    seen.insert(x);
    if (seen.size() >= limit) return std::nullopt;
  }
  std::vector<float> sorted(seen.begin(), seen.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

/// Per value of a column, the number of its cuts ≤ x (std::upper_bound's index). A binary search is seven
/// unpredictable branches a value; instead a table over 4·(cuts) equal buckets between the first and last cut gives
/// a start that is off by at most a step or two, which two short loops correct. The loops make the answer exact
/// whatever the rounding of the bucket arithmetic.
void bins_of(std::span<const float> column, const std::vector<float>& cuts, std::uint16_t* bins) {
  const std::size_t count = cuts.size();
  if (count == 0) {
    std::fill(bins, bins + column.size(), std::uint16_t{0});
    return;
  }
  const double first = cuts.front();
  const double width = static_cast<double>(cuts.back()) - first;
  const std::size_t buckets = 4 * count;
  const double scale = width > 0.0 ? static_cast<double>(buckets) / width : 0.0;
  std::vector<std::uint16_t> start(buckets + 1);  // per bucket, the cuts ≤ its lower edge (roughly: corrected below)
  for (std::size_t b = 0, k = 0; b <= buckets; ++b) {
    const double edge = first + static_cast<double>(b) / scale;
    while (k < count && cuts[k] <= edge) ++k;
    start[b] = static_cast<std::uint16_t>(k);
  }
  for (std::size_t i = 0; i < column.size(); ++i) {
    const float x = column[i];
    const double position = (static_cast<double>(x) - first) * scale;
    // Clamped in double before the conversion (X is checked finite, so position is a number).
    const std::size_t bucket = position <= 0.0                            ? 0
                               : position >= static_cast<double>(buckets) ? buckets
                                                                          : static_cast<std::size_t>(position);
    std::size_t k = start[bucket];
    while (k < count && cuts[k] <= x) ++k;
    while (k > 0 && cuts[k - 1] > x) --k;
    bins[i] = static_cast<std::uint16_t>(k);
  }
}

}  // namespace

std::vector<float> column_cuts(std::span<const float> values, int numcut) {
  if (values.empty()) return {};
  const std::optional<std::vector<float>> few = few_distinct(values, static_cast<std::size_t>(std::max(numcut, 2)));
  std::vector<double> cuts;
  float lowest = 0.0f;
  if (few) {
    if (few->size() < 2) return {};
    lowest = few->front();
    for (std::size_t k = 1; k < few->size(); ++k) cuts.push_back(0.5 * (double((*few)[k - 1]) + double((*few)[k])));
  } else {
    const auto [lo_it, hi_it] = std::minmax_element(values.begin(), values.end());
    const double lo = *lo_it, hi = *hi_it;
    lowest = *lo_it;
    for (int k = 1; k <= numcut; ++k) cuts.push_back(lo + (hi - lo) * k / (numcut + 1.0));
  }
  // Rounded to float, the data's type; rounding may merge neighbours, which would be a cut splitting nothing.
  std::vector<float> out;
  for (double c : cuts) {
    const auto f = static_cast<float>(c);
    if (f > lowest && (out.empty() || f > out.back())) out.push_back(f);
  }
  return out;
}

BinnedColumns bin_columns(const Matrix& X, int numcut) {
  BinnedColumns out;
  out.rows = X.rows();
  const auto p = static_cast<std::size_t>(X.cols());
  out.cuts.resize(p);
  out.cut_counts.resize(p);
  out.bins.resize(p * static_cast<std::size_t>(X.rows()));
  std::vector<float> column(static_cast<std::size_t>(X.rows()));
  for (std::size_t v = 0; v < p; ++v) {
    for (Index i = 0; i < X.rows(); ++i) column[static_cast<std::size_t>(i)] = X(i, static_cast<Index>(v));
    out.cuts[v] = column_cuts(column, numcut);
    out.cut_counts[v] = static_cast<std::int32_t>(out.cuts[v].size());
    bins_of(column, out.cuts[v], &out.bins[v * static_cast<std::size_t>(X.rows())]);
  }
  return out;
}

double tau_of(const Vector& y, double k, int trees) {
  return (y.maxCoeff() - y.minCoeff()) / (2.0 * k * std::sqrt(static_cast<double>(trees)));
}

double sigma_hat_of(const Matrix& X, const Vector& y) {
  const Index n = y.size();
  const double mean = y.mean();
  const double sd = n > 1 ? std::sqrt((y.array() - mean).square().sum() / static_cast<double>(n - 1)) : 0.0;
  if (X.cols() >= n) return sd;
  Eigen::MatrixXd design(n, X.cols() + 1);
  design.col(0).setOnes();
  design.rightCols(X.cols()) = X.cast<double>();
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(design);
  const Index rank = qr.rank();
  if (n - rank < 1) return sd;
  const Vector residual = y - design * qr.solve(y);
  return std::sqrt(residual.squaredNorm() / static_cast<double>(n - rank));
}

double lambda_of(double sigma_hat, double nu, double q) {
  const boost::math::chi_squared_distribution<double> chi2(nu);
  return sigma_hat * sigma_hat * boost::math::quantile(chi2, 1.0 - q) / nu;
}

}  // namespace bart

namespace {

constexpr std::string_view kName = "bart";
constexpr std::string_view kMagic = "BFSBART1";

void append_doubles(const std::vector<double>& values, std::string& out) {
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double));
}
std::vector<double> read_doubles(std::string_view& bytes, std::size_t count, const std::string& what) {
  std::vector<double> out(count);
  if (bytes.size() < count * sizeof(double)) throw InputError(what + ": truncated");
  std::memcpy(out.data(), bytes.data(), count * sizeof(double));
  bytes.remove_prefix(count * sizeof(double));
  return out;
}

class BartModel final : public Model {
 public:
  /// A fresh fit: the trees stay in the sampler's arena until something needs them as an ensemble.
  BartModel(bart::KeptTrees kept, TreeEnsemble ensemble, Index num_features, SplitCounts counts, Vector fitted)
      : pending_(std::move(kept)),
        ensemble_(std::move(ensemble)),
        num_features_(num_features),
        counts_(std::move(counts)),
        fitted_(std::move(fitted)) {}
  /// A deserialized model, its ensemble complete.
  BartModel(TreeEnsemble ensemble, Index num_features, SplitCounts counts)
      : ensemble_(std::move(ensemble)), num_features_(num_features), counts_(std::move(counts)) {}

  Vector predict(const Matrix& X) const override {
    if (X.cols() != num_features_)
      throw InputError(detail::concat(kName, ": predict got ", X.cols(), " columns, the model has ", num_features_));
    return predict_ensemble(ensemble(), X, 1);
  }
  std::string serialize() const override {
    std::string out(kMagic);
    const auto p = static_cast<std::int64_t>(num_features_);
    out.append(reinterpret_cast<const char*>(&p), sizeof(p));
    append_doubles(counts_.last, out);
    append_doubles(counts_.mean, out);
    append_ensemble(ensemble(), out);
    return out;
  }
  Index num_features() const override { return num_features_; }
  bool supports_concurrent_predict() const override { return true; }
  const TreeEnsemble* trees() const override { return &ensemble(); }
  const SplitCounts* split_counts() const override { return &counts_; }
  const Vector* fitted_values() const override { return fitted_.size() > 0 ? &fitted_ : nullptr; }

 private:
  /// The ensemble, built from the arena on first use (once, whichever thread asks first).
  const TreeEnsemble& ensemble() const {
    std::call_once(built_, [this] {
      if (!pending_) return;
      ensemble_.trees = bart::to_flat_trees(*pending_);
      pending_.reset();
    });
    return ensemble_;
  }

  mutable std::once_flag built_;
  mutable std::optional<bart::KeptTrees> pending_;
  mutable TreeEnsemble ensemble_;
  Index num_features_;
  SplitCounts counts_;
  Vector fitted_;  ///< empty after deserialize
};

class Bart final : public Estimator {
 public:
  explicit Bart(const BartParams& params) : params_(params) {}
  std::string_view name() const override { return kName; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, kName, /*allow_nan_x=*/false);
    const double mean = y.mean();
    const Vector centred = y.array() - mean;
    bart::Prior prior;
    prior.tau = bart::tau_of(centred, params_.k, params_.n_estimators);
    if (!(prior.tau > 0.0))
      throw InputError(detail::concat(kName, ": the target is constant over the ", y.size(),
                                      " training rows (tau = 0): there is nothing to fit"));
    prior.sigma_hat = bart::sigma_hat_of(X, centred);
    if (!(prior.sigma_hat > 0.0)) prior.sigma_hat = prior.tau;  // an exact OLS fit: any positive scale will do
    prior.lambda = bart::lambda_of(prior.sigma_hat, params_.nu, params_.q);
    const bart::BinnedColumns columns = bart::bin_columns(X, params_.numcut);
    Rng rng = Rng::stream(options.seed, 0, 0, Purpose::Fit);
    bart::SamplerOutput sampled = bart::run_sampler(columns, centred, params_, prior, rng);

    TreeEnsemble ensemble;  // its trees come from the arena on first use
    ensemble.base_score = mean;
    ensemble.scale = 1.0 / sampled.kept_sweeps;
    ensemble.strict_less = true;
    Vector fitted = sampled.mean_fit.array() + mean;
    return std::make_unique<BartModel>(std::move(sampled.kept_trees), std::move(ensemble), X.cols(),
                                       SplitCounts{std::move(sampled.last_splits), std::move(sampled.mean_splits)},
                                       std::move(fitted));
  }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override {
    const std::string what = "bart model bytes";
    if (!bytes.starts_with(kMagic)) throw InputError(what + ": not a serialized bart model");
    bytes.remove_prefix(kMagic.size());
    std::int64_t p = 0;
    if (bytes.size() < sizeof(p)) throw InputError(what + ": truncated");
    std::memcpy(&p, bytes.data(), sizeof(p));
    bytes.remove_prefix(sizeof(p));
    if (p <= 0 || p > (std::int64_t{1} << 40)) throw InputError(what + ": bad feature count");
    SplitCounts counts;
    counts.last = read_doubles(bytes, static_cast<std::size_t>(p), what);
    counts.mean = read_doubles(bytes, static_cast<std::size_t>(p), what);
    TreeEnsemble ensemble = read_ensemble(bytes, what);
    if (!bytes.empty()) throw InputError(what + ": trailing bytes");
    ensemble.strict_less = true;
    validate_ensemble(ensemble, p, what);
    return std::make_unique<BartModel>(std::move(ensemble), p, std::move(counts));
  }

 private:
  BartParams params_;
};

}  // namespace

std::unique_ptr<Estimator> make_bart(const BartParams& params, Task) {
  check_bounds(params);  // declared once, in the schema
  if (params.burn >= params.sweeps)
    throw ConfigError(detail::concat("estimator.burn = ", params.burn, " must be below estimator.sweeps = ",
                                     params.sweeps, ": predict() averages the sweeps after the burn-in"));
  return std::make_unique<Bart>(params);
}

}  // namespace bfs

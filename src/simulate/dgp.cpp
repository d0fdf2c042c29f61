// Simulated data sets with known truth ([Wu eqs. 1, 3, 5]; [TVS §6.1]; [FIRST §3.3, eqs. 16–18, §6.1]);
// see dgp.hpp for the formulas.
#include "simulate/dgp.hpp"

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "data/labels.hpp"
#include "simulate/prior_forest.hpp"

namespace bfs {

namespace {

constexpr double kPi = std::numbers::pi;
/// friedman1-corr: the equicorrelation of z that makes the uniforms Φ(z_j) correlated 0.3 ([TVS §6.1]'s "roughly
/// 0.3"): corr(Φ(z_j), Φ(z_k)) = (6/π) asin(ρ/2) for normal z, so ρ = 2 sin(0.3π/6) = 0.31287.
const double kFriedmanCorrRho = 2.0 * std::sin(0.3 * kPi / 6.0);
/// forest: Σ_jk = 0.3^|j−k| ([TVS §6.1]).
constexpr double kForestRho = 0.3;
/// forest: the stream feature of its trees, (seed, 0, 0, Simulate, 2^40), far from the batch streams' feature 0.
constexpr std::uint64_t kForestTreeStream = std::uint64_t{1} << 40;

/// Every DGP is a value of config's Dgp (data.dgp; its names are declared there, once), the last four [FIRST]'s
/// designs.
using Model = Dgp;

/// The truly relevant features, 0-based ([FIRST]: eq. 16 and §3.3 x1..x3, eq. 17 x1, x2, x3, x6, eq. 18 x1, x7..x10).
std::vector<FeatureId> truth_of(Model model) {
  switch (model) {
    case Model::Ishigami:
    case Model::IshigamiClassic:
      return {0, 1, 2};
    case Model::HeavyTailed:
      return {0, 1, 2, 5};
    case Model::FriedmanMod:
      return {0, 6, 7, 8, 9};
    case Model::Friedman1:
    case Model::Friedman3:
    case Model::Liang:
    case Model::Linear:
    case Model::Friedman1Corr:
    case Model::Forest:   // its trees split on x1..x5 only
    case Model::CmabHte:  // [CMAB §3.1]: x1..x5 change which arm wins (simulate/cmab_hte.hpp)
      break;
  }
  return {0, 1, 2, 3, 4};
}

/// The Gaussian-copula designs of [FIRST §5]: they take ρ, and their binary labels are Bernoulli(Φ(f)) (§6.1).
bool is_copula(Model model) {
  return model == Model::Ishigami || model == Model::HeavyTailed || model == Model::FriedmanMod;
}
/// Binary labels from Φ(f) itself ([FIRST §6.1]) rather than Φ of the batch-standardised f.
bool raw_probit(Model model) {
  return is_copula(model) || model == Model::IshigamiClassic;
}

std::string truth_text(const std::vector<FeatureId>& truth) {
  std::string text;
  for (const FeatureId t : truth) text += detail::concat(text.empty() ? "" : ", ", "x", t + 1);
  return text;
}

Model check_spec(const SimulateSpec& spec) {
  const Model model = spec.dgp;
  if (model == Model::CmabHte)
    throw ConfigError(
        "data.dgp = \"cmab-hte\" simulates contextual-bandit logs (method cmab-scores; banditfs "
        "simulate cmab-hte), not an (X, y) data set");
  if (spec.n <= 0) throw ConfigError(detail::concat("data.n = ", spec.n, " must be positive"));
  const std::vector<FeatureId> truth = truth_of(model);
  const Index need = truth.back() + 1;
  if (spec.p < need) {
    throw ConfigError(
        need == static_cast<Index>(truth.size())
            ? detail::concat("data.p = ", spec.p, " is below the ", need, " relevant features of ", name_of(spec.dgp))
            : detail::concat("data.p = ", spec.p, " is below the ", need, " features ", name_of(spec.dgp),
                             " needs (its truth is ", truth_text(truth), ")"));
  }
  if (!std::isfinite(spec.rho) || spec.rho < 0.0 || spec.rho >= 1.0)
    throw ConfigError(detail::concat("data.rho = ", spec.rho, " must be a finite number in [0, 1)"));
  if (spec.rho != 0.0 && !is_copula(model)) {
    throw ConfigError(detail::concat("data.rho = ", spec.rho, " does not apply to ", name_of(spec.dgp),
                                     " (only ishigami, heavy-tailed and friedman-mod take a correlation)"));
  }
  return model;
}

/// Φ, the standard normal distribution function.
double normal_cdf(double z) {
  return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

/// The Ishigami function (a = 7, b = 0.1) of arguments already on [−π, π] ([FIRST §3.3]).
double ishigami(double a, double b, double c) {
  const double sb = std::sin(b);
  return std::sin(a) + 7.0 * sb * sb + 0.1 * c * c * c * c * std::sin(a);
}

/// f of the [FIRST] designs; x holds at least truth_of(model).back() + 1 values.
double first_mean_of(Model model, const float* x) {
  switch (model) {
    case Model::Ishigami:  // [FIRST eq. 16]: x on [0, 1], rescaled to [−π, π]
      return ishigami(2.0 * kPi * x[0] - kPi, 2.0 * kPi * x[1] - kPi, 2.0 * kPi * x[2] - kPi);
    case Model::IshigamiClassic:  // [FIRST §3.3]: x on [−π, π]
      return ishigami(x[0], x[1], x[2]);
    case Model::HeavyTailed: {  // [FIRST eq. 17]
      const double x1 = x[0], x2 = x[1], x3 = x[2], x6 = x[5];
      return 2.0 * std::log(x1 * x1 + x2 * x2 * x2 * x2) / (std::cos(x1) + std::sin(x3)) +
             x2 * x2 * std::exp(x3) / std::sqrt(1.1 - x6);
    }
    case Model::FriedmanMod: {  // [FIRST eq. 18]
      const double x1 = x[0], x7 = x[6], x8 = x[7], x9 = x[8], x10 = x[9];
      return 10.0 * std::sin(kPi * x1 * x7) + 20.0 * (x8 - 0.5) * (x8 - 0.5) + 10.0 * x9 + 5.0 * x10 - 20.0 * x9 * x10 -
             10.0;
    }
    case Model::Friedman1:
    case Model::Friedman3:
    case Model::Liang:
    case Model::Linear:
    case Model::Friedman1Corr:
    case Model::Forest:
    case Model::CmabHte:
      break;
  }
  throw InternalError("first_mean_of: not a paper-002 design");
}

/// f of every DGP but forest, whose f is its trees (MeanFunction).
double mean_of(Model model, const float* x) {
  if (raw_probit(model)) return first_mean_of(model, x);
  const double x1 = x[0], x2 = x[1], x3 = x[2], x4 = x[3], x5 = x[4];
  switch (model) {
    case Model::Friedman1:      // [Wu eq. 1]
    case Model::Friedman1Corr:  // [TVS §6.1]: eq. 1's f on correlated x
      return 10.0 * std::sin(std::numbers::pi * x1 * x2) + 20.0 * (x3 - 0.5) * (x3 - 0.5) + 10.0 * x4 + 5.0 * x5;
    case Model::Friedman3:  // [Wu eq. 3]
      return 0.1 * std::exp(4.0 * x1) + 4.0 / (1.0 + std::exp(-20.0 * (x2 - 0.5))) + 4.0 * x3 + 3.0 * x4 + 2.0 * x5;
    case Model::Liang:  // [Wu eq. 5]
      return 10.0 * x2 / (1.0 + x1 * x1) + 5.0 * std::sin(x3 * x4) + 2.0 * x5;
    case Model::Linear:  // [TVS §6.1]
      return x1 + 2.0 * x2 + 3.0 * x3 - 2.0 * x4 - x5;
    case Model::Ishigami:
    case Model::HeavyTailed:
    case Model::FriedmanMod:
    case Model::IshigamiClassic:
    case Model::Forest:   // MeanFunction
    case Model::CmabHte:  // refused by check_spec
      break;
  }
  return 0.0;
}

/// forest's f: 200 trees from the BART prior on x1..x5 (simulate/prior_forest.hpp), a fixed function of the seed so
/// that every batch and period of a job shares one f. Leaf values are N(0, 1/200) — our scale, the paper gives none:
/// the sum of 200 independent leaves has prior variance 1 at every x. Over x, f varies less (a tree with one leaf, or
/// a leaf most x fall in, adds a near constant): Var_x f measured 0.20, 0.33, 0.38 for seeds 2, 1, 77 (σ² = 0.5).
std::vector<PriorTree> forest_trees(std::uint64_t seed) {
  PriorForestSpec spec;
  spec.leaf_sd = std::sqrt(1.0 / spec.trees);
  Rng rng = Rng::stream(seed, 0, 0, Purpose::Simulate, kForestTreeStream);
  return draw_prior_forest(spec, rng);
}

/// f of any DGP as a function of a row: the trees of forest (drawn once, from the seed), mean_of otherwise.
class MeanFunction {
 public:
  MeanFunction(Model model, std::uint64_t seed)
      : model_(model), trees_(model == Model::Forest ? forest_trees(seed) : std::vector<PriorTree>{}) {}
  double operator()(const float* x) const {
    return model_ == Model::Forest ? forest_value(trees_, x) : mean_of(model_, x);
  }

 private:
  Model model_;
  std::vector<PriorTree> trees_;
};

double noise_variance_of(Model model) {
  switch (model) {
    case Model::Liang:
    case Model::Forest:  // [TVS §6.1]
      return 0.5;
    case Model::Linear:
      return 5.0;
    case Model::Friedman1:
    case Model::Friedman1Corr:  // [TVS §6.1] takes §5.1's Friedman design, σ² = 1, and adds the correlation
    case Model::Friedman3:
    case Model::Ishigami:  // [FIRST §3.3] and §5: ε ~ N(0, 1)
    case Model::HeavyTailed:
    case Model::FriedmanMod:
    case Model::IshigamiClassic:
    case Model::CmabHte:
      break;
  }
  return 1.0;
}

/// A Gaussian AR(1) along j with unit marginal variance, z_j = ρ z_{j−1} + √(1 − ρ²) e_j, so that
/// corr(z_j, z_k) = ρ^|j−k| exactly; row[j] = transform(z_j).
template <class Transform>
void draw_ar1_row(double rho, Rng& rng, float* row, Index p, Transform transform) {
  const double innovation = std::sqrt(1.0 - rho * rho);
  double prev = rng.normal();
  row[0] = static_cast<float>(transform(prev));
  for (Index j = 1; j < p; ++j) {
    prev = rho * prev + innovation * rng.normal();
    row[j] = static_cast<float>(transform(prev));
  }
}

/// Draws one row of X (p values) from `rng` in column order.
void draw_row(Model model, double rho, Rng& rng, float* row, Index p) {
  const auto identity = [](double z) { return z; };
  switch (model) {
    case Model::Friedman1:
    case Model::Friedman3:
      for (Index j = 0; j < p; ++j) row[j] = static_cast<float>(rng.uniform());
      break;
    case Model::Liang: {
      const double eta = rng.normal();  // shared by the row: corr(x_j, x_k) = 1/2
      for (Index j = 0; j < p; ++j) row[j] = static_cast<float>(0.5 * (eta + rng.normal()));
      break;
    }
    case Model::Linear:  // Σ_jk = 0.9^|j−k|
      draw_ar1_row(0.9, rng, row, p, identity);
      break;
    case Model::Friedman1Corr: {  // z_j = √ρ η + √(1 − ρ) e_j: equicorrelated ρ, unit variance; x_j = Φ(z_j)
      const double shared = std::sqrt(kFriedmanCorrRho) * rng.normal(), own = std::sqrt(1.0 - kFriedmanCorrRho);
      for (Index j = 0; j < p; ++j) row[j] = static_cast<float>(normal_cdf(shared + own * rng.normal()));
      break;
    }
    case Model::Forest:  // Σ_jk = 0.3^|j−k|
      draw_ar1_row(kForestRho, rng, row, p, identity);
      break;
    case Model::Ishigami:
    case Model::HeavyTailed:
    case Model::FriedmanMod:  // [FIRST §5]: the Gaussian copula with uniform marginals, x_j = Φ(z_j)
      draw_ar1_row(rho, rng, row, p, normal_cdf);
      break;
    case Model::IshigamiClassic:  // [FIRST §3.3]
      for (Index j = 0; j < p; ++j) row[j] = static_cast<float>(2.0 * kPi * rng.uniform() - kPi);
      break;
    case Model::CmabHte:  // refused by check_spec
      throw InternalError("draw_row: cmab-hte is not an (X, y) design");
  }
}

/// Replaces y by 0/1 labels, one uniform per row from `rng` in row order: Bernoulli(Φ(f)) for the [FIRST] designs
/// (§6.1), Bernoulli(Φ((f − mean f) / sd f)) for the others.
void draw_binary_labels(const std::vector<double>& f, Rng& rng, Vector& y, const SimulateSpec& spec, Model model) {
  const auto n = static_cast<double>(f.size());
  double mean = 0.0, sd = 1.0;
  if (!raw_probit(model)) {
    for (double v : f) mean += v;
    mean /= n;
    double ss = 0.0;
    for (double v : f) ss += (v - mean) * (v - mean);
    sd = std::sqrt(ss / n);
  }
  if (!(sd > 0.0)) {
    throw ConfigError(detail::concat("data.n = ", spec.n, ": a binary ", name_of(spec.dgp),
                                     " batch needs f to vary over its rows (its standard deviation is 0)"));
  }
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double prob = normal_cdf((f[i] - mean) / sd);
    y[static_cast<Index>(i)] = rng.uniform() < prob ? 1.0 : 0.0;
  }
}

class SimulatedSource final : public DataSource {
 public:
  SimulatedSource(SimulateSpec spec, int periods, bool online, std::int64_t noise)
      : spec_(spec), periods_(periods), online_(online), noise_(noise), truth_(truth_of(check_spec(spec_))) {
    if (periods_ < 1) throw ConfigError(detail::concat("data.periods = ", periods_, " must be at least 1"));
    if (noise_ < 0) throw ConfigError(detail::concat("data.noise_features = ", noise_, " must be >= 0"));
    names_ = default_feature_names(spec_.p);
    for (std::int64_t j = 1; j <= noise_; ++j) names_.push_back(noise_feature_name(j));
  }
  int num_periods() const override { return online_ ? periods_ : 1; }
  Index num_features() const override { return spec_.p + noise_; }
  const std::vector<std::string>& feature_names() const override { return names_; }
  const std::vector<FeatureId>& truth() const override { return truth_; }
  bool has_truth() const override { return true; }
  Dataset load_period(int k) override {
    if (k < 0 || k >= num_periods()) {
      throw InternalError(detail::concat(describe(), ": period ", k, " requested but there are ", num_periods()));
    }
    Dataset data = simulate(spec_, k);
    if (spec_.binary) {
      validate_binary_labels(std::span<const double>(data.y.data(), static_cast<std::size_t>(data.y.size())),
                             std::nullopt, detail::concat(data.origin, " batch ", k));
    }
    append_noise_features(data, noise_, spec_.seed, k, 0);
    return data;
  }
  std::string describe() const override {
    return detail::concat("simulate:", name_of(spec_.dgp), spec_.binary ? " binary" : "", " (n = ", spec_.n,
                          online_ ? " per batch, p = " : " rows, p = ", spec_.p,
                          spec_.rho != 0.0 ? detail::concat(", rho = ", spec_.rho) : "",
                          noise_ > 0 ? detail::concat(" + ", noise_, " noise") : std::string(), ", ", num_periods(),
                          num_periods() == 1 ? " period" : " periods", ", seed ", spec_.seed, ")");
  }

 private:
  SimulateSpec spec_;
  int periods_;
  bool online_;
  std::int64_t noise_;
  std::vector<std::string> names_;
  std::vector<FeatureId> truth_;
};

}  // namespace

std::vector<Dgp> xy_dgps() {
  std::vector<Dgp> dgps;
  for (const auto& [dgp, name] : enum_table(Dgp{}))
    if (dgp != Dgp::CmabHte) dgps.push_back(dgp);  // a log of (context, arm, reward), not (X, y)
  return dgps;
}

std::vector<std::string> dgp_names() {
  std::vector<std::string> names;
  for (const Dgp dgp : xy_dgps()) names.emplace_back(name_of(dgp));
  return names;
}

Dgp dgp_from_name(const std::string& name) {
  if (const auto dgp = enum_from_name<Dgp>(name)) return *dgp;
  std::string known;
  for (const auto& n : dgp_names()) known += (known.empty() ? "" : ", ") + n;
  throw ConfigError(detail::concat("data.dgp = \"", name, "\" is not a known DGP (known: ", known, ")"));
}

std::vector<FeatureId> dgp_truth(Dgp dgp) {
  return truth_of(dgp);
}

bool dgp_uses_rho(Dgp dgp) {
  return is_copula(dgp);
}

double dgp_mean(Dgp dgp, std::span<const float> x) {
  const Model model = dgp;
  if (model == Model::Forest)
    throw ConfigError("dgp_mean: forest's f is drawn from the data seed; use dgp_mean_function(spec)");
  BFS_CHECK(static_cast<Index>(x.size()) > truth_of(model).back(), "row has ", x.size(), " values");
  return mean_of(model, x.data());
}

std::function<double(std::span<const float>)> dgp_mean_function(const SimulateSpec& spec) {
  const Model model = spec.dgp;
  const Index need = truth_of(model).back() + 1;
  return [f = MeanFunction(model, spec.seed), need](std::span<const float> x) {
    BFS_CHECK(static_cast<Index>(x.size()) >= need, "row has ", x.size(), " values");
    return f(x.data());
  };
}

double dgp_noise_variance(Dgp dgp) {
  return noise_variance_of(dgp);
}

Dataset simulate(const SimulateSpec& spec, int batch) {
  const Model model = check_spec(spec);
  BFS_CHECK(batch >= 0, "batch ", batch);
  const Index n = spec.n, p = spec.p;
  const double sigma = std::sqrt(noise_variance_of(model));
  const MeanFunction mean_function(model, spec.seed);
  Rng rng = Rng::stream(spec.seed, static_cast<std::uint64_t>(batch), 0, Purpose::Simulate);
  Dataset data;
  data.X.resize(n, p);
  data.y.resize(n);
  std::vector<double> f(spec.binary ? static_cast<std::size_t>(n) : 0);
  for (Index i = 0; i < n; ++i) {
    float* row = data.X.data() + i * p;  // row-major: draws go row by row
    draw_row(model, spec.rho, rng, row, p);
    const double mean = mean_function(row);
    data.y[i] = mean + sigma * rng.normal();  // drawn for binary too, so the stream (and X) match regression
    if (spec.binary) f[static_cast<std::size_t>(i)] = mean;
  }
  if (spec.binary) draw_binary_labels(f, rng, data.y, spec, model);
  data.feature_names = default_feature_names(p);
  data.truth = truth_of(model);
  data.has_truth = true;
  data.origin = "simulate:" + std::string(name_of(spec.dgp));
  return data;
}

Dataset simulate_periods(const SimulateSpec& spec, int periods) {
  check_spec(spec);
  if (periods < 1) throw ConfigError(detail::concat("data.periods = ", periods, " must be at least 1"));
  const Index n = spec.n, p = spec.p;
  Dataset data;
  data.X.resize(n * periods, p);
  data.y.resize(n * periods);
  data.period_offsets.push_back(0);
  for (int k = 0; k < periods; ++k) {
    Dataset batch = simulate(spec, k);
    data.X.middleRows(k * n, n) = batch.X;
    data.y.segment(k * n, n) = batch.y;
    data.period_offsets.push_back(static_cast<std::int64_t>((k + 1) * n));
    data.period_labels.push_back(k);
    if (k == 0) {
      data.feature_names = std::move(batch.feature_names);
      data.truth = std::move(batch.truth);
    }
  }
  data.has_truth = true;
  data.origin = "simulate:" + std::string(name_of(spec.dgp));
  return data;
}

Dataset simulate_dataset(const SimulateSpec& spec, int periods) {
  return periods > 1 ? simulate_periods(spec, periods) : simulate(spec, 0);
}

std::unique_ptr<DataSource> make_simulated_source(const SimulateSpec& spec, int periods, bool online,
                                                  std::int64_t noise_features) {
  return std::make_unique<SimulatedSource>(spec, periods, online, noise_features);
}

void check_simulation_fits(std::int64_t rows, std::int64_t cols, const std::string& keys) {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  const double memory = pages > 0 && page_size > 0 ? static_cast<double>(pages) * static_cast<double>(page_size) : 0.0;
  // X in float32 plus y in float64, per row; doubles cannot overflow here.
  const double bytes = static_cast<double>(rows) * (static_cast<double>(cols) * 4.0 + 8.0);
  if (memory > 0.0 && bytes > memory) {
    char text[256];
    std::snprintf(text, sizeof(text),
                  "%s ask for %lld rows x %lld features: the data would need %.1f GiB of memory, "
                  "more than this machine's %.1f GiB",
                  keys.c_str(), static_cast<long long>(rows), static_cast<long long>(cols), bytes / 1073741824.0,
                  memory / 1073741824.0);
    throw InputError(text);
  }
}

}  // namespace bfs

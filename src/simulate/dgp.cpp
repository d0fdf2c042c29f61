// Simulated data sets with known truth (paper 000 eqs. 1, 3, 5; paper 003 §6.1); see dgp.hpp for the formulas.
#include "simulate/dgp.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "data/labels.hpp"

namespace bfs {

namespace {

constexpr Index kRelevant = 5;  // every DGP here uses x1..x5

Dgp parse_dgp(const std::string& name) {
  if (const auto dgp = enum_from_name<Dgp>(name)) return *dgp;
  std::string known;
  for (const auto& n : dgp_names()) known += (known.empty() ? "" : ", ") + n;
  throw ConfigError(detail::concat("data.dgp = \"", name, "\" is not a known DGP (known: ", known, ")"));
}

Dgp check_spec(const SimulateSpec& spec) {
  const Dgp dgp = parse_dgp(spec.dgp);
  if (spec.n <= 0) throw ConfigError(detail::concat("data.n = ", spec.n, " must be positive"));
  if (spec.p < kRelevant) {
    throw ConfigError(
        detail::concat("data.p = ", spec.p, " is below the ", kRelevant, " relevant features of ", spec.dgp));
  }
  return dgp;
}

double mean_of(Dgp dgp, const float* x) {
  const double x1 = x[0], x2 = x[1], x3 = x[2], x4 = x[3], x5 = x[4];
  switch (dgp) {
    case Dgp::Friedman1:  // paper 000 eq. 1
      return 10.0 * std::sin(std::numbers::pi * x1 * x2) + 20.0 * (x3 - 0.5) * (x3 - 0.5) + 10.0 * x4 + 5.0 * x5;
    case Dgp::Friedman3:  // paper 000 eq. 3
      return 0.1 * std::exp(4.0 * x1) + 4.0 / (1.0 + std::exp(-20.0 * (x2 - 0.5))) + 4.0 * x3 + 3.0 * x4 + 2.0 * x5;
    case Dgp::Liang:  // paper 000 eq. 5
      return 10.0 * x2 / (1.0 + x1 * x1) + 5.0 * std::sin(x3 * x4) + 2.0 * x5;
    case Dgp::Linear:  // paper 003 §6.1
      return x1 + 2.0 * x2 + 3.0 * x3 - 2.0 * x4 - x5;
  }
  return 0.0;
}

double noise_variance_of(Dgp dgp) {
  switch (dgp) {
    case Dgp::Friedman1:
    case Dgp::Friedman3:
      return 1.0;
    case Dgp::Liang:
      return 0.5;
    case Dgp::Linear:
      return 5.0;
  }
  return 1.0;
}

/// Draws one row of X (p values) from `rng` in column order.
void draw_row(Dgp dgp, Rng& rng, float* row, Index p) {
  switch (dgp) {
    case Dgp::Friedman1:
    case Dgp::Friedman3:
      for (Index j = 0; j < p; ++j) row[j] = static_cast<float>(rng.uniform());
      break;
    case Dgp::Liang: {
      const double eta = rng.normal();  // shared by the row: corr(x_j, x_k) = 1/2
      for (Index j = 0; j < p; ++j) row[j] = static_cast<float>(0.5 * (eta + rng.normal()));
      break;
    }
    case Dgp::Linear: {
      // AR(1) along j with unit marginal variance gives Σ_jk = 0.9^|j−k| exactly.
      const double rho = 0.9, innovation = std::sqrt(1.0 - rho * rho);
      double prev = rng.normal();
      row[0] = static_cast<float>(prev);
      for (Index j = 1; j < p; ++j) {
        prev = rho * prev + innovation * rng.normal();
        row[j] = static_cast<float>(prev);
      }
      break;
    }
  }
}

/// Replaces y by Bernoulli(Φ((f − mean f) / sd f)) labels, one uniform per row from `rng` in row order.
void draw_binary_labels(const std::vector<double>& f, Rng& rng, Vector& y, const SimulateSpec& spec) {
  const auto n = static_cast<double>(f.size());
  double mean = 0.0;
  for (double v : f) mean += v;
  mean /= n;
  double ss = 0.0;
  for (double v : f) ss += (v - mean) * (v - mean);
  const double sd = std::sqrt(ss / n);
  if (!(sd > 0.0)) {
    throw ConfigError(detail::concat("data.n = ", spec.n, ": a binary ", spec.dgp,
                                     " batch needs f to vary over its rows (its standard deviation is 0)"));
  }
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double z = (f[i] - mean) / sd;
    const double prob = 0.5 * std::erfc(-z / std::numbers::sqrt2);  // Φ(z)
    y[static_cast<Index>(i)] = rng.uniform() < prob ? 1.0 : 0.0;
  }
}

class SimulatedSource final : public DataSource {
 public:
  SimulatedSource(SimulateSpec spec, int periods, bool online, std::int64_t noise)
      : spec_(std::move(spec)), periods_(periods), online_(online), noise_(noise) {
    check_spec(spec_);
    if (periods_ < 1) throw ConfigError(detail::concat("data.periods = ", periods_, " must be at least 1"));
    if (noise_ < 0) throw ConfigError(detail::concat("data.noise_features = ", noise_, " must be >= 0"));
    names_ = default_feature_names(spec_.p);
    for (std::int64_t j = 1; j <= noise_; ++j) names_.push_back(noise_feature_name(j));
    for (FeatureId t = 0; t < kRelevant; ++t) truth_.push_back(t);
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
    return detail::concat("simulate:", spec_.dgp, spec_.binary ? " binary" : "", " (n = ", spec_.n,
                          " per batch, p = ", spec_.p,
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

std::vector<std::string> dgp_names() {
  return enum_names<Dgp>();
}

double dgp_mean(const std::string& dgp, std::span<const float> x) {
  const Dgp d = parse_dgp(dgp);
  BFS_CHECK(static_cast<Index>(x.size()) >= kRelevant, "row has ", x.size(), " values");
  return mean_of(d, x.data());
}

double dgp_noise_variance(const std::string& dgp) {
  return noise_variance_of(parse_dgp(dgp));
}

Dataset simulate(const SimulateSpec& spec, int batch) {
  const Dgp dgp = check_spec(spec);
  BFS_CHECK(batch >= 0, "batch ", batch);
  const Index n = spec.n, p = spec.p;
  const double sigma = std::sqrt(noise_variance_of(dgp));
  Rng rng = Rng::stream(spec.seed, static_cast<std::uint64_t>(batch), 0, Purpose::Simulate);
  Dataset data;
  data.X.resize(n, p);
  data.y.resize(n);
  std::vector<double> f(spec.binary ? static_cast<std::size_t>(n) : 0);
  for (Index i = 0; i < n; ++i) {
    float* row = data.X.data() + i * p;  // row-major: draws go row by row
    draw_row(dgp, rng, row, p);
    const double mean = mean_of(dgp, row);
    data.y[i] = mean + sigma * rng.normal();  // drawn for binary too, so the stream (and X) match regression
    if (spec.binary) f[static_cast<std::size_t>(i)] = mean;
  }
  if (spec.binary) draw_binary_labels(f, rng, data.y, spec);
  data.feature_names = default_feature_names(p);
  for (FeatureId t = 0; t < kRelevant; ++t) data.truth.push_back(t);
  data.has_truth = true;
  data.origin = "simulate:" + spec.dgp;
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
  data.origin = "simulate:" + spec.dgp;
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

#include "methods/bandit/tuning.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/parallel_for.hpp"
#include "core/rng.hpp"
#include "core/stopwatch.hpp"
#include "estimators/estimator.hpp"
#include "importance/metrics.hpp"

namespace bfs {
namespace {

/// Stream "feature" slots of Purpose::Tuning.
constexpr std::uint64_t kFoldStream = 0;
constexpr std::uint64_t kFitStream = 1;

/// The [tuning] list and the GbmParams field of each tunable key, in tuning_parameters() order.
std::vector<double> grid_list(const TuningConfig& t, std::size_t key) {
  auto to_double = [](const std::vector<int>& v) { return std::vector<double>(v.begin(), v.end()); };
  switch (key) {
    case 0:
      return t.learning_rate;
    case 1:
      return to_double(t.n_estimators);
    case 2:
      return to_double(t.max_leaves);
    case 3:
      return to_double(t.max_depth);
    case 4:
      return t.min_child_weight;
    case 5:
      return t.lambda;
    default:
      BFS_CHECK(false, "tuning key ", key);
      return {};
  }
}

template <class Params>
double base_value(const Params& p, std::size_t key) {
  switch (key) {
    case 0:
      return p.learning_rate;
    case 1:
      return p.n_estimators;
    case 2:
      return p.max_leaves;
    case 3:
      return p.max_depth;
    case 4:
      return p.min_child_weight;
    case 5:
      return p.lambda;
    default:
      BFS_CHECK(false, "tuning key ", key);
      return 0.0;
  }
}

template <class Params>
void set_value(Params& p, std::size_t key, double value) {
  switch (key) {
    case 0:
      p.learning_rate = value;
      break;
    case 1:
      p.n_estimators = static_cast<int>(std::lround(value));
      break;
    case 2:
      p.max_leaves = static_cast<int>(std::lround(value));
      break;
    case 3:
      p.max_depth = static_cast<int>(std::lround(value));
      break;
    case 4:
      p.min_child_weight = value;
      break;
    case 5:
      p.lambda = value;
      break;
    default:
      BFS_CHECK(false, "tuning key ", key);
  }
}

void check_tunable(const EstimatorConfig& base, const TuningConfig& tuning) {
  TuningConfig enabled = tuning;
  enabled.enabled = true;  // the function is called only when tuning is wanted
  validate_tuning(enabled, base);
}

}  // namespace

const std::vector<std::string>& tuning_parameters() {
  static const std::vector<std::string> names = {"learning_rate", "n_estimators",     "max_leaves",
                                                 "max_depth",     "min_child_weight", "lambda"};
  return names;
}

template <class Params>
std::vector<std::vector<double>> tuning_grid(const Params& base, const TuningConfig& tuning) {
  const std::size_t keys = tuning_parameters().size();
  std::vector<std::vector<double>> lists(keys);
  for (std::size_t k = 0; k < keys; ++k) {
    lists[k] = grid_list(tuning, k);
    if (lists[k].empty()) lists[k] = {base_value(base, k)};
  }
  std::vector<std::vector<double>> grid(1, std::vector<double>{});
  for (std::size_t k = 0; k < keys; ++k) {  // extend every prefix by each value: the last key varies fastest
    std::vector<std::vector<double>> next;
    next.reserve(grid.size() * lists[k].size());
    for (const auto& prefix : grid) {
      for (double value : lists[k]) {
        next.push_back(prefix);
        next.back().push_back(value);
      }
    }
    grid = std::move(next);
  }
  return grid;
}

template <class Params>
Params apply_grid_point(const Params& base, std::span<const double> point) {
  BFS_CHECK(point.size() == tuning_parameters().size(), "grid point has ", point.size(), " values");
  Params params = base;
  for (std::size_t k = 0; k < point.size(); ++k) set_value(params, k, point[k]);
  return params;
}

std::vector<std::vector<Index>> kfold_test_rows(Index n, int folds, bool shuffle, std::uint64_t seed) {
  if (folds < 2) throw ConfigError("tuning.folds = " + std::to_string(folds) + " is out of range: must be at least 2");
  if (n < folds)
    throw InputError("tuning.folds = " + std::to_string(folds) + " needs at least that many rows (got " +
                     std::to_string(n) + ")");
  std::vector<Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Index{0});
  if (shuffle) {
    Rng rng = Rng::stream(seed, 0, 0, Purpose::Tuning, kFoldStream);
    rng.shuffle(order);
  }
  std::vector<std::vector<Index>> out(static_cast<std::size_t>(folds));
  const Index base = n / folds;
  const Index extra = n % folds;
  Index start = 0;
  for (int f = 0; f < folds; ++f) {
    const Index size = base + (f < extra ? 1 : 0);
    out[static_cast<std::size_t>(f)].assign(order.begin() + start, order.begin() + start + size);
    std::sort(out[static_cast<std::size_t>(f)].begin(), out[static_cast<std::size_t>(f)].end());
    start += size;
  }
  return out;
}

namespace {

/// The report's table from the fold scores (point-major, k per point): each point's values, mean and standard
/// deviation of R², and the chosen point (the best mean; a tie keeps the earlier point).
TuningReport summarise_folds(const std::vector<double>& fold_r2, const std::vector<std::vector<double>>& grid, int k) {
  const std::size_t points = grid.size();
  TuningReport report;
  report.present = true;
  report.parameters = tuning_parameters();
  report.folds = k;
  report.fold_r2 = fold_r2;
  report.mean_r2.resize(points);
  report.std_r2.resize(points);
  double best = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < points; ++i) {
    report.values.insert(report.values.end(), grid[i].begin(), grid[i].end());
    double sum = 0.0;
    for (int f = 0; f < k; ++f) sum += fold_r2[i * static_cast<std::size_t>(k) + static_cast<std::size_t>(f)];
    const double mean = sum / k;
    double squares = 0.0;
    for (int f = 0; f < k; ++f) {
      const double d = fold_r2[i * static_cast<std::size_t>(k) + static_cast<std::size_t>(f)] - mean;
      squares += d * d;
    }
    report.mean_r2[i] = mean;
    report.std_r2[i] = std::sqrt(squares / k);
    if (!std::isnan(mean) && (report.chosen < 0 || mean > best)) {  // strict: a tie keeps the earlier point
      best = mean;
      report.chosen = static_cast<std::int32_t>(i);
    }
  }
  if (report.chosen < 0) report.chosen = 0;  // every mean NaN (non-finite predictions): keep the first point
  return report;
}

/// Fits every grid point on the rows outside fold f and stores its R² on fold f in fold_r2[point · k + f]; `tick`
/// after each point, failed or not.
void score_fold(const Dataset& data, const std::vector<std::vector<Index>>& folds, int f,
                const std::vector<std::unique_ptr<Estimator>>& estimators, std::uint64_t seed, int threads,
                std::vector<double>& fold_r2, const std::function<void()>& tick) {
  const Index n = data.rows();
  const auto k = folds.size();
  const std::size_t points = estimators.size();
  const auto& test = folds[static_cast<std::size_t>(f)];
  std::vector<std::uint8_t> held_out(static_cast<std::size_t>(n), 0);
  for (Index row : test) held_out[static_cast<std::size_t>(row)] = 1;
  std::vector<Index> train;
  train.reserve(static_cast<std::size_t>(n) - test.size());
  for (Index row = 0; row < n; ++row)
    if (!held_out[static_cast<std::size_t>(row)]) train.push_back(row);
  std::vector<FeatureId> all_columns(static_cast<std::size_t>(data.cols()));
  std::iota(all_columns.begin(), all_columns.end(), FeatureId{0});
  const Matrix X_train = gather(data.X, train, all_columns);
  const Vector y_train = gather(data.y, train);
  const Matrix X_test = gather(data.X, test, all_columns);
  const Vector y_test = gather(data.y, test);
  const std::uint64_t fit_seed =
      Rng::stream(seed, 0, static_cast<std::uint64_t>(f), Purpose::Tuning, kFitStream).next_u64();
  // Grid points are fitted concurrently, one thread each (on a few thousand rows XGBoost's own threads mostly
  // wait at barriers); with fewer points than threads each fit gets the spare threads. Every fit writes its own
  // slot, and gbm fits do not depend on their thread count, so the table does not depend on `threads`.
  const int workers = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(1, threads)), points));
  const FitOptions options{fit_seed, std::max(1, std::max(1, threads) / workers), {}};
  // Every point runs even when one fails; the first failing point in grid order is rethrown, whatever the timing.
  parallel_for(points, workers, [&](std::size_t i) {
    std::exception_ptr error;  // a failed point counts as done too
    try {
      const auto model = estimators[i]->fit(X_train, y_train, options);
      fold_r2[i * k + static_cast<std::size_t>(f)] = r2_score(y_test, model->predict(X_test));
    } catch (...) {
      error = std::current_exception();
    }
    tick();
    if (error) std::rethrow_exception(error);
  });
}

}  // namespace

TuningResult tune_estimator(const EstimatorConfig& base, const TuningConfig& tuning, const Dataset& data,
                            std::uint64_t seed, int threads, const TuningProgress& progress) {
  const auto start = std::chrono::steady_clock::now();
  check_tunable(base, tuning);
  const Index n = data.rows();
  const int k = tuning.folds;
  if (n < 2 * static_cast<Index>(k))
    throw InputError(data.origin + ": period " + std::to_string(tuning.period) + " has " + std::to_string(n) +
                     " rows, too few for tuning.folds = " + std::to_string(k) + " (need at least " +
                     std::to_string(2 * k) + ")");
  if (data.cols() == 0) throw InputError(data.origin + ": no feature columns to tune on");

  const bool hgb = base.name == EstimatorName::Hgb;
  const auto grid = hgb ? tuning_grid(base.hgb, tuning) : tuning_grid(base.gbm, tuning);
  std::vector<std::unique_ptr<Estimator>> estimators;  // built up-front: a bad grid point fails before any fit
  estimators.reserve(grid.size());
  for (const auto& point : grid)
    estimators.push_back(hgb ? make_hgb(apply_grid_point(base.hgb, point))
                             : make_gbm(apply_grid_point(base.gbm, point)));

  const auto folds = kfold_test_rows(n, k, tuning.shuffle, seed);
  const std::size_t points = grid.size();
  std::vector<double> fold_r2(points * static_cast<std::size_t>(k), 0.0);
  std::size_t done = 0;
  const std::size_t total = points * static_cast<std::size_t>(k);
  std::mutex progress_mutex;
  const auto tick = [&] {
    if (!progress) return;
    const std::lock_guard<std::mutex> lock(progress_mutex);
    progress(++done, total);
  };
  for (int f = 0; f < k; ++f)  // folds outermost: one fold's copies of the rows in memory at a time
    score_fold(data, folds, f, estimators, seed, threads, fold_r2, tick);

  TuningReport report = summarise_folds(fold_r2, grid, k);
  report.estimator = std::string(name_of(base.name));
  report.period = tuning.period;
  report.rows = n;
  report.features = data.features();
  report.seed = seed;
  report.seconds = seconds_since(start);

  TuningResult result;
  result.best = base;
  const auto& chosen = grid[static_cast<std::size_t>(report.chosen)];
  if (hgb)
    result.best.hgb = apply_grid_point(base.hgb, chosen);
  else
    result.best.gbm = apply_grid_point(base.gbm, chosen);
  result.report = std::move(report);
  return result;
}

EstimatorConfig apply_tuning_report(const EstimatorConfig& base, const TuningReport& report) {
  if (!report.present) return base;
  if (report.estimator != name_of(base.name))
    throw ConfigError("the stored tuning report is for estimator \"" + report.estimator + "\" but estimator.name = \"" +
                      std::string(name_of(base.name)) + "\"");
  if (report.chosen < 0 || static_cast<std::size_t>(report.chosen) >= report.points())
    throw ConfigError("the stored tuning report has no chosen grid point");
  const auto& names = tuning_parameters();
  std::vector<double> point(names.size());
  for (std::size_t key = 0; key < names.size(); ++key) {
    const std::ptrdiff_t column = report.column(names[key]);
    point[key] = column >= 0 ? report.value(static_cast<std::size_t>(report.chosen), static_cast<std::size_t>(column))
                             : base_value(base.gbm, key);
  }
  for (const auto& name : report.parameters)
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw ConfigError("the stored tuning report names an unknown parameter '" + name + "'");
  EstimatorConfig out = base;
  out.gbm = apply_grid_point(base.gbm, point);
  return out;
}

void check_tuning_period(const TuningConfig& tuning, int num_periods) {
  if (tuning.period < 0 || tuning.period >= num_periods)
    throw ConfigError("tuning.period = " + std::to_string(tuning.period) + " is not a period of the data (it has " +
                      std::to_string(num_periods) +
                      (num_periods == 1 ? " period: use 0)" : " periods: 0.." + std::to_string(num_periods - 1) + ")"));
}

template std::vector<std::vector<double>> tuning_grid(const GbmParams&, const TuningConfig&);
template std::vector<std::vector<double>> tuning_grid(const HgbParams&, const TuningConfig&);
template GbmParams apply_grid_point(const GbmParams&, std::span<const double>);
template HgbParams apply_grid_point(const HgbParams&, std::span<const double>);

}  // namespace bfs

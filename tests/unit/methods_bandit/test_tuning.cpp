// Hyper-parameter tuning (methods/bandit/tuning.hpp, [Wu §5.1]): the grid, the folds, the selection, the [tuning]
// keys and the report's round trip through result.h5 / run.json.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/bandit_result.hpp"  // the tuning table in the bandit's result
#include "methods/bandit/round_driver.hpp"
#include "methods/bandit/run_result_h5.hpp"
#include "methods/bandit/tuning.hpp"
#include "methods/registry.hpp"
#include "output/result_io.hpp"  // ... and in run.json
#include "run/data_sources.hpp"

using namespace bfs;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path =
      fs::temp_directory_path() / ("bfs_tuning_" + std::to_string(::getpid()) + "_" + std::to_string(rand()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

/// y = 4·x1·x2 + x3 + small noise, x ~ N(0,1): the interaction needs trees deeper than stumps.
Dataset interaction_data(Index n, Index p, std::uint64_t seed) {
  Dataset d;
  d.X.resize(n, p);
  d.y.resize(n);
  Rng rng(seed);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) d.X(i, j) = static_cast<float>(rng.normal());
    d.y[i] = 4.0 * d.X(i, 0) * d.X(i, 1) + d.X(i, 2) + 0.1 * rng.normal();
  }
  d.feature_names = default_feature_names(p);
  d.origin = "test:interaction";
  return d;
}

EstimatorConfig small_gbm() {
  EstimatorConfig c;
  c.name = EstimatorName::Gbm;
  c.gbm.n_estimators = 30;
  c.gbm.validation_fraction = 0.0;  // no early stopping: every fit boosts n_estimators rounds
  return c;
}

/// A grid of 2 depths × 2 learning rates, the rest kept from the [estimator] values.
TuningConfig depth_and_rate_grid() {
  TuningConfig t;
  t.enabled = true;
  t.folds = 3;
  t.learning_rate = {1e-4, 0.3};
  t.n_estimators = {};
  t.max_leaves = {};
  t.max_depth = {1, 4};
  t.min_child_weight = {};
  t.lambda = {};
  return t;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_default_grid_has_48_points_with_the_last_key_varying_fastest) {
  const TuningConfig t;
  const auto grid = tuning_grid(GbmParams{}, t);
  BOOST_TEST(grid.size() == 48u);  // 3 · 1 · 2 · 2 · 2 · 2
  BOOST_TEST(tuning_parameters().size() == 6u);
  BOOST_TEST((grid[0] == std::vector<double>{0.01, 200, 31, 6, 20, 0.0}));
  BOOST_TEST((grid[1] == std::vector<double>{0.01, 200, 31, 6, 20, 0.01}));
  BOOST_TEST((grid[2] == std::vector<double>{0.01, 200, 31, 6, 50, 0.0}));
  BOOST_TEST((grid[16] == std::vector<double>{0.05, 200, 31, 6, 20, 0.0}));
  BOOST_TEST((grid[47] == std::vector<double>{0.1, 200, 50, 10, 50, 0.01}));
  const std::set<std::vector<double>> distinct(grid.begin(), grid.end());
  BOOST_TEST(distinct.size() == 48u);
  // The paper's choice (0.05, 200, 50, 10, 20, 0.01) is a point of the default grid.
  BOOST_TEST(distinct.count({0.05, 200, 50, 10, 20, 0.01}) == 1u);
}

BOOST_AUTO_TEST_CASE(an_empty_list_keeps_the_estimator_value) {
  TuningConfig t;
  t.max_depth = {};
  t.lambda = {};
  GbmParams base;
  base.max_depth = 7;
  base.lambda = 2.5;
  const auto grid = tuning_grid(base, t);
  BOOST_TEST(grid.size() == 12u);
  for (const auto& point : grid) {
    BOOST_TEST(point[3] == 7.0);
    BOOST_TEST(point[5] == 2.5);
  }
  const GbmParams applied = apply_grid_point(base, grid[11]);
  BOOST_TEST(applied.learning_rate == 0.1);
  BOOST_TEST(applied.n_estimators == 200);
  BOOST_TEST(applied.max_leaves == 50);
  BOOST_TEST(applied.max_depth == 7);
  BOOST_TEST(applied.min_child_weight == 50.0);
  BOOST_TEST(applied.lambda == 2.5);
  BOOST_TEST(applied.max_bin == base.max_bin);  // untuned keys untouched

  TuningConfig none;
  none.learning_rate = none.min_child_weight = none.lambda = {};
  none.n_estimators = none.max_leaves = none.max_depth = {};
  BOOST_TEST(tuning_grid(base, none).size() == 1u);
}

BOOST_AUTO_TEST_CASE(folds_are_disjoint_covering_balanced_and_seeded) {
  const auto folds = kfold_test_rows(23, 5, true, 11);
  BOOST_TEST_REQUIRE(folds.size() == 5u);
  std::set<Index> seen;
  std::size_t total = 0;
  for (std::size_t f = 0; f < folds.size(); ++f) {
    BOOST_TEST(folds[f].size() == (f < 3 ? 5u : 4u));  // 23 = 5 + 5 + 5 + 4 + 4
    BOOST_TEST(std::is_sorted(folds[f].begin(), folds[f].end()));
    seen.insert(folds[f].begin(), folds[f].end());
    total += folds[f].size();
  }
  BOOST_TEST(total == 23u);
  BOOST_TEST(seen.size() == 23u);
  BOOST_TEST(*seen.begin() == 0);
  BOOST_TEST(*seen.rbegin() == 22);
  BOOST_TEST((kfold_test_rows(23, 5, true, 11) == folds));
  BOOST_TEST((kfold_test_rows(23, 5, true, 12) != folds));
  // Unshuffled: contiguous blocks in row order.
  const auto blocks = kfold_test_rows(10, 3, false, 11);
  BOOST_TEST((blocks[0] == std::vector<Index>{0, 1, 2, 3}));
  BOOST_TEST((blocks[1] == std::vector<Index>{4, 5, 6}));
  BOOST_TEST((blocks[2] == std::vector<Index>{7, 8, 9}));
  BOOST_CHECK_THROW(kfold_test_rows(3, 5, true, 1), InputError);
}

BOOST_AUTO_TEST_CASE(tuning_picks_the_deeper_model_and_the_useful_learning_rate) {
  const Dataset data = interaction_data(300, 5, 3);
  std::vector<std::size_t> reported, totals;  // filled from the fitting threads, one call at a time
  const TuningResult result =
      tune_estimator(small_gbm(), depth_and_rate_grid(), data, 5, 2, [&](std::size_t done, std::size_t total) {
        reported.push_back(done);
        totals.push_back(total);
      });
  BOOST_TEST(reported.size() == 12u);  // one call per fit (4 points × 3 folds), counting up
  for (std::size_t i = 0; i < reported.size(); ++i) BOOST_TEST(reported[i] == i + 1);
  for (std::size_t total : totals) BOOST_TEST(total == 12u);
  const TuningReport& r = result.report;
  BOOST_TEST_REQUIRE(r.present);
  BOOST_TEST(r.points() == 4u);
  BOOST_TEST(r.folds == 3);
  BOOST_TEST(r.rows == 300);
  BOOST_TEST(r.features == 5);
  BOOST_TEST(r.values.size() == 4u * 6u);
  BOOST_TEST(r.fold_r2.size() == 4u * 3u);
  // Grid order: (1e-4, d1), (1e-4, d4), (0.3, d1), (0.3, d4).
  BOOST_TEST(r.chosen == 3);
  BOOST_TEST(result.best.gbm.max_depth == 4);
  BOOST_TEST(result.best.gbm.learning_rate == 0.3);
  BOOST_TEST(result.best.gbm.n_estimators == 30);  // kept from [estimator]
  BOOST_TEST(r.mean_r2[3] > 0.5);                  // measured 0.60
  BOOST_TEST(r.mean_r2[2] < r.mean_r2[3] - 0.3);   // stumps cannot fit x1·x2 (measured -0.08)
  BOOST_TEST(std::abs(r.mean_r2[0]) < 0.15);       // 30 rounds of 1e-4 barely move off the mean (measured -0.06)
  for (std::size_t i = 0; i < r.points(); ++i) BOOST_TEST(r.std_r2[i] >= 0.0);
}

BOOST_AUTO_TEST_CASE(a_run_tunes_on_the_data_columns_without_the_appended_noise) {
  JobConfig job = bandit_job();
  job.data.n = 200;
  job.data.p = 6;
  job.data.noise_features = 40;
  job.estimator = small_gbm();
  tuning_config(job) = depth_and_rate_grid();
  auto source = make_data_source(job.data, 3, false);
  BOOST_TEST_REQUIRE(source->load_period(0).cols() == 46);
  Context context;
  const TuningReport report = tune_job(job, *source, RunControl{}, context);
  BOOST_TEST_REQUIRE(report.present);
  BOOST_TEST(report.features == 6);  // the 6 data columns, not the 40 noise columns appended on the fly
  BOOST_TEST(report.rows == 200);
  BOOST_TEST(job.estimator.gbm.max_depth == report.values[report.chosen * 6 + 3]);  // the job now carries the choice
}

BOOST_AUTO_TEST_CASE(the_report_does_not_depend_on_the_thread_count_and_ties_keep_grid_order) {
  const Dataset data = interaction_data(120, 4, 8);
  EstimatorConfig base = small_gbm();
  base.gbm.n_estimators = 10;
  TuningConfig t = depth_and_rate_grid();
  t.folds = 2;
  t.learning_rate = {0.3, 0.3};  // two identical points: the first must win
  t.max_depth = {3};
  const TuningResult one = tune_estimator(base, t, data, 21, 1);
  const TuningResult two = tune_estimator(base, t, data, 21, 2);  // two points fitted at once
  BOOST_TEST((one.report.fold_r2 == two.report.fold_r2));
  BOOST_TEST(one.report.mean_r2[0] == one.report.mean_r2[1]);
  BOOST_TEST(one.report.chosen == 0);
  BOOST_TEST(two.report.chosen == 0);
  const TuningResult other_seed = tune_estimator(base, t, data, 22, 1);
  BOOST_TEST((other_seed.report.fold_r2 != one.report.fold_r2));

  t.learning_rate = {0.3};  // one point: the fit itself gets the threads
  const TuningResult single = tune_estimator(base, t, data, 21, 2);
  BOOST_TEST((single.report.mean_r2 == std::vector<double>{one.report.mean_r2[0]}));

  std::vector<std::size_t> calls;
  tune_estimator(base, depth_and_rate_grid(), data, 21, 2, [&](std::size_t done, std::size_t total) {
    BOOST_TEST(total == 12u);
    calls.push_back(done);
  });
  BOOST_TEST(calls.size() == 12u);
  BOOST_TEST(std::is_sorted(calls.begin(), calls.end()));
}

BOOST_AUTO_TEST_CASE(hgb_is_tuned_on_the_same_grid_and_picks_the_deeper_model) {
  // [tuning] works for hgb, whose six tunable keys mean what gbm's do.
  const Dataset data = interaction_data(300, 5, 3);
  EstimatorConfig base;
  base.name = EstimatorName::Hgb;
  base.hgb.n_estimators = 30;
  base.hgb.min_samples_leaf = 5;
  const TuningResult one = tune_estimator(base, depth_and_rate_grid(), data, 5, 1);
  const TuningResult two = tune_estimator(base, depth_and_rate_grid(), data, 5, 2);
  BOOST_TEST(one.report.estimator == "hgb");
  BOOST_TEST(one.report.chosen == 3);  // (0.3, depth 4), as for gbm
  BOOST_TEST(one.best.hgb.max_depth == 4);
  BOOST_TEST(one.best.hgb.learning_rate == 0.3);
  BOOST_TEST(one.best.hgb.n_estimators == 30);               // kept from [estimator]
  BOOST_TEST(one.best.gbm.max_depth == base.gbm.max_depth);  // the other estimator's section untouched
  BOOST_TEST(one.report.fold_r2 == two.report.fold_r2, boost::test_tools::per_element());
  BOOST_TEST(one.report.mean_r2[3] > one.report.mean_r2[2] + 0.3);
}

BOOST_AUTO_TEST_CASE(only_gbm_and_hgb_are_tunable_and_folds_need_at_least_two) {
  const Dataset data = interaction_data(60, 3, 1);
  EstimatorConfig forest;
  forest.name = EstimatorName::RandomForest;
  BOOST_TEST(error_of([&] { tune_estimator(forest, depth_and_rate_grid(), data, 1, 1); }).find("tuning.enabled") !=
             std::string::npos);
  TuningConfig one_fold = depth_and_rate_grid();
  one_fold.folds = 1;
  BOOST_TEST(error_of([&] { tune_estimator(small_gbm(), one_fold, data, 1, 1); }).find("tuning.folds") !=
             std::string::npos);
  TuningConfig many = depth_and_rate_grid();
  many.folds = 40;  // 60 rows < 2 · 40
  BOOST_CHECK_THROW(tune_estimator(small_gbm(), many, data, 1, 1), InputError);

  // The same checks at job-parse time, naming the key.
  BOOST_TEST(error_of([] {
               parse_job(methods::catalog(), "[estimator]\nname = \"lasso\"\n[tuning]\nenabled = true\n", "job.toml");
             }).find("tuning.enabled") != std::string::npos);
  BOOST_CHECK_THROW(
      parse_job(methods::catalog(), "[estimator]\nname = \"lasso\"\n[tuning]\nenabled = true\n", "job.toml"),
      ConfigError);
  BOOST_TEST(error_of([] {
               parse_job(methods::catalog(), "[estimator]\nname = \"gbm\"\n[tuning]\nfolds = 1\n", "job.toml");
             }).find("tuning.folds") != std::string::npos);
  BOOST_CHECK_NO_THROW(
      parse_job(methods::catalog(), "[estimator]\nname = \"lasso\"\n[tuning]\nfolds = 3\n", "job.toml"));  // disabled

  BOOST_CHECK_NO_THROW(check_tuning_period(TuningConfig{}, 1));
  TuningConfig late;
  late.period = 3;
  BOOST_TEST(error_of([&] { check_tuning_period(late, 3); }).find("tuning.period") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_tuning_keys_parse_validate_and_dump) {
  const JobConfig job =
      parse_job(methods::catalog(),
                "[estimator]\nname = \"gbm\"\n[tuning]\nenabled = true\nfolds = 4\nlearning_rate = [0.05]\n"
                "max_depth = []\nn_estimators = [100, 200]\n",
                "job.toml", {"tuning.lambda=[0.5, 1]"});
  BOOST_TEST(tuning_config(job).enabled);
  BOOST_TEST(tuning_config(job).folds == 4);
  BOOST_TEST((tuning_config(job).learning_rate == std::vector<double>{0.05}));
  BOOST_TEST(tuning_config(job).max_depth.empty());
  BOOST_TEST((tuning_config(job).n_estimators == std::vector<int>{100, 200}));
  BOOST_TEST((tuning_config(job).lambda == std::vector<double>{0.5, 1.0}));
  BOOST_TEST((tuning_config(job).max_leaves == std::vector<int>{31, 50}));  // default kept
  const std::string dumped = dump_job(job);
  BOOST_TEST(dumped.find("[tuning]") != std::string::npos);
  const JobConfig again = parse_job(methods::catalog(), dumped, "dump");
  BOOST_TEST(dump_job(again) == dumped);
  BOOST_TEST((tuning_config(again).lambda == tuning_config(job).lambda));
  // Disabled, the section is left out of the canonical text (the checkpoint hash of older jobs is unchanged).
  BOOST_TEST(dump_job(bandit_job()).find("[tuning]") == std::string::npos);

  BOOST_TEST(error_of([] {
               parse_job(methods::catalog(), "[tuning]\nmax_depth = [200]\n", "job.toml");
             }).find("tuning.max_depth") != std::string::npos);
  BOOST_TEST(error_of([] {
               parse_job(methods::catalog(), "[tuning]\nlearning_rate = [0.0]\n", "job.toml");
             }).find("tuning.learning_rate") != std::string::npos);
  BOOST_TEST(error_of([] {
               parse_job(methods::catalog(), "[tuning]\nn_estimators = [1.5]\n", "job.toml");
             }).find("tuning.n_estimators") != std::string::npos);
  BOOST_TEST(error_of([] {
               parse_job(methods::catalog(), "[tuning]\nbogus = 1\n", "job.toml");
             }).find("tuning.bogus") != std::string::npos);
  const std::string keys = describe_keys(methods::catalog());
  for (const char* key :
       {"tuning.enabled", "tuning.folds", "tuning.period", "tuning.shuffle", "tuning.learning_rate",
        "tuning.n_estimators", "tuning.max_leaves", "tuning.max_depth", "tuning.min_child_weight", "tuning.lambda"})
    BOOST_TEST(keys.find(key) != std::string::npos, key);
}

BOOST_AUTO_TEST_CASE(the_report_round_trips_through_result_h5_and_run_json) {
  TempDir dir;
  const Dataset data = interaction_data(120, 3, 4);
  const EstimatorConfig base = small_gbm();
  const TuningResult tuned = tune_estimator(base, depth_and_rate_grid(), data, 7, 1);

  RunResult result;
  result.feature_names = data.feature_names;
  result.alpha = {1, 2, 3};
  result.beta = {3, 2, 1};
  result.tuning = tuned.report;
  result.tuning.period = 2;
  const std::string path = (dir.path / "result.h5").string();
  write_run_state_h5(result, path);
  const TuningReport back = read_run_state_h5(path).tuning;
  const TuningReport& t = result.tuning;
  BOOST_TEST_REQUIRE(back.present);
  BOOST_TEST(back.estimator == "gbm");
  BOOST_TEST((back.parameters == t.parameters));
  BOOST_TEST((back.values == t.values));
  BOOST_TEST((back.mean_r2 == t.mean_r2));
  BOOST_TEST((back.std_r2 == t.std_r2));
  BOOST_TEST((back.fold_r2 == t.fold_r2));
  BOOST_TEST(back.chosen == t.chosen);
  BOOST_TEST(back.folds == 3);
  BOOST_TEST(back.period == 2);
  BOOST_TEST(back.rows == 120);
  BOOST_TEST(back.features == 3);
  BOOST_TEST(back.seed == 7u);
  BOOST_TEST(back.seconds == t.seconds);

  // A resumed run re-applies the stored choice and gets the tuned parameters back.
  const EstimatorConfig resumed = apply_tuning_report(base, back);
  BOOST_TEST(resumed.gbm.learning_rate == tuned.best.gbm.learning_rate);
  BOOST_TEST(resumed.gbm.max_depth == tuned.best.gbm.max_depth);
  BOOST_TEST(resumed.gbm.n_estimators == tuned.best.gbm.n_estimators);
  EstimatorConfig forest;
  forest.name = EstimatorName::RandomForest;
  BOOST_CHECK_THROW(apply_tuning_report(forest, back), ConfigError);

  // Without tuning there is no /tuning group and nothing comes back.
  RunResult plain = result;
  plain.tuning = TuningReport{};
  write_run_state_h5(plain, path);
  BOOST_TEST(!read_run_state_h5(path).tuning.present);

  const std::string json_path = (dir.path / "run.json").string();
  const MethodResult neutral = bandit::to_method_result(result);
  write_run_json(neutral, json_path);
  std::ifstream in(json_path);
  const auto j = nlohmann::json::parse(in);
  BOOST_TEST_REQUIRE(j["bandit"].contains("tuning"));
  BOOST_TEST(j["bandit"]["tuning"]["folds"] == 3);
  BOOST_TEST(j["bandit"]["tuning"]["table"].size() == t.points());
  BOOST_TEST(j["bandit"]["tuning"]["chosen"]["max_depth"].get<double>() == tuned.best.gbm.max_depth);
  // result.h5 keeps the table under the bandit's group.
  write_result_h5(neutral, path);
  const MethodResult read = read_result_h5(path);
  const MethodDataset* mean_r2 = read.dataset("tuning/mean_r2");
  BOOST_TEST_REQUIRE(mean_r2 != nullptr);
  BOOST_TEST((std::get<std::vector<double>>(mean_r2->values) == t.mean_r2));
}

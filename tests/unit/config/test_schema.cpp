#include <array>
#include <boost/test/unit_test.hpp>
#include <string_view>
#include <utility>

#include "config/schema.hpp"
#include "core/error.hpp"

using namespace bfs;

namespace {

/// An enum-valued method key (KeyVisitor's enum overload); the table's order, not the declaration's, is the order of
/// its names in messages and `banditfs keys`.
enum class Shape { Square, Round, Oval };
constexpr std::array<std::pair<Shape, std::string_view>, 3> enum_table(Shape) {
  return {{{Shape::Round, "round"}, {Shape::Square, "square"}, {Shape::Oval, "oval"}}};
}

/// A method with keys of its own and no estimator, beside a stand-in for the bandit (the real registry lives in
/// src/methods/, above config: these tests check the schema's side of the catalog).
struct DemoParams final : MethodParams {
  int neighbours = 2;
  double share = 0.5;
  std::string mode = "full";
  bool standardize = true;
  Shape shape = Shape::Round;
  void visit(KeyVisitor& v) override {
    v("neighbours", neighbours, keyspec::range(1, 100, "neighbours"));
    v("share", share, keyspec::above(0, 1, "share"));
    v("mode", mode, keyspec::one_of({"full", "fast"}, "mode"));
    v("standardize", standardize, keyspec::text("standardize"));
    v("shape", shape, keyspec::text("shape"));
  }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<DemoParams>(*this); }
};

MethodCatalog test_catalog() {
  MethodDescription bandit{"bandit", {"reward", "bandit", "tuning"}, {}, true};
  MethodDescription demo{"demo", {}, [] { return std::make_unique<DemoParams>(); }, false};
  return {bandit, demo};
}

JobConfig parse_job(const std::string& text, const std::string& origin,
                    const std::vector<std::string>& overrides = {}) {
  return bfs::parse_job(test_catalog(), text, origin, overrides);
}

/// The ConfigError message of parsing `text`, or "" when it parses.
std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    parse_job(text, "job.toml", overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}
}  // namespace

BOOST_AUTO_TEST_CASE(an_empty_job_takes_the_defaults) {
  const JobConfig job = parse_job("", "job.toml");
  BOOST_TEST(name_of(job.bandit.policy) == "ttts");
  BOOST_TEST(job.reward.repeats == 10);
  BOOST_TEST(job.estimator.random_forest.n_estimators == 100);
}

BOOST_AUTO_TEST_CASE(the_parser_records_whether_bandit_iterations_was_given) {
  BOOST_TEST(!parse_job("", "job.toml").bandit.iterations_given);
  BOOST_TEST(!parse_job("[bandit]\nmode = \"online\"\n", "job.toml").bandit.iterations_given);
  BOOST_TEST(parse_job("[bandit]\niterations = 7\n", "job.toml").bandit.iterations_given);
  BOOST_TEST(parse_job("", "job.toml", {"bandit.iterations=9"}).bandit.iterations_given);  // --set counts too
}

BOOST_AUTO_TEST_CASE(values_are_read_into_their_sections) {
  const JobConfig job = parse_job(R"(
[data]
dgp = "friedman3"
p = 500
[estimator]
name = "lasso"
lambda = 0.05
[reward]
rule = "relative"
threshold = 0.04
[bandit]
policy = "ts"
iterations = 500
stop = "truth"
)",
                                  "job.toml");
  BOOST_TEST(name_of(job.data.dgp) == "friedman3");
  BOOST_TEST(job.data.p == 500);
  BOOST_TEST(name_of(job.estimator.name) == "lasso");
  BOOST_TEST(job.estimator.lasso.lambda == 0.05);
  BOOST_TEST(job.reward.threshold == 0.04);
  BOOST_TEST(job.bandit.iterations == 500);
}

BOOST_AUTO_TEST_CASE(an_unknown_key_is_named) {
  const auto message = error_of("[bandit]\niteratons = 5\n");
  BOOST_TEST(contains(message, "bandit.iteratons"));
  BOOST_TEST(contains(message, "unknown key"));
  BOOST_TEST(contains(error_of("[banditt]\n"), "banditt"));
}

BOOST_AUTO_TEST_CASE(a_wrong_type_is_named) {
  const auto message = error_of("[bandit]\niterations = \"many\"\n");
  BOOST_TEST(contains(message, "bandit.iterations"));
  BOOST_TEST(contains(message, "expected an integer"));
  BOOST_TEST(contains(error_of("[bandit]\nbootstrap = 1\n"), "bandit.bootstrap"));
}

BOOST_AUTO_TEST_CASE(an_out_of_range_value_is_named) {
  BOOST_TEST(contains(error_of("[reward]\nthreshold = 1.5\n"), "reward.threshold = 1.5 is out of range"));
  BOOST_TEST(contains(error_of("[reward]\nthreshold = -0.1\n"), "reward.threshold"));
  BOOST_TEST(contains(error_of("[bandit]\nmax_features = 0.0\n"), "bandit.max_features"));
  BOOST_TEST(contains(error_of("[bandit]\ntvs_c = 1.0\n"), "bandit.tvs_c"));
}

BOOST_AUTO_TEST_CASE(unknown_estimator_and_policy_are_named) {
  BOOST_TEST(contains(error_of("[estimator]\nname = \"knn\"\n"), "estimator.name = \"knn\""));
  BOOST_TEST(contains(error_of("[bandit]\npolicy = \"ucb\"\n"), "bandit.policy = \"ucb\""));
  BOOST_TEST(contains(error_of("[reward]\nrule = \"magic\"\n"), "reward.rule"));
  BOOST_TEST(contains(error_of("[data]\nsource = \"parquet\"\n"),
                      "data.source = \"parquet\" is not one of \"simulate\", \"hdf5\", \"csv\""));
  BOOST_TEST(contains(error_of("[data]\ndgp = \"friedman2\"\n"), "data.dgp = \"friedman2\""));
  BOOST_TEST(contains(error_of("[bandit]\nmode = \"batch\"\n"), "bandit.mode"));
  BOOST_TEST(contains(error_of("[bandit]\nstop = \"never\"\n"), "bandit.stop"));
}

BOOST_AUTO_TEST_CASE(only_the_chosen_estimators_keys_are_valid) {
  const auto message = error_of("[estimator]\nname = \"lasso\"\nn_estimators = 10\n");
  BOOST_TEST(contains(message, "estimator.n_estimators"));
  BOOST_TEST(error_of("[estimator]\nname = \"gbm\"\nmax_leaves = 50\n").empty());
}

BOOST_AUTO_TEST_CASE(cross_field_rules_are_checked) {
  BOOST_TEST(contains(error_of("[reward]\nrule = \"lasso-nonzero\"\n"), "lasso-nonzero"));
  BOOST_TEST(contains(error_of("[data]\nsource = \"hdf5\"\n"), "data.path"));
  BOOST_TEST(contains(error_of("[data]\nsource = \"csv\"\npath = \"x.csv\"\n"), "data.target"));
  BOOST_TEST(
      contains(error_of("[estimator]\nname = \"mlp\"\nhidden = [16, 0]\n"), "estimator.hidden = 0 is out of range"));
  BOOST_TEST(contains(error_of("[estimator]\nname = \"mlp\"\nhidden = [16, 2.5]\n"), "estimator.hidden"));
}

BOOST_AUTO_TEST_CASE(overrides_are_applied_and_checked) {
  const JobConfig job = parse_job("[bandit]\niterations = 10\n", "job.toml",
                                  {"bandit.iterations=50", "bandit.policy=ts", "run.out=/tmp/x"});
  BOOST_TEST(job.bandit.iterations == 50);
  BOOST_TEST(name_of(job.bandit.policy) == "ts");
  BOOST_TEST(job.run.out == "/tmp/x");
  BOOST_TEST(contains(error_of("", {"bandit.iterations=-3"}), "bandit.iterations"));
  BOOST_TEST(contains(error_of("", {"bandit.nope=3"}), "bandit.nope"));
  BOOST_TEST(contains(error_of("", {"iterations=3"}), "section.key=value"));
}

BOOST_AUTO_TEST_CASE(the_canonical_dump_parses_back_to_the_same_job) {
  const JobConfig job =
      parse_job("[estimator]\nname = \"mlp\"\nhidden = [16, 8]\n[reward]\ngroups = [[\"x1\", \"x2\"]]\n", "job.toml",
                {"run.seed=42"});
  const std::string text = dump_job(job);
  const JobConfig again = parse_job(text, "dump");
  BOOST_TEST(dump_job(again) == text);
  BOOST_TEST(again.run.seed == 42u);
  BOOST_TEST((again.estimator.mlp.hidden == std::vector<int>{16, 8}));
  BOOST_TEST(again.reward.groups.size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_syntax_error_names_the_line) {
  BOOST_TEST(contains(error_of("[bandit\n"), "job.toml:1"));
}

BOOST_AUTO_TEST_CASE(binary_metric_keys_are_checked_against_the_task) {
  const std::string binary = "[data]\ntask = \"binary\"\n";
  BOOST_TEST(name_of(parse_job(binary, "job").data.task) == "binary");
  BOOST_TEST(name_of(job_metric(parse_job(binary, "job").data, parse_job(binary, "job").reward)) == "auc");
  BOOST_TEST(name_of(job_metric(parse_job("", "job").data, parse_job("", "job").reward)) == "r2");
  auto message = [](const std::string& text) {
    try {
      parse_job(text, "job");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string r2 = message(binary + "[reward]\nmetric = \"r2\"\n");
  BOOST_TEST(r2.find("reward.metric") != std::string::npos);
  BOOST_TEST(r2.find("data.task") != std::string::npos);
  BOOST_TEST(message("[reward]\nmetric = \"auc\"\n").find("does not fit data.task") != std::string::npos);
  BOOST_TEST(message(binary + "[reward]\nmetric = \"log_loss\"\nmin_r2 = 0.0\n").find("reward.min_r2") !=
             std::string::npos);
  BOOST_TEST(message("[data]\npositive_label = 2.0\n").find("data.positive_label") != std::string::npos);
  BOOST_TEST(message(binary + "[estimator]\nname = \"gbm\"\n[tuning]\nenabled = true\n").find("data.task") !=
             std::string::npos);
  BOOST_TEST(message("[data]\ntask = \"multiclass\"\n").find("data.task") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_method_takes_only_its_own_keys_and_sections) {
  const JobConfig job = parse_job("[method]\nname = \"demo\"\nneighbours = 7\nmode = \"fast\"\n", "job.toml");
  const auto* params = job.method.params.as<DemoParams>();
  BOOST_REQUIRE(params != nullptr);
  BOOST_TEST(params->neighbours == 7);
  BOOST_TEST(params->mode == "fast");
  BOOST_TEST(params->share == 0.5);
  // A copy of the job owns a copy of the parameters.
  const JobConfig copy = job;
  BOOST_TEST(copy.method.params.as<DemoParams>() != params);
  BOOST_TEST(copy.method.params.as<DemoParams>()->neighbours == 7);

  BOOST_TEST(
      contains(error_of("[method]\nname = \"nope\"\n"), "method.name = \"nope\" is not one of \"bandit\", \"demo\""));
  BOOST_TEST(contains(error_of("[method]\nname = \"demo\"\n[bandit]\niterations = 5\n"),
                      "section [bandit] belongs to method \"bandit\", but method.name = \"demo\""));
  BOOST_TEST(contains(error_of("[method]\nname = \"demo\"\n[estimator]\nname = \"lasso\"\n"),
                      "section [estimator] is not used by method \"demo\""));
  BOOST_TEST(
      contains(error_of("[method]\nname = \"demo\"\nneighbours = 0\n"), "method.neighbours = 0 is out of range"));
  BOOST_TEST(
      contains(error_of("[method]\nname = \"demo\"\nmode = \"slow\"\n"), "method.mode = \"slow\" is not one of"));
  BOOST_TEST(contains(error_of("[method]\nname = \"demo\"\nbogus = 1\n"), "unknown key 'method.bogus'"));
  // The bandit takes no [method] keys besides its name; another method's key is unknown to it.
  BOOST_TEST(contains(error_of("[method]\nneighbours = 3\n"), "unknown key 'method.neighbours'"));
  BOOST_TEST(contains(error_of("", {"method.name=demo", "method.share=2.0"}), "method.share = 2 is out of range"));
}

BOOST_AUTO_TEST_CASE(a_methods_dump_holds_its_keys_and_only_its_sections) {
  const JobConfig job = parse_job("[method]\nname = \"demo\"\nneighbours = 4\n", "job.toml");
  const std::string text = dump_job(job);
  BOOST_TEST(contains(text, "neighbours = 4"));
  BOOST_TEST(contains(text, "mode = 'full'"));
  BOOST_TEST(!contains(text, "[bandit]"));
  BOOST_TEST(!contains(text, "[reward]"));
  BOOST_TEST(!contains(text, "[estimator]"));
  BOOST_TEST(dump_job(parse_job(text, "dump")) == text);
  // The bandit's dump is unchanged by the catalog: every section, [method] with its name only.
  const std::string bandit = dump_job(parse_job("", "job.toml"));
  BOOST_TEST(contains(bandit, "[bandit]"));
  BOOST_TEST(contains(bandit, "[method]\nname = 'bandit'\n"));
}

BOOST_AUTO_TEST_CASE(keys_lists_each_methods_keys_and_sections) {
  const std::string keys = describe_keys(test_catalog());
  BOOST_TEST(contains(keys, "[method] name = \"demo\"  (no [estimator])"));
  BOOST_TEST(contains(keys, "method.neighbours  [1, 100]"));
  BOOST_TEST(contains(keys, "[method] name = \"bandit\"  (its sections: [reward] [bandit] [tuning])"));
  BOOST_TEST(contains(keys, "bandit.iterations"));
}

BOOST_AUTO_TEST_CASE(a_methods_enum_key_is_parsed_once_dumped_and_described_by_name) {
  BOOST_TEST(
      (parse_job("[method]\nname = \"demo\"\n", "job.toml").method.params.as<DemoParams>()->shape == Shape::Round));
  const JobConfig job = parse_job("[method]\nname = \"demo\"\nshape = \"oval\"\n", "job.toml");
  BOOST_TEST((job.method.params.as<DemoParams>()->shape == Shape::Oval));
  const std::string text = dump_job(job);
  BOOST_TEST(contains(text, "shape = 'oval'"));
  BOOST_TEST(dump_job(parse_job(text, "dump")) == text);
  BOOST_TEST(
      contains(dump_job(parse_job("", "job.toml", {"method.name=demo", "method.shape=square"})), "shape = 'square'"));
  BOOST_TEST(error_of("[method]\nname = \"demo\"\nshape = \"cube\"\n") ==
             "job.toml: method.shape = \"cube\" is not one of \"round\", \"square\", \"oval\"");
  BOOST_TEST(contains(error_of("[method]\nname = \"demo\"\nshape = 3\n"), "method.shape = 3: expected a string"));
  BOOST_TEST(contains(error_of("", {"method.name=demo", "method.shape=cube"}),
                      "--set method.shape = \"cube\" is not one of \"round\", \"square\", \"oval\""));
  BOOST_TEST(contains(describe_keys(test_catalog()), "method.shape  (\"round\", \"square\", \"oval\")  shape\n"));
}

BOOST_AUTO_TEST_CASE(a_bad_set_value_is_blamed_on_set_not_the_file) {
  BOOST_TEST(contains(error_of("[bandit]\niterations = 5\n", {"bandit.iterations=0"}),
                      "--set bandit.iterations = 0 is out of range"));
  BOOST_TEST(!contains(error_of("", {"bandit.iterations=0"}), "job.toml"));
  BOOST_TEST(contains(error_of("", {"bandit.bogus=1"}), "--set: unknown key 'bandit.bogus'"));
  // A bad value in the file itself still names the file.
  BOOST_TEST(contains(error_of("[bandit]\niterations = 0\n"), "job.toml: bandit.iterations = 0 is out of range"));
}

// Reward.null and its keys.
BOOST_AUTO_TEST_CASE(reward_null_keys_are_parsed_and_checked) {
  const JobConfig job = parse_job("[reward]\nnull = \"shadow\"\nshadows = 7\nshadow_quantile = 0.9\n", "job.toml");
  BOOST_TEST(name_of(job.reward.null) == "shadow");
  BOOST_TEST(job.reward.shadows == 7);
  BOOST_TEST(job.reward.shadow_quantile == 0.9);
  BOOST_TEST(name_of(parse_job("", "job.toml").reward.null) == "none");
  BOOST_TEST(parse_job("", "job.toml").reward.shadows == 19);
  BOOST_TEST(contains(error_of("[reward]\nnull = \"shadow\"\nshadows = 0\n"), "reward.shadows"));
  BOOST_TEST(contains(error_of("[reward]\nnull = \"boruta\"\n"), "reward.null"));
  BOOST_TEST(contains(error_of("[reward]\nnull = \"shadow\"\nrule = \"bernoulli\"\n"),
                      "reward.null = \"shadow\" needs reward.rule = \"absolute\" or \"relative\" (got \"bernoulli\")"));
  BOOST_TEST(contains(error_of("[reward]\nnull = \"paired\"\nrepeats = 1\n"), "needs reward.repeats >= 2 (got 1)"));
  BOOST_TEST(contains(error_of("[reward]\nnull = \"paired\"\nalpha = 0.7\n"), "reward.alpha"));
  BOOST_TEST(contains(error_of("[reward]\nnull = \"paired\"\nalpha = 0\n"), "reward.alpha"));
  BOOST_TEST(contains(error_of("[reward]\nnull = \"shadow\"\nshadow_quantile = 1.5\n"), "reward.shadow_quantile"));
  BOOST_TEST(contains(error_of("[reward]\nshadows = 4\n"), "need reward.null"));
  BOOST_TEST(contains(error_of("[reward]\nnull = \"shadow\"\nalpha = 0.1\n"), "reward.alpha is used by"));
  BOOST_TEST(contains(error_of("[reward]\nnull = \"paired\"\nshadows = 3\n"), "reward.shadows"));
}

BOOST_AUTO_TEST_CASE(svm_keys_and_its_binary_task) {
  const JobConfig job =
      parse_job("[data]\ntask = \"binary\"\n[estimator]\nname = \"svm\"\nc = 8\nfolds = 3\n", "job.toml");
  BOOST_TEST(job.estimator.svm.c == 8.0);
  BOOST_TEST(job.estimator.svm.gamma == 0.0);
  BOOST_TEST(job.estimator.svm.folds == 3);
  BOOST_TEST(contains(error_of("[estimator]\nname = \"svm\"\n"), "estimator.name = \"svm\" needs data.task"));
  BOOST_TEST(
      contains(error_of("[data]\ntask = \"binary\"\n[estimator]\nname = \"svm\"\nfolds = 1\n"), "estimator.folds"));
}

// [TVS]: data.knockoffs and the §6.1 designs as data.dgp values.
BOOST_AUTO_TEST_CASE(data_knockoffs_and_the_paper_003_designs_parse) {
  const JobConfig job = parse_job("[data]\nknockoffs = \"gaussian\"\ndgp = \"forest\"\n", "job.toml");
  BOOST_TEST(name_of(job.data.knockoffs) == "gaussian");
  BOOST_TEST(name_of(job.data.dgp) == "forest");
  BOOST_TEST(name_of(parse_job("[data]\ndgp = \"friedman1-corr\"\n", "job.toml").data.dgp) == "friedman1-corr");
  BOOST_TEST(name_of(parse_job("", "job.toml").data.knockoffs) == "none");
  BOOST_TEST(contains(dump_job(job), "knockoffs = 'gaussian'"));
  BOOST_TEST(name_of(parse_job(dump_job(job), "dump").data.knockoffs) == "gaussian");
  BOOST_TEST(name_of(parse_job("", "job.toml", {"data.knockoffs=gaussian"}).data.knockoffs) == "gaussian");
  BOOST_TEST(contains(error_of("[data]\nknockoffs = \"sdp\"\n"),
                      "data.knockoffs = \"sdp\" is not one of \"none\", \"gaussian\""));
  BOOST_TEST(contains(error_of("[data]\nknockoffs = true\n"), "data.knockoffs"));
  // A method of bandit logs has no (X, y) columns to copy.
  MethodCatalog catalog = test_catalog();
  catalog.push_back({"logs", {}, {}, false, true});
  try {
    bfs::parse_job(catalog, "[method]\nname = \"logs\"\n[data]\nknockoffs = \"gaussian\"\n", "job.toml", {});
    BOOST_ERROR("no error");
  } catch (const ConfigError& e) {
    BOOST_TEST(contains(e.what(), "data.knockoffs = \"gaussian\" does not apply to method.name = \"logs\""));
  }
}

// [TVS]: BART's keys, its rewards, TVS batches, and what each refuses.
BOOST_AUTO_TEST_CASE(bart_rewards_batches_and_rebatch_are_parsed_and_checked) {
  const JobConfig job = parse_job(
      "[data]\nbatch_size = 100\n[estimator]\nname = \"bart\"\nsweeps = 500\nsparse = false\n[reward]\nrule = "
      "\"bart-mean-splits\"\nmin_splits = 2\n[bandit]\npolicy = \"tvs\"\nmode = \"online\"\npasses = 5\nrebatch = "
      "\"bootstrap\"\n",
      "job.toml");
  BOOST_TEST(job.estimator.bart.sweeps == 500);
  BOOST_TEST(job.estimator.bart.n_estimators == 10);
  BOOST_TEST(!job.estimator.bart.sparse);
  BOOST_TEST(job.reward.min_splits == 2.0);
  BOOST_TEST(job.data.batch_size == 100);
  BOOST_TEST(name_of(job.bandit.rebatch) == "bootstrap");
  BOOST_TEST(name_of(parse_job(dump_job(job), "dump").bandit.rebatch) == "bootstrap");
  const std::string bart = "[estimator]\nname = \"bart\"\n";
  BOOST_TEST(
      contains(error_of("[reward]\nrule = \"bart-last-draw\"\n"),
               "reward.rule = \"bart-last-draw\" reads BART's split counts and needs estimator.name = \"bart\""));
  BOOST_TEST(contains(error_of(bart + "[reward]\nmin_splits = 3\n"), "reward.min_splits is used by"));
  BOOST_TEST(contains(error_of(bart + "[data]\ntask = \"binary\"\n"), "estimator.name = \"bart\" needs data.task"));
  BOOST_TEST(contains(error_of(bart + "sweeps = 0\n"), "estimator.sweeps"));
  BOOST_TEST(contains(error_of("[data]\nbatch_size = 10\n"), "data.batch_size = 10 cuts online batches"));
  BOOST_TEST(contains(error_of("[bandit]\nrebatch = \"bootstrap\"\n"), "needs bandit.mode = \"online\""));
  BOOST_TEST(contains(error_of("[bandit]\nmode = \"online\"\ntime_series = true\nrebatch = \"bootstrap\"\n"),
                      "bandit.time_series"));
  BOOST_TEST(contains(error_of("[bandit]\nrebatch = \"jackknife\"\n"), "bandit.rebatch"));
}

BOOST_AUTO_TEST_CASE(the_tasks_an_estimator_fits_are_a_column_of_the_list) {
  for (const auto& [name, text] : enum_table(EstimatorName{})) {
    const EstimatorTasks tasks = estimator_tasks(name);
    BOOST_TEST_CONTEXT(text) {
      BOOST_TEST((tasks.regression || tasks.binary));
      if (tasks.regression)
        BOOST_CHECK_NO_THROW(check_estimator_task(name, Task::Regression));
      else
        BOOST_CHECK_THROW(check_estimator_task(name, Task::Regression), ConfigError);
      if (tasks.binary)
        BOOST_CHECK_NO_THROW(check_estimator_task(name, Task::Binary));
      else
        BOOST_CHECK_THROW(check_estimator_task(name, Task::Binary), ConfigError);
    }
  }
  BOOST_TEST(error_of("[estimator]\nname = \"svm\"\n") ==
             "estimator.name = \"svm\" needs data.task = \"binary\" (it is a classifier; got \"regression\")");
  BOOST_TEST(error_of("[estimator]\nname = \"bart\"\n[data]\ntask = \"binary\"\n") ==
             "estimator.name = \"bart\" needs data.task = \"regression\" (the sampler is for continuous targets; got "
             "\"binary\")");
}

// The bandit's sections [reward], [bandit] and [tuning] through the schema (methods/bandit/bandit_params.hpp): each
// key read, range-checked, dumped and named in errors, and the cross-key checks at parse time.
#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/registry.hpp"

using namespace bfs;

namespace {

JobConfig parse_job(const std::string& text, const std::string& origin,
                    const std::vector<std::string>& overrides = {}) {
  return bfs::parse_job(methods::catalog(), text, origin, overrides);
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
  BOOST_TEST(name_of(bandit_config(job).policy) == "ttts");
  BOOST_TEST(reward_config(job).repeats == 10);
  BOOST_TEST(job.estimator.random_forest.n_estimators == 100);
}

BOOST_AUTO_TEST_CASE(the_parser_records_whether_bandit_iterations_was_given) {
  BOOST_TEST(!bandit_config(parse_job("", "job.toml")).iterations_given);
  BOOST_TEST(!bandit_config(parse_job("[bandit]\nmode = \"online\"\n", "job.toml")).iterations_given);
  BOOST_TEST(bandit_config(parse_job("[bandit]\niterations = 7\n", "job.toml")).iterations_given);
  BOOST_TEST(bandit_config(parse_job("", "job.toml", {"bandit.iterations=9"})).iterations_given);  // --set counts too
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
  BOOST_TEST(reward_config(job).threshold == 0.04);
  BOOST_TEST(bandit_config(job).iterations == 500);
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

BOOST_AUTO_TEST_CASE(overrides_are_applied_and_checked) {
  const JobConfig job = parse_job("[bandit]\niterations = 10\n", "job.toml",
                                  {"bandit.iterations=50", "bandit.policy=ts", "run.out=/tmp/x"});
  BOOST_TEST(bandit_config(job).iterations == 50);
  BOOST_TEST(name_of(bandit_config(job).policy) == "ts");
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
  BOOST_TEST(reward_config(again).groups.size() == 1u);
}

BOOST_AUTO_TEST_CASE(binary_metric_keys_are_checked_against_the_task) {
  const std::string binary = "[data]\ntask = \"binary\"\n";
  BOOST_TEST(name_of(parse_job(binary, "job").data.task) == "binary");
  BOOST_TEST(name_of(job_metric(parse_job(binary, "job").data, reward_config(parse_job(binary, "job")))) == "auc");
  BOOST_TEST(name_of(job_metric(parse_job("", "job").data, reward_config(parse_job("", "job")))) == "r2");
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
  BOOST_TEST(name_of(reward_config(job).null) == "shadow");
  BOOST_TEST(reward_config(job).shadows == 7);
  BOOST_TEST(reward_config(job).shadow_quantile == 0.9);
  BOOST_TEST(name_of(reward_config(parse_job("", "job.toml")).null) == "none");
  BOOST_TEST(reward_config(parse_job("", "job.toml")).shadows == 19);
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
  BOOST_TEST(reward_config(job).min_splits == 2.0);
  BOOST_TEST(job.data.batch_size == 100);
  BOOST_TEST(name_of(bandit_config(job).rebatch) == "bootstrap");
  BOOST_TEST(name_of(bandit_config(parse_job(dump_job(job), "dump")).rebatch) == "bootstrap");
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

BOOST_AUTO_TEST_CASE(the_bandits_cross_key_rules_are_checked_at_parse_time) {
  BOOST_TEST(contains(error_of("[reward]\nrule = \"lasso-nonzero\"\n"), "lasso-nonzero"));
}

BOOST_AUTO_TEST_CASE(the_bandits_dump_and_keys_hold_its_sections) {
  // The bandit's dump: every section, [method] with its name only.
  const std::string bandit = dump_job(parse_job("", "job.toml"));
  BOOST_TEST(contains(bandit, "[bandit]"));
  BOOST_TEST(contains(bandit, "[method]\nname = 'bandit'\n"));
  BOOST_TEST(dump_job(bandit_job()) == bandit);
  const std::string keys = describe_keys(methods::catalog());
  BOOST_TEST(contains(keys, "[method] name = \"bandit\"  (its sections: [reward] [bandit] [tuning])"));
  BOOST_TEST(contains(keys, "bandit.iterations"));
}

BOOST_AUTO_TEST_CASE(a_job_without_the_bandits_parameters_is_refused_by_name) {
  const JobConfig bare;  // not made by the schema nor by bandit_job()
  try {
    bandit_config(bare);
    BOOST_ERROR("no error");
  } catch (const ConfigError& e) {
    BOOST_TEST(contains(e.what(), "method.name = \"bandit\" without the bandit's parameters"));
  }
  JobConfig job = bandit_job();
  bandit_config(job).iterations = 7;
  const JobConfig copy = job;  // a copy owns its own parameters
  bandit_config(job).iterations = 8;
  BOOST_TEST(bandit_config(copy).iterations == 7);
}

// The keys that do not change results are declared once (KeySpec::result_neutral() in the schema), and both the
// checkpoint's job hash and the refusal's list of differing keys follow that declaration.
#include <boost/test/unit_test.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/schema.hpp"
#include "methods/registry.hpp"
#include "run/job_identity.hpp"

using namespace bfs;

namespace {

JobConfig parse(const std::vector<std::string>& overrides) {
  return parse_job(methods::catalog(), "", "job.toml", overrides);
}

/// Every "section.key" that `banditfs keys` lists (each schema section, each estimator, each method's own).
std::set<std::string> every_key() {
  std::set<std::string> keys;
  std::istringstream in(describe_keys(methods::catalog()));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("  ", 0) != 0) continue;
    const std::string rest = line.substr(2);
    keys.insert(rest.substr(0, rest.find(' ')));
  }
  return keys;
}

/// The result-neutral keys with a value other than the default, as --set overrides of an hgb job.
const std::vector<std::string> kNeutralOverrides = {"run.out=elsewhere",        "run.threads=3",
                                                    "run.progress_seconds=1.5", "run.checkpoint_every=7",
                                                    "run.group_size=2",         "estimator.group_split=rows"};

}  // namespace

BOOST_AUTO_TEST_CASE(exactly_the_run_placement_keys_and_hgb_group_split_are_result_neutral) {
  const std::set<std::string> expected = {
      "run.out",        "run.threads",          "run.progress_seconds", "run.checkpoint_every",
      "run.group_size", "estimator.group_split"};
  std::set<std::string> flagged;
  for (const auto& key : every_key())
    if (is_result_neutral_key(key)) flagged.insert(key);
  BOOST_TEST(flagged == expected);
  BOOST_TEST(!is_result_neutral_key("run.seed"));
  BOOST_TEST(!is_result_neutral_key("estimator.n_estimators"));
}

BOOST_AUTO_TEST_CASE(each_result_neutral_key_can_differ_without_changing_the_job_hash_or_the_differing_keys) {
  const JobConfig base = parse({"estimator.name=hgb"});
  for (const auto& assignment : kNeutralOverrides) {
    BOOST_TEST_CONTEXT(assignment) {
      const JobConfig changed = parse({"estimator.name=hgb", assignment});
      BOOST_TEST(dump_job(changed) != dump_job(base));  // the key is in the job text ...
      BOOST_TEST(job_hash(changed) == job_hash(base));  // ... but not in its identity
      BOOST_TEST(differing_keys(dump_job(base), dump_job(changed)) == "the job text differs");
    }
  }
  // All of them at once, too.
  std::vector<std::string> all = {"estimator.name=hgb"};
  all.insert(all.end(), kNeutralOverrides.begin(), kNeutralOverrides.end());
  BOOST_TEST(job_hash(parse(all)) == job_hash(base));
  BOOST_TEST(dump_job_identity(parse(all)) == dump_job_identity(base));
}

BOOST_AUTO_TEST_CASE(a_key_that_changes_results_changes_the_job_hash_and_is_named) {
  const JobConfig base = parse({"estimator.name=hgb"});
  const JobConfig seeded = parse({"estimator.name=hgb", "run.seed=99"});
  BOOST_TEST(job_hash(seeded) != job_hash(base));
  BOOST_TEST(differing_keys(dump_job(base), dump_job(seeded)) == "run.seed (checkpoint 1, this job 99)");
  const JobConfig deeper = parse({"estimator.name=hgb", "estimator.max_depth=4", "run.threads=2"});
  BOOST_TEST(job_hash(deeper) != job_hash(base));
  BOOST_TEST(differing_keys(dump_job(base), dump_job(deeper)) == "estimator.max_depth (checkpoint 0, this job 4)");
}

BOOST_AUTO_TEST_CASE(an_aggregate_compares_jobs_without_their_seeds_and_names_both_sources) {
  const std::string base = dump_job(parse({"estimator.name=hgb"}));
  const std::string seeded = dump_job(parse({"estimator.name=hgb", "run.seed=99", "run.threads=2"}));
  BOOST_TEST(differing_result_keys(base, seeded, "a", "b", {"run.seed"}) == "");
  BOOST_TEST(differing_result_keys(base, seeded, "a", "b") == "run.seed (a 1, b 99)");
  // run.interval changes the outputs (importance_lo/hi), so runs at two levels are two jobs.
  const std::string level = dump_job(parse({"estimator.name=hgb", "run.seed=5", "run.interval=0.8"}));
  BOOST_TEST(
      differing_result_keys(base, level, "a/result.h5", "b/result.h5", {"run.seed"}) ==
      "run.interval (a/result.h5 0.90000000000000002, b/result.h5 0.80000000000000004)");  // the dump's 17 digits
}

BOOST_AUTO_TEST_CASE(the_identity_text_is_the_dump_with_the_result_neutral_keys_at_their_defaults) {
  const JobConfig job = parse({"estimator.name=hgb", "run.threads=3", "estimator.group_split=rows"});
  const JobConfig plain = parse({"estimator.name=hgb"});
  BOOST_TEST(dump_job_identity(job) == dump_job(plain));
  BOOST_TEST(dump_job(job).find("threads = 3") != std::string::npos);
}

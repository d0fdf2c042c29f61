// The [stability] section (config/job_config.hpp StabilityConfig, docs/stability.md): its bounds and cross-key rules
// are ConfigErrors naming the key, and a job without it keeps its canonical text (no section is dumped while it is
// disabled), so no existing job's identity changes.
#include <boost/test/unit_test.hpp>
#include <string>

#include "config/schema.hpp"
#include "core/error.hpp"

using namespace bfs;

namespace {

MethodCatalog bandit_only() {
  return {MethodDescription{"bandit", {"reward", "bandit", "tuning"}, {}, true}};
}

std::string error_of(const std::string& text) {
  try {
    parse_job(bandit_only(), text, "job.toml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(stability_defaults_are_off_with_50_pairs) {
  const JobConfig job = parse_job(bandit_only(), "", "job.toml");
  BOOST_TEST(!job.stability.enabled);
  BOOST_TEST(job.stability.pairs == 50);
  BOOST_TEST(!job.stability.threshold.has_value());
  BOOST_TEST(!job.stability.max_false.has_value());
}

BOOST_AUTO_TEST_CASE(a_threshold_at_or_below_one_half_is_refused_naming_the_key) {
  const std::string message = error_of("[stability]\nenabled = true\nthreshold = 0.5\n");
  BOOST_TEST(contains(message, "stability.threshold = 0.5 is out of range: must be in (0.5, 1]"), message);
  BOOST_TEST(contains(error_of("[stability]\nenabled = true\nthreshold = 1.2\n"), "stability.threshold"));
  BOOST_TEST(error_of("[stability]\nenabled = true\nthreshold = 1\n").empty());
}

BOOST_AUTO_TEST_CASE(zero_pairs_is_refused_naming_the_key) {
  const std::string message = error_of("[stability]\nenabled = true\npairs = 0\n");
  BOOST_TEST(contains(message, "stability.pairs = 0 is out of range"), message);
}

BOOST_AUTO_TEST_CASE(threshold_and_max_false_together_are_refused_naming_both) {
  const std::string message = error_of("[stability]\nenabled = true\nthreshold = 0.8\nmax_false = 1\n");
  BOOST_TEST(contains(message, "stability.threshold = 0.8 and stability.max_false = 1"), message);
  BOOST_TEST(contains(error_of("[stability]\nenabled = true\nmax_false = 0\n"), "stability.max_false = 0"));
}

BOOST_AUTO_TEST_CASE(keys_of_a_disabled_section_are_refused) {
  const std::string message = error_of("[stability]\npairs = 10\n");
  BOOST_TEST(contains(message, "stability.pairs is read only with stability.enabled = true"), message);
  BOOST_TEST(contains(error_of("[stability]\nmax_false = 1\n"), "stability.max_false is read only"));
  BOOST_TEST(contains(error_of("[stability]\nenabled = true\npairz = 3\n"), "stability.pairz"));
}

BOOST_AUTO_TEST_CASE(the_section_is_dumped_only_when_enabled) {
  const std::string plain = dump_job(parse_job(bandit_only(), "", "job.toml"));
  BOOST_TEST(!contains(plain, "[stability]"));
  BOOST_TEST(plain == dump_job(parse_job(bandit_only(), "[stability]\nenabled = false\n", "job.toml")));
  const JobConfig on = parse_job(bandit_only(), "[stability]\nenabled = true\npairs = 7\nmax_false = 2\n", "job.toml");
  const std::string text = dump_job(on);
  BOOST_TEST(contains(text, "[stability]"));
  const JobConfig back = parse_job(bandit_only(), text, "dump");
  BOOST_TEST(back.stability.enabled);
  BOOST_TEST(back.stability.pairs == 7);
  BOOST_TEST(*back.stability.max_false == 2.0);
  BOOST_TEST(!back.stability.threshold.has_value());
  BOOST_TEST(dump_job(back) == text);
  BOOST_TEST(dump_job_identity(back) != dump_job_identity(parse_job(bandit_only(), "", "job.toml")));
}

BOOST_AUTO_TEST_CASE(set_overrides_reach_the_section) {
  const JobConfig job =
      parse_job(bandit_only(), "", "job.toml", {"stability.enabled=true", "stability.threshold=0.75"});
  BOOST_TEST(job.stability.enabled);
  BOOST_TEST(*job.stability.threshold == 0.75);
}

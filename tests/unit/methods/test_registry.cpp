// The registry (methods/registry.hpp): the one list the CLI dispatches through and the schema reads.
#include <boost/test/unit_test.hpp>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "methods/registry.hpp"

using namespace bfs;

BOOST_AUTO_TEST_CASE(the_bandit_is_registered_with_its_sections) {
  const Method& bandit = methods::find("bandit");
  BOOST_TEST(bandit.name() == "bandit");
  const MethodDescription d = bandit.describe();
  BOOST_TEST((d.sections == std::vector<std::string>{"reward", "bandit", "tuning"}));
  BOOST_TEST(d.uses_estimator);
  BOOST_TEST(methods::catalog().size() == methods::all().size());
}

BOOST_AUTO_TEST_CASE(an_unknown_method_is_an_error_naming_the_known_ones) {
  try {
    methods::find("nope");
    BOOST_FAIL("no error");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("method.name = \"nope\" is not one of") != std::string::npos);
    BOOST_TEST(what.find("\"bandit\"") != std::string::npos);
  }
  BOOST_CHECK_THROW(parse_job(methods::catalog(), "[method]\nname = \"nope\"\n", "job.toml"), ConfigError);
}

BOOST_AUTO_TEST_CASE(every_method_validates_the_default_job_of_its_own_sections) {
  for (const auto& method : methods::all()) {
    const JobConfig job = parse_job(methods::catalog(), "[method]\nname = \"" + method->name() + "\"\n", "job.toml");
    BOOST_CHECK_NO_THROW(method->validate(job));
    // keys lists every method.
    BOOST_TEST(describe_keys(methods::catalog()).find("[method] name = \"" + method->name() + "\"") !=
               std::string::npos);
  }
}

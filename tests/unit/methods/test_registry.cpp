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

BOOST_AUTO_TEST_CASE(a_section_of_another_method_is_an_error_naming_it) {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_job(methods::catalog(), text, "job.toml");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  BOOST_TEST(error_of("[method]\nname = \"first\"\n[reward]\nthreshold = 0.1\n")
                 .find("section [reward] belongs to method \"bandit\", but method.name = \"first\"") !=
             std::string::npos);
  BOOST_TEST(error_of("[method]\nname = \"first\"\n[tuning]\nenabled = false\n").find("section [tuning]") !=
             std::string::npos);
  BOOST_TEST(error_of("[method]\nname = \"bandit\"\nforward = \"fast\"\n").find("unknown key 'method.forward'") !=
             std::string::npos);
  // Each method's job dumps only its own sections, and parses back to the same text.
  const JobConfig first = parse_job(methods::catalog(), "[method]\nname = \"first\"\nouter_samples = 10\n", "job");
  const std::string text = dump_job(first);
  BOOST_TEST(text.find("[bandit]") == std::string::npos);
  BOOST_TEST(text.find("outer_samples = 10") != std::string::npos);
  BOOST_TEST(dump_job(parse_job(methods::catalog(), text, "dump")) == text);
}

// Every enum-valued method key: each allowed name parses and dumps back as itself; another name is refused with the
// key, the value and the allowed names (the message of every enum key of the schema).
BOOST_AUTO_TEST_CASE(every_enum_key_of_a_method_parses_each_name_and_refuses_others) {
  struct EnumKey {
    const char* method;
    const char* key;
    std::vector<std::string> names;
  };
  const std::vector<EnumKey> keys = {{"fuse", "heuristic", {"discrete", "continuous", "rand"}},
                                     {"fuse", "untried", {"first", "rave"}},
                                     {"fuse", "select", {"shadow", "rave", "path"}},
                                     {"first", "forward", {"full", "fast"}},
                                     {"cmab-scores", "missing", {"bin", "error"}},
                                     {"cmab-scores", "hie_reference", {"in-bin", "global"}},
                                     {"cmab-scores", "select", {"shadow", "top"}}};
  for (const auto& [method, key, names] : keys) {
    const std::string header = std::string("[method]\nname = \"") + method + "\"\n";
    std::string allowed;
    for (const auto& name : names) {
      const JobConfig job = parse_job(methods::catalog(), header + key + " = \"" + name + "\"\n", "job.toml");
      BOOST_TEST(dump_job(job).find(std::string(key) + " = '" + name + "'") != std::string::npos);
      allowed += (allowed.empty() ? "\"" : ", \"") + name + "\"";
    }
    try {
      parse_job(methods::catalog(), header + key + " = \"bogus\"\n", "job.toml");
      BOOST_FAIL(std::string("method.") + key + " = \"bogus\" was accepted");
    } catch (const ConfigError& e) {
      BOOST_TEST(e.what() == std::string("job.toml: method.") + key + " = \"bogus\" is not one of " + allowed);
    }
  }
}

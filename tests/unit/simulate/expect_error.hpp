#pragma once
// The simulate tests' check that a call throws ConfigError with a message containing `needle`.
#include <boost/test/unit_test.hpp>
#include <string>

#include "core/error.hpp"

namespace bfs::test {

template <class F>
void expect_config_error(F&& f, const std::string& needle) {
  try {
    f();
    BOOST_ERROR("no exception; expected: " << needle);
  } catch (const ConfigError& e) {
    BOOST_TEST_INFO("message: " << e.what());
    BOOST_TEST(std::string(e.what()).find(needle) != std::string::npos);
  }
}

}  // namespace bfs::test

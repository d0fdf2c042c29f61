#pragma once
// The MPI session every tests/mpi/ binary runs in: one Boost.Test global fixture that starts it before the first
// test case and ends it after the last (each suite is its own binary, so this header is included once per binary).
#include <boost/test/unit_test.hpp>
#include <memory>

#include "dist/session.hpp"

inline std::unique_ptr<bfs::dist::Session> g_session;

struct MpiSessionFixture {
  MpiSessionFixture() {
    auto& suite = boost::unit_test::framework::master_test_suite();
    g_session = std::make_unique<bfs::dist::Session>(suite.argc, suite.argv);
  }
  ~MpiSessionFixture() { g_session.reset(); }
};
BOOST_TEST_GLOBAL_FIXTURE(MpiSessionFixture);

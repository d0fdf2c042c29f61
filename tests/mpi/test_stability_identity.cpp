// Stability selection under mpiexec at 1–4 ranks (tests/mpi/CMakeLists.txt): every method's [stability] job through
// api::run_on on dist/'s Comm and Executor (blocks of the 2B runs per rank) gives on rank 0 the result, bit for bit,
// of the same job in one process on 2 threads — the half-sample runs' summary included.
#define BOOST_TEST_MODULE stability_identity
#include <boost/test/unit_test.hpp>

#include "api/banditfs.hpp"
#include "dist/runtime.hpp"
#include "identity.hpp"
#include "mpi_session.hpp"

using namespace bfs;

namespace {

void check_job(const std::string& text) {
  const std::string stability = "[stability]\nenabled = true\npairs = 3\n";
  const api::Job job = api::Job::parse(text + stability, {"run.threads=1"});
  const dist::Runtime runtime = dist::make_runtime(*g_session, 1);
  const auto distributed = api::run_on(job, nullptr, {}, *runtime.comm, *runtime.executor);
  BOOST_TEST(distributed.has_value() == (g_session->rank() == 0));
  if (g_session->rank() != 0) return;
  BOOST_TEST(distributed->ranks == g_session->size());
  const MethodResult expected = api::run(api::Job::parse(text + stability, {"run.threads=2"}));
  BOOST_TEST(expected.stability.runs == 6);
  testing::expect_identical(expected, *distributed);
  const auto a = expected.stability.columns();
  const auto b = distributed->stability.columns();
  for (std::size_t i = 0; i < a.size(); ++i) BOOST_TEST(testing::same_bits(*a[i].second, *b[i].second), a[i].first);
  BOOST_TEST(testing::same_bits(expected.importance_lo, distributed->importance_lo));
  BOOST_TEST(expected.stability.mean_selected == distributed->stability.mean_selected);
}

}  // namespace

BOOST_AUTO_TEST_CASE(bandit) {
  check_job(
      "[data]\nsource = \"simulate\"\ndgp = \"friedman1\"\nn = 120\np = 12\n[estimator]\nname = \"lasso\"\n"
      "[bandit]\niterations = 10\n[run]\nseed = 3\n");
}

BOOST_AUTO_TEST_CASE(bandit_online_halves_within_periods) {
  check_job(
      "[data]\nsource = \"simulate\"\ndgp = \"friedman1\"\nn = 60\np = 10\nperiods = 3\nnoise_features = 2\n"
      "[estimator]\nname = \"lasso\"\n[bandit]\nmode = \"online\"\niterations_per_period = 2\n[run]\nseed = 8\n");
}

BOOST_AUTO_TEST_CASE(first) {
  check_job(
      "[method]\nname = \"first\"\n[data]\nsource = \"simulate\"\ndgp = \"friedman1\"\nn = 120\np = 12\n"
      "[run]\nseed = 4\n");
}

BOOST_AUTO_TEST_CASE(fuse) {
  check_job(
      "[method]\nname = \"fuse\"\niterations = 60\nreward_subsample = 30\n[data]\nsource = \"simulate\"\n"
      "dgp = \"friedman1\"\nn = 120\np = 12\ntask = \"binary\"\n[run]\nseed = 5\n");
}

BOOST_AUTO_TEST_CASE(cmab_scores) {
  check_job("[method]\nname = \"cmab-scores\"\n[data]\nn = 400\np = 12\n[run]\nseed = 6\n");
}

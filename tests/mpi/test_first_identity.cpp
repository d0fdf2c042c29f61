// FIRST under mpiexec at 1–4 ranks (tests/mpi/CMakeLists.txt): the job through the registry on every rank, its
// estimates spread by the MPI Executor, gives on rank 0 the same result, bit for bit, as the same job in one process
// (a LocalExecutor on 2 threads) — with all rows as outer rows and with an outer subsample.
#define BOOST_TEST_MODULE first_identity
#include <boost/test/unit_test.hpp>
#include <memory>

#include "config/schema.hpp"
#include "dist/runtime.hpp"
#include "identity.hpp"
#include "methods/registry.hpp"
#include "mpi_session.hpp"

using namespace bfs;

namespace {

void check_job(const std::string& text) {
  const JobConfig job = parse_job(methods::catalog(), text, "job.toml");
  const Method& first = methods::find("first");
  const std::string job_text = dump_job(job);
  Context context;
  context.seed = job.run.seed;
  const dist::Runtime runtime = dist::make_runtime(*g_session, 1);
  const auto distributed =
      first.run(MethodRun{job, job_text, context, *runtime.comm, *runtime.executor, RunControl{}, {}});
  BOOST_TEST(distributed.has_value() == (g_session->rank() == 0));
  if (g_session->rank() != 0) return;
  BOOST_TEST(distributed->ranks == g_session->size());
  SoloComm solo;
  LocalExecutor local(2);
  const auto expected = first.run(MethodRun{job, job_text, context, solo, local, RunControl{}, {}});
  BOOST_REQUIRE(expected.has_value());
  BOOST_TEST(expected->selected.size() > 0u);
  testing::expect_identical(*expected, *distributed);
}

}  // namespace

BOOST_AUTO_TEST_CASE(friedman1_all_rows_as_outer_rows) {
  check_job(
      "[method]\nname = \"first\"\n[data]\nsource = \"simulate\"\ndgp = \"friedman1\"\nn = 150\np = 30\n"
      "[run]\nseed = 4\n");
}

BOOST_AUTO_TEST_CASE(friedman1_outer_subsample_fast_forward) {
  check_job(
      "[method]\nname = \"first\"\nouter_samples = 60\nforward = \"fast\"\n[data]\nsource = \"simulate\"\n"
      "dgp = \"friedman1\"\nn = 150\np = 30\n[run]\nseed = 5\n");
}

// A table as it comes — missing cells (NA and empty) and a text column, which the CSV reader encodes as one
// categorical feature of indicator columns (data/feature_layout.hpp) — under mpiexec at 1–4 ranks
// (tests/mpi/CMakeLists.txt): the bandit (arms_per_round 1 and 4, so a group splits an arm's importance blocks,
// the categorical feature's columns one group; shadows of the categorical feature), FIRST and FUSE (missing cells
// filled with their column's mean) give on rank 0 the same result, bit for bit, as the same job in one process, with
// one output row per feature under its own name.
#define BOOST_TEST_MODULE groups_identity
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

#include "config/schema.hpp"
#include "core/rng.hpp"
#include "dist/runtime.hpp"
#include "identity.hpp"
#include "methods/registry.hpp"
#include "mpi_session.hpp"

using namespace bfs;

namespace {

constexpr int kRows = 160;
const std::vector<std::string> kFeatures = {"x0", "x1", "colour", "x3", "x4", "x5", "x6", "x7", "x8"};

/// The table: x0 and colour carry y, x1 too where present (NA every 6th row, an empty cell every 11th), x3..x8
/// noise; `binary` writes y as 0/1 (its sign). The same on every rank; rank 0 writes it.
std::string table_text(bool binary) {
  Rng rng(42);
  const char* colours[] = {"red", "green", "blue"};
  const double effect[] = {0.0, 1.5, -1.5};
  std::string text = "x0,x1,colour,x3,x4,x5,x6,x7,x8,y\n";
  for (int i = 0; i < kRows; ++i) {
    const auto level = static_cast<std::size_t>(rng.uniform_int(3));
    const double x0 = rng.normal(), x1 = rng.normal();
    const double y = x0 + 2.0 * effect[level] + (i % 6 == 1 ? 0.0 : 0.7 * x1) + 0.2 * rng.normal();
    text += std::to_string(x0) + ",";
    text += i % 6 == 1 ? "NA," : i % 11 == 4 ? "," : std::to_string(x1) + ",";
    text += std::string(colours[level]) + ",";
    for (int j = 3; j <= 8; ++j) text += std::to_string(rng.normal()) + ",";
    text += binary ? (y > 0.0 ? "1" : "0") : std::to_string(y);
    text += "\n";
  }
  return text;
}

/// The table's path, written by rank 0 before any rank reads it (one file per rank count: the 1–4 rank runs may
/// run at once).
std::string write_table(const Comm& world, bool binary) {
  const auto path =
      std::filesystem::temp_directory_path() /
      ("banditfs_groups_" + std::string(binary ? "binary_" : "") + std::to_string(world.size()) + "_ranks.csv");
  if (world.rank() == 0) {
    std::ofstream(path.string() + ".tmp") << table_text(binary);
    std::filesystem::rename(path.string() + ".tmp", path);
  }
  world.broadcast(std::string(), 0);  // a barrier: the file is complete before anyone opens it
  return path.string();
}

void check_job(const std::string& method_and_sections, bool binary) {
  const dist::Runtime runtime = dist::make_runtime(*g_session, 1);
  const std::string path = write_table(*runtime.comm, binary);
  const std::string text = method_and_sections + "[data]\nsource = \"csv\"\npath = \"" + path + "\"\ntarget = \"y\"\n" +
                           (binary ? "task = \"binary\"\n" : "") + "[run]\nseed = 3\n";
  const JobConfig job = parse_job(methods::catalog(), text, "job.toml");
  const Method& method = methods::find(job.method.name);
  const std::string job_text = dump_job(job);
  Context context;
  context.seed = job.run.seed;
  const auto distributed =
      method.run(MethodRun{job, job_text, context, *runtime.comm, *runtime.executor, RunControl{}, {}});
  BOOST_TEST(distributed.has_value() == (g_session->rank() == 0));
  if (g_session->rank() != 0) return;
  SoloComm solo;
  LocalExecutor local(2);
  Context local_context;
  local_context.seed = job.run.seed;
  local_context.threads = 2;
  const auto expected = method.run(MethodRun{job, job_text, local_context, solo, local, RunControl{}, {}});
  BOOST_REQUIRE(expected.has_value());
  BOOST_TEST(expected->feature_names == kFeatures);  // one row per feature, the categorical one under its name
  BOOST_TEST(expected->importance.size() == kFeatures.size());
  BOOST_TEST(expected->rank.size() == kFeatures.size());
  BOOST_REQUIRE(expected->missing.size() == kFeatures.size());  // counted per feature: x1's NA and empty cells
  BOOST_TEST(expected->missing[1] > 0);
  BOOST_TEST(expected->missing[2] == 0);  // colour has none
  testing::expect_identical(*expected, *distributed);
}

}  // namespace

BOOST_AUTO_TEST_CASE(bandit_gbm_with_shadows_of_a_categorical_feature) {
  for (const int arms_per_round : {1, 4}) {
    BOOST_TEST_CONTEXT("arms_per_round = " << arms_per_round) {
      check_job(
          "[method]\nname = \"bandit\"\n[estimator]\nname = \"gbm\"\nn_estimators = 15\n"
          "[bandit]\niterations = 4\narms_per_round = " +
              std::to_string(arms_per_round) + "\n[reward]\nnull = \"shadow\"\nshadows = 4\n",
          false);
    }
  }
}

BOOST_AUTO_TEST_CASE(first_with_missing_cells_and_a_categorical_factor) {
  check_job("[method]\nname = \"first\"\n", false);
}

BOOST_AUTO_TEST_CASE(fuse_with_missing_cells_and_a_categorical_feature) {
  check_job("[method]\nname = \"fuse\"\niterations = 40\nbatch = 4\nk = 5\nreward_subsample = 60\ntop = 3\n", true);
}

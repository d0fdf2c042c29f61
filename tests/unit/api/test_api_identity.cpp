// The same job through `banditfs run` on an HDF5 file and through the library API on the same data in memory
// gives the same result.h5 datasets, bit for bit: /feature_names, /importance, /selected, /rank, /trajectory, /truth
// and every dataset of the method's group — for the bandit (offline, and online over periods), FIRST, FUSE and
// cmab-scores (a log). The job texts are the same too (the API run is given the CLI's run.out, which only names where
// files would go).
// Usage (ctest): test_api_identity -- PATH/TO/banditfs
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include "api/banditfs.hpp"
#include "api_test_data.hpp"
#include "data/hdf5_io.hpp"
#include "data/logged_data.hpp"

namespace fs = std::filesystem;
using namespace bfs;

namespace {

std::string banditfs_binary() {
  const auto& suite = boost::unit_test::framework::master_test_suite();
  BOOST_REQUIRE_MESSAGE(suite.argc >= 2, "usage: test_api_identity -- PATH/TO/banditfs");
  return suite.argv[suite.argc - 1];
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (std::is_same_v<T, std::string>)
    return a == b;
  else
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_values(const MethodDataset::Values& a, const MethodDataset::Values& b) {
  if (a.index() != b.index()) return false;
  return std::visit([&](const auto& va) { return same_bytes(va, std::get<std::decay_t<decltype(va)>>(b)); }, a);
}

void check_same_datasets(const MethodResult& cli, const MethodResult& api) {
  BOOST_TEST(cli.method == api.method);
  BOOST_TEST(cli.job_text == api.job_text);
  BOOST_TEST(same_bytes(cli.feature_names, api.feature_names));
  BOOST_TEST(!cli.importance.empty());
  BOOST_TEST(same_bytes(cli.importance, api.importance), "/importance");
  BOOST_TEST(same_bytes(cli.selected, api.selected), "/selected");
  BOOST_TEST(same_bytes(cli.rank, api.rank), "/rank");
  BOOST_TEST(same_bytes(cli.trajectory, api.trajectory), "/trajectory");
  BOOST_TEST(same_bytes(cli.truth, api.truth), "/truth");
  BOOST_TEST(!cli.datasets.empty());
  BOOST_REQUIRE(cli.datasets.size() == api.datasets.size());
  for (std::size_t k = 0; k < cli.datasets.size(); ++k) {
    const MethodDataset &a = cli.datasets[k], &b = api.datasets[k];
    BOOST_TEST_CONTEXT("/" << cli.own_group() << "/" << a.name) {
      BOOST_TEST(a.name == b.name);
      BOOST_TEST(a.shape == b.shape, boost::test_tools::per_element());
      BOOST_TEST(same_values(a.values, b.values));
    }
  }
}

/// `banditfs run` on `job_text` (whose [data] names a file in `dir`) and the API on `attached`, the same data: the
/// same result.h5 datasets. Returns the API's result as read back.
MethodResult check_same_run(const fs::path& dir, const std::string& job_text, const api::Data& attached) {
  std::ofstream(dir / "job.toml") << job_text;
  const std::string command = banditfs_binary() + " run " + (dir / "job.toml").string() + " --quiet --out " +
                              (dir / "cli").string() + " >" + (dir / "cli.log").string() + " 2>&1";
  BOOST_REQUIRE_MESSAGE(std::system(command.c_str()) == 0, "the CLI failed: " + command);
  const api::Job parsed = api::Job::parse(job_text, {"run.out=\"" + (dir / "cli").string() + "\""});
  api::write_outputs(api::run(parsed, &attached), (dir / "api").string());
  MethodResult result = api::read_result((dir / "api").string());
  check_same_datasets(api::read_result((dir / "cli").string()), result);
  return result;
}

/// A fresh directory for one case.
fs::path case_directory(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("banditfs_api_identity_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// Writes `data` to HDF5 with the project's writer, runs `job` (whose [data] section the caller leaves to this
/// function) through the CLI on the file and through the API on the arrays, and compares the two result.h5. Returns
/// the API's result as read back.
MethodResult check_identity(const std::string& name, const std::string& job, const Dataset& data,
                            const std::string& data_keys = "", const std::vector<std::int32_t>& periods = {}) {
  const fs::path dir = case_directory(name);
  write_hdf5(data, (dir / "data.h5").string());
  api::ArraysView view;
  view.X = data.X.data();
  view.rows = data.rows();
  view.cols = data.cols();
  view.y = data.y.data();
  view.feature_names = data.feature_names;
  view.truth = std::vector<std::int32_t>(data.truth.begin(), data.truth.end());
  if (!periods.empty()) view.periods = periods.data();
  MethodResult result = check_same_run(
      dir, job + "[data]\nsource = \"hdf5\"\npath = \"" + (dir / "data.h5").string() + "\"\n" + data_keys,
      api::Data::from(view));
  fs::remove_all(dir);
  return result;
}

}  // namespace

BOOST_AUTO_TEST_CASE(bandit_offline_with_noise_features) {
  check_identity("bandit",
                 "[estimator]\nname = \"random_forest\"\nn_estimators = 20\nmax_depth = 5\n"
                 "[bandit]\niterations = 15\n[run]\nseed = 3\nthreads = 2\n",
                 test::friedman_data(200, 12, false), "noise_features = 3\n");
}

BOOST_AUTO_TEST_CASE(bandit_online_over_periods) {
  Dataset data = test::friedman_data(240, 10, false);
  std::vector<std::int32_t> periods(240);
  for (std::size_t i = 0; i < periods.size(); ++i) periods[i] = 201001 + static_cast<std::int32_t>(i / 80);
  data.period_offsets = {0, 80, 160, 240};
  data.period_labels = {201001, 201002, 201003};
  const MethodResult result =
      check_identity("bandit_online",
                     "[estimator]\nname = \"lasso\"\n[bandit]\nmode = \"online\"\niterations_per_period = 4\n"
                     "[run]\nseed = 4\nthreads = 2\n",
                     data, "", periods);
  BOOST_TEST(result.iterations == 12);  // 4 rounds on each of the 3 periods the labels make
}

BOOST_AUTO_TEST_CASE(first) {
  check_identity("first", "[method]\nname = \"first\"\n[run]\nseed = 5\nthreads = 2\n",
                 test::friedman_data(200, 10, false));
}

BOOST_AUTO_TEST_CASE(fuse) {
  check_identity(
      "fuse",
      "[method]\nname = \"fuse\"\niterations = 80\nreward_subsample = 40\ntop = 10\n[run]\nseed = 6\nthreads = 2\n",
      test::friedman_data(200, 10, true));
}

BOOST_AUTO_TEST_CASE(cmab_scores_on_a_log) {
  const fs::path dir = case_directory("cmab");
  const test::TestLog log = test::friedman_log(600, 6);
  api::LogView view = test::log_view(log, {"control", "b", "c"});
  view.reward = log.reward.data();
  view.truth = std::vector<std::int32_t>{0, 1};
  const api::Data attached = api::Data::from_log(view);
  write_logged_hdf5((dir / "log.h5").string(), *attached.shared_log());  // the project's writer, the same values
  check_same_run(dir,
                 "[method]\nname = \"cmab-scores\"\n[data]\nsource = \"hdf5\"\npath = \"" + (dir / "log.h5").string() +
                     "\"\n[run]\nseed = 8\nthreads = 2\n",
                 attached);
  fs::remove_all(dir);
}

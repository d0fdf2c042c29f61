// Stability selection through the library API (src/stability/, docs/stability.md): every method runs under
// [stability] on attached data and returns the summary of its 2B half-sample runs; the result does not depend on the
// thread count; a stopped run resumes from its checkpoint to the uninterrupted result; shadows never reach the output.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "api/banditfs.hpp"
#include "api_test_data.hpp"
#include "core/error.hpp"
#include "run/stability_selection.hpp"

namespace fs = std::filesystem;
using namespace bfs;

namespace {

const char* const kStability = "[stability]\nenabled = true\npairs = 3\n";

api::Data xy(bool binary) {
  const Dataset d = test::friedman_data(120, 10, binary);
  return api::Data::from_dataset(d);
}

api::Data log_data() {
  static const test::TestLog log = test::friedman_log(400, 6);
  return api::Data::from_log(test::log_view(log, {"a", "b", "c"}));
}

struct MethodCase {
  const char* name;
  std::string job;
  bool binary;
  bool log;
};

std::vector<MethodCase> cases() {
  return {{"bandit", "[estimator]\nname = \"lasso\"\n[bandit]\niterations = 12\n", false, false},
          {"first", "[method]\nname = \"first\"\n", false, false},
          {"fuse", "[method]\nname = \"fuse\"\niterations = 60\nreward_subsample = 30\n", true, false},
          {"cmab-scores", "[method]\nname = \"cmab-scores\"\n", false, true}};
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void expect_same(const MethodResult& a, const MethodResult& b) {
  BOOST_TEST(a.feature_names == b.feature_names);
  BOOST_TEST(same_bits(a.importance, b.importance));
  BOOST_TEST(a.selected == b.selected);
  BOOST_TEST(a.rank == b.rank);
  BOOST_TEST(same_bits(a.importance_lo, b.importance_lo));
  BOOST_TEST(same_bits(a.importance_hi, b.importance_hi));
  const auto ca = a.stability.columns();
  const auto cb = b.stability.columns();
  for (std::size_t i = 0; i < ca.size(); ++i) BOOST_TEST(same_bits(*ca[i].second, *cb[i].second), ca[i].first);
  BOOST_TEST(a.stability.mean_selected == b.stability.mean_selected);
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_method_runs_under_stability_selection) {
  for (const MethodCase& c : cases()) {
    BOOST_TEST_CONTEXT(c.name) {
      const api::Job job = api::Job::parse(c.job + kStability, {"run.threads=2", "run.seed=4"});
      const api::Data data = c.log ? log_data() : xy(c.binary);
      int reports = 0;
      api::RunOptions options;
      options.on_progress = [&](const api::Progress& r) {
        if (!r.last) BOOST_TEST(r.unit == "stability run");
        reports += r.last ? 0 : 1;
      };
      const MethodResult r = api::run(job, &data, options);
      const std::size_t p = c.log ? 6 : 10;
      BOOST_TEST(r.method == c.name);
      BOOST_TEST(reports == 6);
      BOOST_TEST(r.feature_names.size() == p);  // shadows (FUSE's and cmab's default select) never leak
      for (const std::string& name : r.feature_names) BOOST_TEST(name.find("shadow") == std::string::npos);
      BOOST_TEST(r.datasets.empty());
      BOOST_TEST(r.stability.runs == 6);
      BOOST_TEST(r.stability.pairs == 3);
      BOOST_TEST(r.stability.threshold == kDefaultStabilityThreshold);
      for (double f : r.stability.selection_frequency) BOOST_TEST(std::abs(f * 6 - std::round(f * 6)) < 1e-12);
      BOOST_TEST(r.selected == stable_set(r.stability, r.stability.threshold));
      BOOST_TEST(same_bits(r.importance, r.stability.importance_mean));
      BOOST_TEST(r.importance_lo.size() == p);
      BOOST_TEST(r.stability.bound_mb ==
                 bound_meinshausen_buhlmann(r.stability.mean_selected, static_cast<std::int64_t>(p), 0.6));
      BOOST_TEST(r.metrics.known == !c.log);
    }
  }
}

BOOST_AUTO_TEST_CASE(max_false_derives_the_threshold_from_the_measured_q) {
  const api::Job job = api::Job::parse(
      std::string("[method]\nname = \"first\"\n[data]\nnoise_features = 40\n[stability]\nenabled = true\n"
                  "pairs = 2\nmax_false = 0.5\n"),
      {"run.threads=2"});
  const api::Data data = xy(false);
  const MethodResult r = api::run(job, &data);
  BOOST_TEST(r.feature_names.size() == 50u);  // each run appends its own noise columns to its half
  BOOST_TEST(r.stability.max_false == 0.5);
  BOOST_TEST(r.stability.threshold == threshold_for_max_false(r.stability.mean_selected, 50, 0.5));
  // Below 1 the threshold puts the bound at max_false exactly; clamped at 1, the bound stays above it.
  if (r.stability.threshold < 1.0)
    BOOST_TEST(r.stability.bound_mb == 0.5, boost::test_tools::tolerance(1e-9));
  else
    BOOST_TEST(r.stability.bound_mb >= 0.5);
}

BOOST_AUTO_TEST_CASE(the_result_does_not_depend_on_the_thread_count) {
  for (const MethodCase& c : cases()) {
    BOOST_TEST_CONTEXT(c.name) {
      const api::Data data = c.log ? log_data() : xy(c.binary);
      const MethodResult one = api::run(api::Job::parse(c.job + kStability, {"run.threads=1"}), &data);
      const MethodResult two = api::run(api::Job::parse(c.job + kStability, {"run.threads=2"}), &data);
      expect_same(one, two);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_stopped_run_resumes_to_the_uninterrupted_result) {
  const fs::path dir = fs::temp_directory_path() / ("banditfs_stability_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const MethodCase& c : cases()) {
    BOOST_TEST_CONTEXT(c.name) {
      const api::Job job = api::Job::parse(c.job + kStability, {"run.threads=2"});
      const api::Data data = c.log ? log_data() : xy(c.binary);
      const MethodResult whole = api::run(job, &data);
      api::RunOptions options;
      options.checkpoint_path = (dir / (std::string(c.name) + ".h5")).string();
      int reports = 0;
      options.on_progress = [&](const api::Progress&) { ++reports; };
      options.should_stop = [&] { return reports >= 2; };
      const MethodResult stopped = api::run(job, &data, options);
      BOOST_TEST(interrupted(stopped), stopped.stop_reason);
      BOOST_TEST(stopped.stop_reason.find("after stability run 2 of 6") != std::string::npos, stopped.stop_reason);
      BOOST_TEST(fs::exists(options.checkpoint_path));
      options.should_stop = {};
      options.resume = true;
      const MethodResult resumed = api::run(job, &data, options);
      BOOST_TEST(!interrupted(resumed));
      expect_same(whole, resumed);
      // Another job's checkpoint is refused, naming the key.
      const api::Job other = api::Job::parse(c.job + kStability, {"run.threads=2", "stability.pairs=4"});
      try {
        api::run(other, &data, options);
        BOOST_FAIL("another job's checkpoint was resumed");
      } catch (const InputError& e) {
        BOOST_TEST(std::string(e.what()).find("stability.pairs") != std::string::npos, e.what());
      }
    }
  }
  fs::remove_all(dir);
}

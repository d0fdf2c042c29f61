// The background loading of the next period (methods/bandit/period_prefetcher.hpp): the same rows as a
// direct load, a load's error at the get() that needs it, a clean join when destroyed mid-load, and the schedule's
// next.
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <limits>
#include <mutex>
#include <thread>

#include "../data/test_util.hpp"
#include "core/error.hpp"
#include "data/hdf5_io.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/period_prefetcher.hpp"
#include "methods/bandit/round_driver.hpp"

using namespace bfs;

namespace {

/// Four periods of 9, 12, 7 and 10 rows × 5 columns.
Dataset panel() {
  Dataset d = test::random_dataset(38, 5, 11);
  d.period_offsets = {0, 9, 21, 28, 38};
  d.origin = "panel";
  return d;
}

void expect_same(const Dataset& a, const Dataset& b) {
  BOOST_TEST(a.rows() == b.rows());
  BOOST_TEST(a.cols() == b.cols());
  // Bit for bit: the background thread must draw exactly the noise a direct load draws.
  BOOST_TEST((a.X.array() == b.X.array()).all());
  BOOST_TEST((a.y.array() == b.y.array()).all());
  BOOST_TEST(a.feature_names == b.feature_names);
}

/// Wraps a source: records the loads (from any thread), can fail or block a given period.
class ScriptedSource final : public DataSource {
 public:
  explicit ScriptedSource(std::unique_ptr<DataSource> inner) : inner_(std::move(inner)) {}
  int num_periods() const override { return inner_->num_periods(); }
  Index num_features() const override { return inner_->num_features(); }
  const std::vector<std::string>& feature_names() const override { return inner_->feature_names(); }
  const std::vector<FeatureId>& truth() const override { return inner_->truth(); }
  bool has_truth() const override { return inner_->has_truth(); }
  std::string describe() const override { return "scripted"; }
  Dataset load_period(int k) override {
    {
      const std::lock_guard lock(mutex_);
      loads_.push_back(k);
    }
    if (k == slow_period) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      while (!gate_open) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (k == failing_period) throw InputError("period " + std::to_string(k) + ": /X is unreadable (test)");
    Dataset data = inner_->load_period(k);
    if (k == slow_period) slow_done = true;
    return data;
  }
  std::vector<int> loads() const {
    const std::lock_guard lock(mutex_);
    return loads_;
  }

  int failing_period = -1;
  int slow_period = -1;  ///< sleeps 300 ms, then waits for gate_open
  std::atomic<bool> gate_open{true};
  std::atomic<bool> slow_done{false};

 private:
  std::unique_ptr<DataSource> inner_;
  mutable std::mutex mutex_;
  std::vector<int> loads_;
};

}  // namespace

BOOST_AUTO_TEST_CASE(prefetched_periods_equal_direct_loads_bit_for_bit) {
  auto direct = make_memory_source(panel(), true, 6, 17);
  ScriptedSource source(make_memory_source(panel(), true, 6, 17));
  PeriodPrefetcher prefetcher(source);
  for (int k = 0; k < 4; ++k) {
    const Dataset& data = prefetcher.get(k, k + 1 < 4 ? k + 1 : -1);
    BOOST_TEST(prefetcher.current_period() == k);
    expect_same(data, direct->load_period(k));
  }
  BOOST_TEST((source.loads() == std::vector<int>{0, 1, 2, 3}));  // each once, none past the last
}

BOOST_AUTO_TEST_CASE(prefetched_hdf5_periods_equal_direct_loads) {
  const test::TempDir dir;
  const std::string path = dir.file("panel.h5");
  write_hdf5(panel(), path);
  auto direct = make_hdf5_source(path, true, 4, 3);
  auto background = make_hdf5_source(path, true, 4, 3);
  PeriodPrefetcher prefetcher(*background);
  // A resumed run starts at a later period. The direct load reads HDF5 on this thread while the next period is
  // read in the background, as a checkpoint would: both hold hdf5_mutex().
  for (int k = 2; k < 4; ++k) {
    const Dataset& data = prefetcher.get(k, k + 1 < 4 ? k + 1 : -1);
    expect_same(data, direct->load_period(k));
  }
}

BOOST_AUTO_TEST_CASE(a_background_load_error_surfaces_at_the_get_that_needs_it) {
  ScriptedSource source(make_memory_source(panel(), true, 0, 1));
  source.failing_period = 1;
  PeriodPrefetcher prefetcher(source);
  BOOST_CHECK_NO_THROW(prefetcher.get(0, 1));  // period 1 fails in the background: not reported yet
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  BOOST_TEST(prefetcher.current_period() == 0);
  test::expect_error<InputError>([&] { prefetcher.get(1, 2); }, "period 1: /X is unreadable (test)");
  // The failed load is gone: asking again loads it again (and fails again), nothing is left running.
  test::expect_error<InputError>([&] { prefetcher.get(1); }, "period 1: /X is unreadable (test)");
  BOOST_TEST((source.loads() == std::vector<int>{0, 1, 1}));
}

BOOST_AUTO_TEST_CASE(an_unneeded_failed_load_is_discarded_silently) {
  ScriptedSource source(make_memory_source(panel(), true, 0, 1));
  source.failing_period = 3;
  {
    PeriodPrefetcher prefetcher(source);
    prefetcher.get(2, 3);  // the run stops before period 3: its error must not escape the destructor
  }
  BOOST_TEST((source.loads() == std::vector<int>{2, 3}));
}

BOOST_AUTO_TEST_CASE(destroying_the_prefetcher_mid_load_waits_for_the_load) {
  ScriptedSource source(make_memory_source(panel(), true, 2, 1));
  source.slow_period = 1;
  source.gate_open = false;  // period 1's load cannot end before the gate opens, well after the destructor began
  std::thread opener;
  {
    PeriodPrefetcher prefetcher(source);
    prefetcher.get(0, 1);
    BOOST_TEST(!source.slow_done.load());  // still loading when the owner goes (an early stop)
    opener = std::thread([&source] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      source.gate_open = true;
    });
  }
  BOOST_TEST(source.slow_done.load());  // joined: no thread outlives the prefetcher or its source
  opener.join();
}

BOOST_AUTO_TEST_CASE(a_period_off_the_schedule_is_loaded_directly_after_the_prefetch_ends) {
  auto direct = make_memory_source(panel(), true, 3, 9);
  ScriptedSource source(make_memory_source(panel(), true, 3, 9));
  source.slow_period = 1;
  PeriodPrefetcher prefetcher(source);
  prefetcher.get(0, 1);
  expect_same(prefetcher.get(3), direct->load_period(3));  // waits for period 1, drops it, loads 3 here
  BOOST_TEST(source.slow_done.load());
  BOOST_TEST((source.loads() == std::vector<int>{0, 1, 3}));
  BOOST_TEST(prefetcher.last_wait_seconds() >= prefetcher.last_load_seconds());
}

BOOST_AUTO_TEST_CASE(the_next_period_follows_the_schedule_and_ends_with_it) {
  JobConfig job = bandit_job();
  bandit_config(job).mode = Mode::Online;
  bandit_config(job).iterations_per_period = 2;
  bandit_config(job).passes = 2;
  // 3 periods × 2 passes × 2 rounds: rounds 1-2 play period 0, ..., 11-12 period 2 of the second pass.
  const std::vector<int> expected = {1, 1, 2, 2, 0, 0, 1, 1, 2, 2, -1, -1};
  for (std::int32_t round = 1; round <= 12; ++round)
    BOOST_TEST(next_period_after(job, 3, round) == expected[static_cast<std::size_t>(round - 1)]);
  bandit_config(job).passes = 1;
  BOOST_TEST(next_period_after(job, 3, 5) == -1);
  bandit_config(job).mode = Mode::Offline;
  bandit_config(job).iterations = 10;
  BOOST_TEST(next_period_after(job, 1, 3) == -1);
}

BOOST_AUTO_TEST_CASE(each_period_knows_whether_it_has_missing_cells) {
  // FitOptions::data_has_missing comes from here: a period with a missing cell routes its trees' NaN by the
  // larger-child rule even where a fit's training rows are complete; a complete period keeps the old trees.
  Dataset data = panel();
  data.X(12, 3) = std::numeric_limits<float>::quiet_NaN();  // period 1 (rows 9 to 20)
  auto source = make_memory_source(std::move(data), true, 2, 5);
  PeriodPrefetcher prefetcher(*source);
  for (int k = 0; k < 4; ++k) {
    prefetcher.get(k, k + 1 < 4 ? k + 1 : -1);
    BOOST_TEST(prefetcher.current_has_missing() == (k == 1));
  }
}

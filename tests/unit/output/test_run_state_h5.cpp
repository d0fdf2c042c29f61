// The bandit's run state in HDF5 (RunResult ↔ checkpoint.h5, methods/bandit/run_result_h5.hpp): round trip, chunked
// trajectory, determinism, read errors and atomic writes.
#include <hdf5.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "methods/bandit/run_result_h5.hpp"
#include "output_test_helpers.hpp"

namespace fs = std::filesystem;
using namespace bfs;
using namespace bfs::test;

namespace {

/// A plausible run: p features, `iterations` rounds, two evaluations per round, truth {0, 2} when `known`.
RunResult make_result(int p, int iterations, bool known) {
  RunResult r;
  r.version = "0.1.0";
  r.policy = "ts";
  r.estimator = "random_forest";
  r.data_origin = "simulate:friedman1";
  r.job_text = "[bandit]\npolicy = \"ts\"\niterations = " + std::to_string(iterations) + "\n";
  r.seed = 18446744073709551557ULL;  // needs all 64 bits
  r.ranks = 4;
  r.threads = 2;
  for (int k = 0; k < p; ++k) {
    r.feature_names.push_back(k == 1 ? "x,1 \"quoted\"" : "x" + std::to_string(k));
    r.alpha.push_back(1.0 + (k % 3 == 0 ? 7.5 : 0.25 * k));
    r.beta.push_back(1.0 + (k % 3 == 0 ? 0.5 : 3.0));
  }
  for (int t = 0; t < iterations; ++t) {
    for (int k = 0; k < p; ++k) r.trajectory.push_back(static_cast<float>((t * 31 + k * 7) % 100) / 100.0f);
    r.iteration_period.push_back(t / 3);
    for (int slot = 0; slot < 2; ++slot) {
      r.evaluations.push_back({t + 1, slot, t / 3, 3 + slot, 0.5 + 0.01 * t - 0.1 * slot, slot + 1});
    }
  }
  for (int k = 0; k < p; ++k) {
    if (r.posterior_mean(k) >= 0.5) r.selected.push_back(k);
  }
  if (known) {
    r.truth = {0, 2};
    r.metrics = {true, 0.25, 0.5, 3, iterations / 2};
  }
  r.iterations = iterations;
  r.stop_reason = "fixed iterations";
  r.timings = {12.5, 8.25, 3.0, 0.5, 0.25, 0.125};
  return r;
}

void check_equal(const RunResult& a, const RunResult& b) {
  BOOST_TEST(a.version == b.version);
  BOOST_TEST(a.method == b.method);
  BOOST_TEST(a.policy == b.policy);
  BOOST_TEST(a.estimator == b.estimator);
  BOOST_TEST(a.data_origin == b.data_origin);
  BOOST_TEST(a.job_text == b.job_text);
  BOOST_TEST(a.seed == b.seed);
  BOOST_TEST(a.ranks == b.ranks);
  BOOST_TEST(a.threads == b.threads);
  BOOST_TEST(a.feature_names == b.feature_names, boost::test_tools::per_element());
  BOOST_TEST(a.alpha == b.alpha, boost::test_tools::per_element());
  BOOST_TEST(a.beta == b.beta, boost::test_tools::per_element());
  BOOST_TEST(a.trajectory == b.trajectory, boost::test_tools::per_element());
  BOOST_TEST(a.iteration_period == b.iteration_period, boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(a.evaluations.size() == b.evaluations.size());
  for (std::size_t i = 0; i < a.evaluations.size(); ++i) {
    BOOST_TEST(a.evaluations[i].iteration == b.evaluations[i].iteration);
    BOOST_TEST(a.evaluations[i].slot == b.evaluations[i].slot);
    BOOST_TEST(a.evaluations[i].period == b.evaluations[i].period);
    BOOST_TEST(a.evaluations[i].arm_size == b.evaluations[i].arm_size);
    BOOST_TEST(a.evaluations[i].test_score == b.evaluations[i].test_score);
    BOOST_TEST(a.evaluations[i].rewards == b.evaluations[i].rewards);
  }
  BOOST_TEST(a.selected == b.selected, boost::test_tools::per_element());
  BOOST_TEST(a.truth == b.truth, boost::test_tools::per_element());
  BOOST_TEST(a.metrics.known == b.metrics.known);
  BOOST_TEST(a.metrics.fdp == b.metrics.fdp);
  BOOST_TEST(a.metrics.power == b.metrics.power);
  BOOST_TEST(a.metrics.hamming == b.metrics.hamming);
  BOOST_TEST(a.metrics.separation_iteration == b.metrics.separation_iteration);
  BOOST_TEST(a.iterations == b.iterations);
  BOOST_TEST(a.stop_reason == b.stop_reason);
  BOOST_TEST(a.timings.wall_seconds == b.timings.wall_seconds);
  BOOST_TEST(a.timings.fit_seconds == b.timings.fit_seconds);
  BOOST_TEST(a.timings.importance_seconds == b.timings.importance_seconds);
  BOOST_TEST(a.timings.split_seconds == b.timings.split_seconds);
  BOOST_TEST(a.timings.data_seconds == b.timings.data_seconds);
  BOOST_TEST(a.timings.policy_seconds == b.timings.policy_seconds);
}

}  // namespace

BOOST_AUTO_TEST_CASE(result_h5_round_trip_keeps_every_field) {
  TempDir tmp;
  for (bool known : {true, false}) {
    const RunResult original = make_result(7, 9, known);
    const std::string path = tmp / (known ? "known.h5" : "unknown.h5");
    write_run_state_h5(original, path);
    BOOST_TEST(!fs::exists(path + ".tmp"));
    const RunResult back = read_run_state_h5(path);
    check_equal(original, back);
    BOOST_TEST((dataset_dims(path, "trajectory") == std::vector<hsize_t>{9, 7}), boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(result_h5_large_trajectory_is_chunked_and_round_trips) {
  TempDir tmp;
  const RunResult original = make_result(700, 450, true);  // 1.26 MB of trajectory: more than one chunk
  write_run_state_h5(original, tmp / "big.h5");
  check_equal(original, read_run_state_h5(tmp / "big.h5"));
}

BOOST_AUTO_TEST_CASE(result_h5_empty_trajectory) {
  TempDir tmp;
  RunResult original = make_result(5, 0, false);
  BOOST_TEST(original.trajectory.empty());
  BOOST_TEST(original.evaluations.empty());
  write_run_state_h5(original, tmp / "empty.h5");
  BOOST_TEST((dataset_dims(tmp / "empty.h5", "trajectory") == std::vector<hsize_t>{0, 5}),
             boost::test_tools::per_element());
  check_equal(original, read_run_state_h5(tmp / "empty.h5"));

  RunResult none;  // no features at all
  write_run_state_h5(none, tmp / "none.h5");
  check_equal(none, read_run_state_h5(tmp / "none.h5"));
}

BOOST_AUTO_TEST_CASE(result_h5_datasets_are_byte_identical_for_identical_results) {
  TempDir tmp;
  const RunResult result = make_result(40, 30, true);
  write_run_state_h5(result, tmp / "a.h5");
  write_run_state_h5(result, tmp / "b.h5");
  const auto a = dataset_bytes(tmp / "a.h5");
  const auto b = dataset_bytes(tmp / "b.h5");
  BOOST_TEST(a.size() == 15u);  // 8 top-level + 7 evaluations datasets (truth included)
  BOOST_TEST(a.count("evaluations/test_score") == 1u);
  BOOST_TEST((a == b));
  // Timings are attributes only: other timings, same dataset bytes.
  RunResult slower = result;
  slower.timings.wall_seconds *= 3.0;
  write_run_state_h5(slower, tmp / "c.h5");
  BOOST_TEST((dataset_bytes(tmp / "c.h5") == a));
}

BOOST_AUTO_TEST_CASE(read_run_state_h5_errors_name_the_file_and_dataset) {
  TempDir tmp;
  const std::string missing = tmp / "nope.h5";
  try {
    read_run_state_h5(missing);
    BOOST_FAIL("expected InputError");
  } catch (const InputError& e) {
    BOOST_TEST(message_contains(e, missing));
  }

  const std::string not_hdf5 = tmp / "text.h5";
  std::ofstream(not_hdf5) << "hello\n";
  BOOST_CHECK_THROW(read_run_state_h5(not_hdf5), InputError);

  for (const char* dataset : {"alpha", "trajectory", "evaluations/test_score"}) {
    const std::string path = tmp / "broken.h5";
    write_run_state_h5(make_result(4, 3, false), path);
    {
      detail::H5Handle file = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
      BOOST_TEST_REQUIRE(H5Ldelete(file.get(), dataset, H5P_DEFAULT) >= 0);
    }
    try {
      read_run_state_h5(path);
      BOOST_FAIL("expected InputError");
    } catch (const InputError& e) {
      BOOST_TEST(message_contains(e, path));
      BOOST_TEST(message_contains(e, std::string("/") + dataset), e.what());
    }
  }
}

BOOST_AUTO_TEST_CASE(run_state_writer_to_an_unwritable_place_throws_and_leaves_no_file) {
  TempDir tmp;
  // A regular file used as a directory: unwritable even for root.
  const std::string blocker = tmp / "blocker";
  std::ofstream(blocker) << "x";
  const RunResult result = make_result(4, 2, true);
  const std::string path = blocker + "/out/result.h5";
  try {
    write_run_state_h5(result, path);
    BOOST_FAIL("expected Error for " << path);
  } catch (const Error& e) {
    BOOST_TEST(message_contains(e, path), e.what());
  }
  BOOST_TEST(!fs::exists(path));
  BOOST_TEST(!fs::exists(path + ".tmp"));

  // The rename fails (the target is a non-empty directory): the tmp file is cleaned up, the target left alone.
  const std::string occupied = tmp / "occupied";
  fs::create_directories(occupied + "/inside");
  BOOST_CHECK_THROW(write_run_state_h5(result, occupied), Error);
  BOOST_TEST(!fs::exists(occupied + ".tmp"));
  BOOST_TEST(fs::is_directory(occupied + "/inside"));
}

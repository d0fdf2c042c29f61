// Output files: result.h5 round trip and determinism, summary.csv, run.json, inspect, atomic writes, read errors,
// and the plotting script.
#include <hdf5.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "output/result_io.hpp"

namespace fs = std::filesystem;
using namespace bfs;

namespace {

/// A fresh directory per test case, removed afterwards.
struct TempDir {
  fs::path dir;
  TempDir() {
    static int counter = 0;
    dir = fs::temp_directory_path() /
          ("banditfs_test_output_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

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

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Raw bytes (in the file's own type) of every dataset in an HDF5 file, by path.
std::map<std::string, std::string> dataset_bytes(const std::string& path) {
  detail::H5Handle file = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  BOOST_TEST_REQUIRE(file.valid());
  std::map<std::string, std::string> out;
  H5Ovisit(
      file.get(), H5_INDEX_NAME, H5_ITER_INC,
      [](hid_t loc, const char* name, const H5O_info_t* info, void* data) -> herr_t {
        if (info->type != H5O_TYPE_DATASET) return 0;
        detail::H5Handle dset = detail::h5_dataset(H5Dopen2(loc, name, H5P_DEFAULT));
        detail::H5Handle type = detail::h5_type(H5Dget_type(dset.get()));
        detail::H5Handle space = detail::h5_space(H5Dget_space(dset.get()));
        const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
        std::string bytes(count * H5Tget_size(type.get()), '\0');
        if (count > 0 && H5Dread(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0) return -1;
        (*static_cast<std::map<std::string, std::string>*>(data))[name] = bytes;
        return 0;
      },
      &out);
  return out;
}

std::vector<hsize_t> dataset_dims(const std::string& path, const char* name) {
  detail::H5Handle file = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  detail::H5Handle dset = detail::h5_dataset(H5Dopen2(file.get(), name, H5P_DEFAULT));
  detail::H5Handle space = detail::h5_space(H5Dget_space(dset.get()));
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

bool message_contains(const std::exception& e, const std::string& part) {
  return std::string(e.what()).find(part) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(result_h5_round_trip_keeps_every_field) {
  TempDir tmp;
  for (bool known : {true, false}) {
    const RunResult original = make_result(7, 9, known);
    const std::string path = tmp / (known ? "known.h5" : "unknown.h5");
    write_result_h5(original, path);
    BOOST_TEST(!fs::exists(path + ".tmp"));
    const RunResult back = read_result_h5(path);
    check_equal(original, back);
    BOOST_TEST((dataset_dims(path, "trajectory") == std::vector<hsize_t>{9, 7}), boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(result_h5_large_trajectory_is_chunked_and_round_trips) {
  TempDir tmp;
  const RunResult original = make_result(700, 450, true);  // 1.26 MB of trajectory: more than one chunk
  write_result_h5(original, tmp / "big.h5");
  check_equal(original, read_result_h5(tmp / "big.h5"));
}

BOOST_AUTO_TEST_CASE(result_h5_empty_trajectory) {
  TempDir tmp;
  RunResult original = make_result(5, 0, false);
  BOOST_TEST(original.trajectory.empty());
  BOOST_TEST(original.evaluations.empty());
  write_result_h5(original, tmp / "empty.h5");
  BOOST_TEST((dataset_dims(tmp / "empty.h5", "trajectory") == std::vector<hsize_t>{0, 5}),
             boost::test_tools::per_element());
  check_equal(original, read_result_h5(tmp / "empty.h5"));

  RunResult none;  // no features at all
  write_result_h5(none, tmp / "none.h5");
  check_equal(none, read_result_h5(tmp / "none.h5"));
}

BOOST_AUTO_TEST_CASE(result_h5_datasets_are_byte_identical_for_identical_results) {
  TempDir tmp;
  const RunResult result = make_result(40, 30, true);
  write_result_h5(result, tmp / "a.h5");
  write_result_h5(result, tmp / "b.h5");
  const auto a = dataset_bytes(tmp / "a.h5");
  const auto b = dataset_bytes(tmp / "b.h5");
  BOOST_TEST(a.size() == 15u);  // 8 top-level + 7 evaluations datasets (truth included)
  BOOST_TEST(a.count("evaluations/test_score") == 1u);
  BOOST_TEST((a == b));
  // Timings are attributes only: other timings, same dataset bytes.
  RunResult slower = result;
  slower.timings.wall_seconds *= 3.0;
  write_result_h5(slower, tmp / "c.h5");
  BOOST_TEST((dataset_bytes(tmp / "c.h5") == a));
}

BOOST_AUTO_TEST_CASE(read_result_h5_errors_name_the_file_and_dataset) {
  TempDir tmp;
  const std::string missing = tmp / "nope.h5";
  try {
    read_result_h5(missing);
    BOOST_FAIL("expected InputError");
  } catch (const InputError& e) {
    BOOST_TEST(message_contains(e, missing));
  }

  const std::string not_hdf5 = tmp / "text.h5";
  std::ofstream(not_hdf5) << "hello\n";
  BOOST_CHECK_THROW(read_result_h5(not_hdf5), InputError);

  for (const char* dataset : {"alpha", "trajectory", "evaluations/test_score"}) {
    const std::string path = tmp / "broken.h5";
    write_result_h5(make_result(4, 3, false), path);
    {
      detail::H5Handle file = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
      BOOST_TEST_REQUIRE(H5Ldelete(file.get(), dataset, H5P_DEFAULT) >= 0);
    }
    try {
      read_result_h5(path);
      BOOST_FAIL("expected InputError");
    } catch (const InputError& e) {
      BOOST_TEST(message_contains(e, path));
      BOOST_TEST(message_contains(e, std::string("/") + dataset), e.what());
    }
  }
}

BOOST_AUTO_TEST_CASE(writers_to_an_unwritable_place_throw_and_leave_no_file) {
  TempDir tmp;
  // A regular file used as a directory: unwritable even for root.
  const std::string blocker = tmp / "blocker";
  std::ofstream(blocker) << "x";
  const RunResult result = make_result(4, 2, true);
  const std::string dir = blocker + "/out";
  const std::pair<std::string, void (*)(const RunResult&, const std::string&)> writers[] = {
      {dir + "/result.h5", write_result_h5},
      {dir + "/summary.csv", write_summary_csv},
      {dir + "/run.json", write_run_json}};
  for (const auto& [path, writer] : writers) {
    try {
      writer(result, path);
      BOOST_FAIL("expected Error for " << path);
    } catch (const Error& e) {
      BOOST_TEST(message_contains(e, path), e.what());
    }
    BOOST_TEST(!fs::exists(path));
    BOOST_TEST(!fs::exists(path + ".tmp"));
  }

  // The rename fails (the target is a non-empty directory): the tmp file is cleaned up, the target left alone.
  const std::string occupied = tmp / "occupied";
  fs::create_directories(occupied + "/inside");
  for (auto writer : {write_result_h5, write_summary_csv, write_run_json}) {
    BOOST_CHECK_THROW(writer(result, occupied), Error);
    BOOST_TEST(!fs::exists(occupied + ".tmp"));
    BOOST_TEST(fs::is_directory(occupied + "/inside"));
  }
}

BOOST_AUTO_TEST_CASE(summary_csv_rows_ranks_and_quoting) {
  TempDir tmp;
  RunResult r;
  r.feature_names = {"a", "b,c", "say \"hi\"", "d", "e"};
  // means: 0.5, 0.9, 0.5, 0.1, 0.9 -> ranks 3, 1, 4, 5, 2 (ties by lower feature index)
  r.alpha = {1, 9, 2, 1, 4.5};
  r.beta = {1, 1, 2, 9, 0.5};
  r.selected = {0, 1, 2, 4};
  write_summary_csv(r, tmp / "summary.csv");
  const std::string expected =
      "feature,name,mean,alpha,beta,selected,rank\n"
      "0,a,0.500000,1,1,1,3\n"
      "1,\"b,c\",0.900000,9,1,1,1\n"
      "2,\"say \"\"hi\"\"\",0.500000,2,2,1,4\n"
      "3,d,0.100000,1,9,0,5\n"
      "4,e,0.900000,4.5,0.5,1,2\n";
  BOOST_TEST(slurp(tmp / "summary.csv") == expected);
  BOOST_TEST(!fs::exists(tmp / "summary.csv.tmp"));
}

BOOST_AUTO_TEST_CASE(run_json_parses_and_has_the_keys) {
  TempDir tmp;
  const RunResult r = make_result(30, 10, true);
  write_run_json(r, tmp / "run.json");
  const auto j = nlohmann::json::parse(slurp(tmp / "run.json"));
  for (const char* key :
       {"version", "method", "policy", "estimator", "data_origin", "seed", "ranks", "threads", "iterations",
        "stop_reason", "num_features", "selected", "timings", "metrics", "top_features"}) {
    BOOST_TEST(j.contains(key), key);
  }
  BOOST_TEST(j["seed"].get<std::uint64_t>() == r.seed);
  BOOST_TEST(j["num_features"].get<int>() == 30);
  BOOST_TEST(j["iterations"].get<int>() == 10);
  BOOST_TEST(j["selected"].size() == r.selected.size());
  BOOST_TEST(j["selected"][0]["feature"].get<int>() == r.selected[0]);
  BOOST_TEST(j["selected"][0]["name"].get<std::string>() == r.feature_names[r.selected[0]]);
  BOOST_TEST(j["timings"]["wall_seconds"].get<double>() == 12.5);
  BOOST_TEST(j["timings"]["per_iteration_seconds"].get<double>() == 1.25);
  BOOST_TEST(j["metrics"]["hamming"].get<int>() == 3);
  BOOST_TEST(j["metrics"]["separation_iteration"].get<int>() == 5);
  BOOST_TEST(j["top_features"].size() == 25u);
  BOOST_TEST(j["top_features"][0]["rank"].get<int>() == 1);
  // Descending means in the top list.
  for (std::size_t i = 1; i < j["top_features"].size(); ++i) {
    BOOST_TEST(j["top_features"][i - 1]["mean"].get<double>() >= j["top_features"][i]["mean"].get<double>());
  }

  RunResult unknown = make_result(3, 2, false);
  write_run_json(unknown, tmp / "run2.json");
  const auto j2 = nlohmann::json::parse(slurp(tmp / "run2.json"));
  BOOST_TEST(!j2.contains("metrics"));
  BOOST_TEST(j2["top_features"].size() == 3u);
}

BOOST_AUTO_TEST_CASE(inspection_reports_facts_and_top_features) {
  const RunResult r = make_result(30, 10, true);
  std::ostringstream out;
  print_inspection(r, out, 5);
  const std::string text = out.str();
  for (const char* part : {"simulate:friedman1", "random_forest", "ts", "18446744073709551557", "fixed iterations",
                           "FDP 0.250", "power 0.500", "top 5 of 30", "x0", "*", "T"}) {
    BOOST_TEST(text.find(part) != std::string::npos, "missing '" << part << "' in:\n" << text);
  }
  std::ostringstream none;
  print_inspection(RunResult{}, none);
  BOOST_TEST(none.str().find("features      0") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(plot_script_draws_a_png) {
  if (std::system("/usr/bin/python3 -c 'import h5py, matplotlib' >/dev/null 2>&1") != 0) {
    BOOST_TEST_MESSAGE("skipped: /usr/bin/python3 lacks h5py or matplotlib");
    return;
  }
  TempDir tmp;
  for (bool known : {true, false}) {
    const std::string h5 = tmp / "result.h5";
    const std::string png = tmp / (known ? "known.png" : "unknown.png");
    write_result_h5(make_result(60, 40, known), h5);
    const std::string command = std::string("/usr/bin/python3 ") + BANDITFS_SOURCE_DIR +
                                "/scripts/plot_trajectories.py '" + h5 + "' '" + png + "' --top 10 --title test";
    BOOST_TEST(std::system(command.c_str()) == 0, command);
    BOOST_TEST(fs::exists(png));
    BOOST_TEST((fs::exists(png) && fs::file_size(png) > 1000u));
  }
}

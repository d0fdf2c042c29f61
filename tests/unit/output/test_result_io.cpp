// result.h5 from the method-neutral result: round trip (own datasets with their dtype and shape, facts, feature
// columns), the layout rule, old-layout files, atomic writes and read errors. The reports written from a result
// (summary.csv, run.json, inspect, the plotting script) are tested in test_result_reports.cpp.
#include <hdf5.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <variant>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "methods/bandit/run_result_h5.hpp"
#include "output/result_io.hpp"
#include "output_test_helpers.hpp"
#include "sample_method_result.hpp"

namespace fs = std::filesystem;
using namespace bfs;
using namespace bfs::test;

namespace {

const MethodDataset& find_dataset(const MethodResult& r, const std::string& name) {
  const MethodDataset* d = r.dataset(name);
  BOOST_TEST_REQUIRE(d != nullptr, "missing dataset " << name);
  return *d;
}

std::map<std::string, MethodFact::Value> facts_by_name(const MethodResult& r) {
  std::map<std::string, MethodFact::Value> out;
  for (const auto& f : r.facts) out[f.name] = f.value;
  return out;
}

/// Everything write_result_h5 stores (manifest_json is run.json's only) comes back identical.
void check_equal(const MethodResult& a, const MethodResult& b) {
  BOOST_TEST(a.method == b.method);
  BOOST_TEST(a.version == b.version);
  BOOST_TEST(a.task == b.task);
  BOOST_TEST(a.data_origin == b.data_origin);
  BOOST_TEST(a.job_text == b.job_text);
  BOOST_TEST(a.seed == b.seed);
  BOOST_TEST(a.ranks == b.ranks);
  BOOST_TEST(a.threads == b.threads);
  BOOST_TEST(a.iterations == b.iterations);
  BOOST_TEST(a.stop_reason == b.stop_reason);
  BOOST_TEST(a.importance_meaning == b.importance_meaning);
  BOOST_TEST(a.feature_names == b.feature_names, boost::test_tools::per_element());
  BOOST_TEST(a.importance == b.importance, boost::test_tools::per_element());
  BOOST_TEST(a.selected == b.selected, boost::test_tools::per_element());
  BOOST_TEST(a.rank == b.rank, boost::test_tools::per_element());
  BOOST_TEST(a.trajectory == b.trajectory, boost::test_tools::per_element());
  BOOST_TEST(a.truth == b.truth, boost::test_tools::per_element());
  BOOST_TEST(a.metrics.known == b.metrics.known);
  BOOST_TEST(a.metrics.fdp == b.metrics.fdp);
  BOOST_TEST(a.metrics.power == b.metrics.power);
  BOOST_TEST(a.metrics.hamming == b.metrics.hamming);
  BOOST_TEST(a.metrics.separation_iteration == b.metrics.separation_iteration);
  BOOST_TEST(a.feature_columns == b.feature_columns, boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(a.timings.size() == b.timings.size());
  for (const auto& [name, seconds] : a.timings) BOOST_TEST(b.timing(name) == seconds, name);
  BOOST_TEST(b.timings.front().first == "wall_seconds");
  BOOST_TEST_REQUIRE(a.datasets.size() == b.datasets.size());
  for (const MethodDataset& d : a.datasets) {
    const MethodDataset& e = find_dataset(b, d.name);
    BOOST_TEST((d.values == e.values), d.name);
    BOOST_TEST(d.shape == e.shape, boost::test_tools::per_element());
  }
  BOOST_TEST((facts_by_name(a) == facts_by_name(b)));
}

}  // namespace

BOOST_AUTO_TEST_CASE(result_h5_round_trip_keeps_datasets_shapes_and_facts) {
  TempDir tmp;
  for (bool known : {true, false}) {
    const MethodResult original = make_method_result(7, 9, known);
    const std::string path = tmp / (known ? "known.h5" : "unknown.h5");
    write_result_h5(original, path);
    BOOST_TEST(!fs::exists(path + ".tmp"));
    const MethodResult back = read_result_h5(path);
    check_equal(original, back);
    // The layout rule: neutral datasets at the root, the method's own in /bandit (subgroups for '/').
    const auto bytes = dataset_bytes(path);
    for (const char* name : {"feature_names", "importance", "selected", "rank", "trajectory", "bandit/alpha",
                             "bandit/count", "bandit/table", "bandit/pairs", "bandit/labels",
                             "bandit/evaluations/test_score", "bandit/evaluations/deep/arm_size"}) {
      BOOST_TEST(bytes.count(name) == 1u, name);
    }
    BOOST_TEST(bytes.count("truth") == (known ? 1u : 0u));
    BOOST_TEST(bytes.size() == (known ? 13u : 12u));
    BOOST_TEST((dataset_dims(path, "trajectory") == std::vector<hsize_t>{9, 7}), boost::test_tools::per_element());
    BOOST_TEST((dataset_dims(path, "bandit/table") == std::vector<hsize_t>{3, 2}), boost::test_tools::per_element());
    BOOST_TEST((dataset_dims(path, "bandit/pairs") == std::vector<hsize_t>{2, 2, 2}), boost::test_tools::per_element());
    // Facts are attributes of the group, or of the subgroup named before the last '/'.
    detail::H5Handle file = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    BOOST_TEST(H5Aexists_by_name(file.get(), "bandit", "policy", H5P_DEFAULT) > 0);
    BOOST_TEST(H5Aexists_by_name(file.get(), "bandit", "feature_columns", H5P_DEFAULT) > 0);
    BOOST_TEST(H5Aexists_by_name(file.get(), "bandit/evaluations", "metric", H5P_DEFAULT) > 0);
    BOOST_TEST(H5Aexists_by_name(file.get(), "bandit/tuning", "chosen", H5P_DEFAULT) > 0);
    BOOST_TEST(H5Aexists_by_name(file.get(), ".", "importance_meaning", H5P_DEFAULT) > 0);
    BOOST_TEST(H5Aexists_by_name(file.get(), ".", "bytes_sent", H5P_DEFAULT) > 0);
  }
}

BOOST_AUTO_TEST_CASE(result_h5_without_trajectory_or_own_data) {
  TempDir tmp;
  MethodResult r = make_method_result(5, 0, false);
  BOOST_TEST(r.trajectory.empty());
  write_result_h5(r, tmp / "no_trajectory.h5");
  BOOST_TEST(dataset_bytes(tmp / "no_trajectory.h5").count("trajectory") == 0u);
  check_equal(r, read_result_h5(tmp / "no_trajectory.h5"));

  // A bare method: no datasets, facts or columns; its group exists anyway.
  MethodResult bare;
  bare.method = "first";
  bare.feature_names = {"a", "b"};
  bare.importance = {0.0, 1.0};
  bare.selected = {1};
  write_result_h5(bare, tmp / "bare.h5");
  const MethodResult back = read_result_h5(tmp / "bare.h5");
  BOOST_TEST(back.method == "first");
  BOOST_TEST((back.rank == std::vector<std::int32_t>{2, 1}), boost::test_tools::per_element());  // computed
  BOOST_TEST(back.datasets.empty());
  BOOST_TEST(back.facts.empty());
  BOOST_TEST(back.feature_columns.empty());
  detail::H5Handle file = detail::h5_file(H5Fopen((tmp / "bare.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  BOOST_TEST(H5Lexists(file.get(), "first", H5P_DEFAULT) > 0);
}

BOOST_AUTO_TEST_CASE(a_method_may_name_its_group_shorter) {
  TempDir tmp;
  MethodResult r = make_method_result(4, 0, false);
  r.method = "cmab-scores";
  r.group = "cmab";
  write_result_h5(r, tmp / "group.h5");
  const auto bytes = dataset_bytes(tmp / "group.h5");
  BOOST_TEST(bytes.count("cmab/alpha") == 1u);
  BOOST_TEST(bytes.count("cmab-scores/alpha") == 0u);
  const MethodResult back = read_result_h5(tmp / "group.h5");
  BOOST_TEST(back.group == "cmab");
  check_equal(r, back);
  MethodResult plain = make_method_result(4, 0, false);
  write_result_h5(plain, tmp / "plain.h5");
  BOOST_TEST(read_result_h5(tmp / "plain.h5").own_group() == plain.method);  // no attribute: the method's name
}

BOOST_AUTO_TEST_CASE(method_result_h5_datasets_are_byte_identical_for_identical_results) {
  TempDir tmp;
  const MethodResult r = make_method_result(40, 30, true);
  write_result_h5(r, tmp / "a.h5");
  write_result_h5(r, tmp / "b.h5");
  const auto a = dataset_bytes(tmp / "a.h5");
  BOOST_TEST((a == dataset_bytes(tmp / "b.h5")));
  MethodResult slower = r;  // timings are attributes only
  slower.timings[0].second *= 3.0;
  write_result_h5(slower, tmp / "c.h5");
  BOOST_TEST((dataset_bytes(tmp / "c.h5") == a));
}

BOOST_AUTO_TEST_CASE(inconsistent_results_throw_and_leave_no_file) {
  TempDir tmp;
  using Writer = void (*)(const MethodResult&, const std::string&);
  const std::pair<const char*, Writer> writers[] = {
      {"result.h5", write_result_h5}, {"summary.csv", write_summary_csv}, {"run.json", write_run_json}};
  auto expect_error = [&](const MethodResult& r, const std::string& part, bool h5_only) {
    for (const auto& [name, writer] : writers) {
      if (h5_only && writer != write_result_h5) continue;
      const std::string path = tmp / name;
      try {
        writer(r, path);
        BOOST_FAIL("expected Error for " << path << " (" << part << ")");
      } catch (const Error& e) {
        BOOST_TEST(message_contains(e, path), e.what());
        BOOST_TEST(message_contains(e, part), e.what());
      }
      BOOST_TEST(!fs::exists(path));
      BOOST_TEST(!fs::exists(path + ".tmp"));
    }
  };
  MethodResult r = make_method_result(6, 3, true);
  r.importance.pop_back();
  expect_error(r, "importance has 5 values", false);
  r = make_method_result(6, 3, true);
  r.rank.push_back(7);
  expect_error(r, "rank has 7 values", false);
  r = make_method_result(6, 3, true);
  r.datasets[1].values = std::vector<std::int32_t>{1, 2};
  expect_error(r, "feature column 'count'", false);
  r = make_method_result(6, 3, true);
  r.feature_columns.push_back("nope");
  expect_error(r, "feature column 'nope'", false);
  r = make_method_result(6, 3, true);
  r.selected.push_back(6);
  expect_error(r, "selected feature 6", false);
  r = make_method_result(6, 3, true);
  r.trajectory.pop_back();
  expect_error(r, "trajectory has 17 values", true);
  r = make_method_result(6, 3, true);
  r.datasets[2].shape = {4, 2};
  expect_error(r, "bandit/table has 6 values", true);
  r = make_method_result(6, 3, true);
  r.datasets.push_back({"alpha/x", std::vector<double>{1.0}, {}});
  expect_error(r, "'alpha' of method bandit is both a dataset and a group", true);
  r = make_method_result(6, 3, true);
  r.method = "";
  expect_error(r, "method name", true);
  r = make_method_result(6, 3, true);
  r.timings.push_back({"wall", 1.0});
  expect_error(r, "timing 'wall'", true);
}

BOOST_AUTO_TEST_CASE(writers_to_an_unwritable_place_throw_and_leave_no_file) {
  TempDir tmp;
  const std::string blocker = tmp / "blocker";  // a regular file used as a directory: unwritable even for root
  std::ofstream(blocker) << "x";
  const MethodResult r = make_method_result(4, 2, true);
  const std::string dir = blocker + "/out";
  using Writer = void (*)(const MethodResult&, const std::string&);
  const std::pair<std::string, Writer> writers[] = {{dir + "/result.h5", write_result_h5},
                                                    {dir + "/summary.csv", write_summary_csv},
                                                    {dir + "/run.json", write_run_json}};
  for (const auto& [path, writer] : writers) {
    try {
      writer(r, path);
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
  for (const auto& [path, writer] : writers) {
    BOOST_CHECK_THROW(writer(r, occupied), Error);
    BOOST_TEST(!fs::exists(occupied + ".tmp"));
    BOOST_TEST(fs::is_directory(occupied + "/inside"));
  }
}

BOOST_AUTO_TEST_CASE(read_result_h5_errors_name_the_file_and_dataset) {
  TempDir tmp;
  const std::string missing = tmp / "nope.h5";
  try {
    read_result_h5(missing);
    BOOST_FAIL("expected InputError");
  } catch (const InputError& e) {
    BOOST_TEST(message_contains(e, missing), e.what());
  }
  const std::string not_hdf5 = tmp / "text.h5";
  std::ofstream(not_hdf5) << "hello\n";
  try {
    read_result_h5(not_hdf5);
    BOOST_FAIL("expected InputError");
  } catch (const InputError& e) {
    BOOST_TEST(message_contains(e, not_hdf5), e.what());
  }
  for (const char* dataset : {"rank", "feature_names", "bandit/alpha", "bandit"}) {
    const std::string path = tmp / "broken.h5";
    write_result_h5(make_method_result(4, 3, false), path);
    {
      detail::H5Handle file = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
      BOOST_TEST_REQUIRE(H5Ldelete(file.get(), dataset, H5P_DEFAULT) >= 0);
    }
    try {
      read_result_h5(path);
      BOOST_FAIL("expected InputError for a missing " << dataset);
    } catch (const InputError& e) {
      BOOST_TEST(message_contains(e, path), e.what());
      BOOST_TEST(message_contains(e, std::string("/") + dataset), e.what());
    }
  }
}

BOOST_AUTO_TEST_CASE(old_layout_reads_as_the_bandit) {
  TempDir tmp;
  // The bandit's run state is the bandit-only layout of result.h5.
  RunResult old;
  old.version = "0.0.9";
  old.policy = "ts";
  old.estimator = "gbm";
  old.data_origin = "simulate:friedman1";
  old.seed = 7;
  old.feature_names = {"a", "b", "c"};
  old.alpha = {1.0, 9.0, 2.5};
  old.beta = {1.0, 1.0, 7.5};
  old.trajectory = {0.5f, 0.5f, 0.5f, 0.5f, 0.9f, 0.25f};
  old.iteration_period = {0, 0};
  old.evaluations = {{1, 0, 0, 2, 0.75, 1, 1}, {2, 0, 0, 2, 0.5, 2, 1}};
  old.selected = {0, 1};
  old.truth = {1};
  old.metrics = {true, 0.5, 1.0, 1, -1};
  old.iterations = 2;
  old.stop_reason = "fixed iterations";
  old.timings.wall_seconds = 4.0;
  old.timings.fit_seconds = 1.5;
  write_run_state_h5(old, tmp / "old.h5");

  const MethodResult r = read_result_h5(tmp / "old.h5");
  BOOST_TEST(r.method == "bandit");
  BOOST_TEST(r.importance_meaning == "posterior mean");
  BOOST_TEST(r.version == "0.0.9");
  BOOST_TEST(r.seed == 7u);
  BOOST_TEST((r.importance == std::vector<double>{0.5, 0.9, 0.25}), boost::test_tools::per_element());
  BOOST_TEST((r.rank == std::vector<std::int32_t>{2, 1, 3}), boost::test_tools::per_element());
  BOOST_TEST((r.selected == std::vector<FeatureId>{0, 1}), boost::test_tools::per_element());
  BOOST_TEST((r.truth == std::vector<FeatureId>{1}), boost::test_tools::per_element());
  BOOST_TEST(r.metrics.known);
  BOOST_TEST(r.metrics.fdp == 0.5);
  BOOST_TEST(r.trajectory == old.trajectory, boost::test_tools::per_element());
  BOOST_TEST((r.feature_columns == std::vector<std::string>{"alpha", "beta"}), boost::test_tools::per_element());
  BOOST_TEST((std::get<std::vector<double>>(find_dataset(r, "alpha").values) == old.alpha));
  BOOST_TEST((std::get<std::vector<double>>(find_dataset(r, "beta").values) == old.beta));
  BOOST_TEST((std::get<std::vector<std::int32_t>>(find_dataset(r, "iteration_period").values) == old.iteration_period));
  BOOST_TEST((std::get<std::vector<double>>(find_dataset(r, "evaluations/test_score").values) ==
              std::vector<double>{0.75, 0.5}));
  BOOST_TEST(r.dataset("posterior_mean") == nullptr);
  const auto facts = facts_by_name(r);
  BOOST_TEST((facts.at("policy") == MethodFact::Value{std::string("ts")}));
  BOOST_TEST((facts.at("estimator") == MethodFact::Value{std::string("gbm")}));
  BOOST_TEST((facts.at("evaluations/metric") == MethodFact::Value{std::string("r2")}));
  BOOST_TEST(r.timing("wall_seconds") == 4.0);
  BOOST_TEST(r.timing("fit_seconds") == 1.5);
  BOOST_TEST(r.timings.front().first == "wall_seconds");

  // Every output works on it, and it writes back in the new layout.
  std::ostringstream out;
  print_inspection(r, out);
  BOOST_TEST(out.str().find("method        bandit, policy ts, estimator gbm") != std::string::npos, out.str());
  write_summary_csv(r, tmp / "summary.csv");
  BOOST_TEST(slurp(tmp / "summary.csv") ==
             "feature,name,importance,selected,rank,alpha,beta\n"
             "0,a,0.500000,1,2,1,1\n"
             "1,b,0.900000,1,1,9,1\n"
             "2,c,0.250000,0,3,2.5,7.5\n");
  write_result_h5(r, tmp / "new.h5");
  check_equal(r, read_result_h5(tmp / "new.h5"));
}

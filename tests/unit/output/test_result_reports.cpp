// The reports written from a method-neutral result: summary.csv (ranks, quoting, feature columns), run.json (the
// method's object, top features), the inspect text and the plotting script.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "methods/bandit/run_result_h5.hpp"
#include "output/result_io.hpp"
#include "output_test_helpers.hpp"
#include "sample_method_result.hpp"

namespace fs = std::filesystem;
using namespace bfs;
using namespace bfs::test;

BOOST_AUTO_TEST_CASE(summary_csv_rows_ranks_quoting_and_feature_columns) {
  TempDir tmp;
  MethodResult r;
  r.method = "first";
  r.feature_names = {"a", "b,c", "say \"hi\""};
  r.importance = {0.5, 0.9, 0.5};  // ranks 2, 1, 3 (ties by lower feature index)
  r.selected = {1};
  r.datasets = {{"step", std::vector<std::int32_t>{2, 1, -1}, {}},
                {"score", std::vector<float>{0.1f, 2.5f, 1e-7f}, {}},
                {"gain", std::vector<double>{0.1, 1.0 / 3.0, 4.5}, {}}};
  r.feature_columns = {"step", "score", "gain"};
  write_summary_csv(r, tmp / "summary.csv");
  const std::string expected =
      "feature,name,importance,selected,rank,step,score,gain\n"
      "0,a,0.500000,0,2,2,0.1,0.1\n"
      "1,\"b,c\",0.900000,1,1,1,2.5,0.3333333333333333\n"
      "2,\"say \"\"hi\"\"\",0.500000,0,3,-1,1e-07,4.5\n";
  BOOST_TEST(slurp(tmp / "summary.csv") == expected);
  BOOST_TEST(!fs::exists(tmp / "summary.csv.tmp"));

  // An explicit rank is used as given.
  r.rank = {1, 3, 2};
  write_summary_csv(r, tmp / "ranked.csv");
  BOOST_TEST(slurp(tmp / "ranked.csv").find("0,a,0.500000,0,1,") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(run_json_parses_and_has_the_method_object) {
  TempDir tmp;
  const MethodResult r = make_method_result(30, 10, true);
  write_run_json(r, tmp / "run.json");
  const std::string text = slurp(tmp / "run.json");
  const auto j = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  const std::vector<std::string> expected = {"version",      "method",      "task",       "data_origin", "seed",
                                             "ranks",        "threads",     "iterations", "stop_reason", "num_features",
                                             "num_selected", "selected",    "timings",    "metrics",     "truth",
                                             "bandit",       "top_features"};
  BOOST_TEST(keys == expected, boost::test_tools::per_element());
  BOOST_TEST(j["method"].get<std::string>() == "bandit");
  BOOST_TEST(j["seed"].get<std::uint64_t>() == r.seed);
  BOOST_TEST(j["num_features"].get<int>() == 30);
  BOOST_TEST(j["selected"].size() == r.selected.size());
  BOOST_TEST(j["selected"][0]["feature"].get<int>() == r.selected[0]);
  BOOST_TEST(j["selected"][0]["name"].get<std::string>() == r.feature_names[r.selected[0]]);
  BOOST_TEST(j["selected"][0]["importance"].get<double>() == r.importance[r.selected[0]]);
  BOOST_TEST(j["timings"]["wall_seconds"].get<double>() == 12.5);
  BOOST_TEST(j["timings"]["bytes_sent"].get<double>() == 1024.0);
  BOOST_TEST(j["timings"]["per_iteration_seconds"].get<double>() == 1.25);
  BOOST_TEST(j["metrics"]["hamming"].get<int>() == 3);
  BOOST_TEST(j["metrics"]["separation_iteration"].get<int>() == 5);
  // The method's object: facts without '/', then the manifest's keys (which win).
  const auto& m = j["bandit"];
  BOOST_TEST(m["policy"].get<std::string>() == "ttts");
  BOOST_TEST(m["estimator"].get<std::string>() == "random_forest");
  BOOST_TEST(m["noise_variance"].get<double>() == 0.25);
  BOOST_TEST(m["num_evaluations"].get<int>() == 24);
  BOOST_TEST(m["tuning"]["period"].get<int>() == 0);
  BOOST_TEST(!m.contains("evaluations/metric"));
  // Top features in rank order with the feature columns.
  BOOST_TEST(j["top_features"].size() == 25u);
  for (std::size_t i = 0; i < j["top_features"].size(); ++i) {
    const auto& row = j["top_features"][i];
    BOOST_TEST(row["rank"].get<std::size_t>() == i + 1);
    const auto k = row["feature"].get<std::size_t>();
    BOOST_TEST(row["importance"].get<double>() == r.importance[k]);
    BOOST_TEST(row["alpha"].get<double>() == 1.0 + 0.5 * static_cast<double>(k));
    BOOST_TEST(row["count"].get<int>() == 10 * static_cast<int>(k));
    BOOST_TEST(row.contains("true"));
  }

  MethodResult plain = make_method_result(3, 2, false);
  plain.manifest_json.clear();
  write_run_json(plain, tmp / "run2.json");
  const auto j2 = nlohmann::json::parse(slurp(tmp / "run2.json"));
  BOOST_TEST(!j2.contains("metrics"));
  BOOST_TEST(j2["bandit"]["num_evaluations"].get<int>() == 3);
  BOOST_TEST(j2["top_features"].size() == 3u);

  plain.manifest_json = "[1, 2]";
  BOOST_CHECK_THROW(write_run_json(plain, tmp / "run3.json"), Error);
  BOOST_TEST(!fs::exists(tmp / "run3.json"));
}

BOOST_AUTO_TEST_CASE(inspection_reports_facts_and_top_features_in_rank_order) {
  const MethodResult r = make_method_result(30, 10, true);
  std::ostringstream out;
  print_inspection(r, out, 5);
  const std::string text = out.str();
  for (const char* part :
       {"simulate:friedman1", "method        bandit, policy ttts, estimator random_forest", "noise_variance 0.25",
        "18446744073709551557", "fixed iterations", "FDP 0.250", "power 0.500",
        "top 5 of 30 features by posterior mean", "posterior mean", "alpha", "count", "fit 8.250 s", "*", "T"}) {
    BOOST_TEST(text.find(part) != std::string::npos, "missing '" << part << "' in:\n" << text);
  }
  // importance 0.9 - 0.01k for k = 0, 3, 6, ...: the top five are x0, x3, x6, x9, x12, in that order, each with
  // its alpha (1 + 0.5k) and count (10k).
  std::size_t at = 0;
  for (int k : {0, 3, 6, 9, 12}) {
    const std::string name = " x" + std::to_string(k) + " ";
    const auto pos = text.find(name, at);
    BOOST_TEST_REQUIRE(pos != std::string::npos, "missing or out of order: " << name << " in:\n" << text);
    const std::string line = text.substr(pos, text.find('\n', pos) - pos);
    char alpha[32], count[32];
    std::snprintf(alpha, sizeof(alpha), " %.4g ", 1.0 + 0.5 * k);
    std::snprintf(count, sizeof(count), " %d ", 10 * k);
    BOOST_TEST(line.find(alpha) != std::string::npos, line);
    BOOST_TEST(line.find(count) != std::string::npos, line);
    at = pos + 1;
  }
  BOOST_TEST(text.find(" x1 ") == std::string::npos);

  std::ostringstream none;
  print_inspection(MethodResult{}, none);
  BOOST_TEST(none.str().find("features      0") != std::string::npos);

  MethodResult broken = r;
  broken.importance.pop_back();
  std::ostringstream bad;
  print_inspection(broken, bad);
  BOOST_TEST(bad.str().find("no feature table") != std::string::npos, bad.str());
}

BOOST_AUTO_TEST_CASE(plot_script_draws_a_png) {
  if (std::system("/usr/bin/python3 -c 'import h5py, matplotlib' >/dev/null 2>&1") != 0) {
    BOOST_TEST_MESSAGE("skipped: /usr/bin/python3 lacks h5py or matplotlib");
    return;
  }
  TempDir tmp;
  auto draw = [&](const std::string& h5, const std::string& png) {
    const std::string command = std::string("/usr/bin/python3 ") + BANDITFS_SOURCE_DIR +
                                "/scripts/plot_trajectories.py '" + h5 + "' '" + png + "' --top 10 --title test";
    BOOST_TEST(std::system(command.c_str()) == 0, command);
    BOOST_TEST((fs::exists(png) && fs::file_size(png) > 1000u), png);
  };
  for (bool known : {true, false}) {
    const std::string h5 = tmp / (known ? "known.h5" : "unknown.h5");
    write_result_h5(make_method_result(60, 40, known), h5);
    draw(h5, tmp / (known ? "known.png" : "unknown.png"));
  }
  MethodResult flat = make_method_result(20, 0, false);  // no trajectory: the bar chart alone
  write_result_h5(flat, tmp / "flat.h5");
  draw(tmp / "flat.h5", tmp / "flat.png");
  // A file of the bandit-only layout.
  RunResult old;
  old.feature_names = {"a", "b", "c"};
  old.alpha = {1.0, 9.0, 2.5};
  old.beta = {1.0, 1.0, 7.5};
  old.trajectory = {0.5f, 0.5f, 0.5f, 0.5f, 0.9f, 0.25f};
  old.selected = {1};
  old.iterations = 2;
  write_run_state_h5(old, tmp / "old.h5");
  draw(tmp / "old.h5", tmp / "old.png");
}

BOOST_AUTO_TEST_CASE(missing_counts_reach_summary_csv_run_json_and_result_h5) {
  TempDir tmp;
  MethodResult r;
  r.method = "first";
  r.feature_names = {"a", "g"};
  r.importance = {0.5, 0.9};
  r.missing = {3, 0};
  r.rows_without_target = 2;
  write_summary_csv(r, tmp / "summary.csv");
  BOOST_TEST(slurp(tmp / "summary.csv") == "feature,name,importance,selected,rank,missing\n"
                                            "0,a,0.500000,0,2,3\n"
                                            "1,g,0.900000,0,1,0\n");
  write_run_json(r, tmp / "run.json");
  const auto j = nlohmann::json::parse(slurp(tmp / "run.json"));
  BOOST_TEST(j["missing"].size() == 2);
  BOOST_TEST(j["missing"][0]["name"].get<std::string>() == "a");
  BOOST_TEST(j["missing"][0]["missing"].get<int>() == 3);
  BOOST_TEST(j["rows_without_target"].get<int>() == 2);
  BOOST_TEST(j["top_features"][0]["missing"].get<int>() == 0);
  write_result_h5(r, tmp / "result.h5");
  const MethodResult back = read_result_h5(tmp / "result.h5");
  BOOST_TEST(back.missing == r.missing, boost::test_tools::per_element());
  BOOST_TEST(back.rows_without_target == 2);
  // Not counted (simulated data): no column, no key, no dataset.
  r.missing.clear();
  r.rows_without_target = 0;
  write_summary_csv(r, tmp / "plain.csv");
  BOOST_TEST(slurp(tmp / "plain.csv").rfind("feature,name,importance,selected,rank\n", 0) == 0);
  write_result_h5(r, tmp / "plain.h5");
  BOOST_TEST(read_result_h5(tmp / "plain.h5").missing.empty());
  r.missing = {1};
  BOOST_CHECK_THROW(write_summary_csv(r, tmp / "bad.csv"), Error);
}

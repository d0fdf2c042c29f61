// The neutral interval (importance_lo/hi) and the summary of R runs (/stability) in every output: result.h5 round
// trip and layout, summary.csv columns, run.json, inspect; and results without them keep their old outputs.
#include <hdf5.h>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "output/result_io.hpp"
#include "output_test_helpers.hpp"
#include "sample_method_result.hpp"

using namespace bfs;
using namespace bfs::test;

namespace {

/// The sample result with an interval at level 0.8 and a summary of 3 runs (seeds 4, 5, 9).
MethodResult with_interval_and_stability(int p) {
  MethodResult r = make_method_result(p, 0, true);
  r.interval_level = 0.8;
  StabilitySummary& s = r.stability;
  s.runs = 3;
  s.threshold = 0.6;
  for (int k = 0; k < p; ++k) {
    r.importance_lo.push_back(r.importance[k] * 0.5);
    r.importance_hi.push_back(r.importance[k] + 0.125);
    for (auto& [name, column] : s.columns()) column->push_back(0.25 * k + static_cast<double>(name.size()));
  }
  s.run_sources = {"a/result.h5", "b/result.h5", "c/result.h5"};
  s.run_seeds = {4, 5, 9};
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(interval_and_stability_round_trip_at_the_root_and_in_group_stability) {
  TempDir tmp;
  const MethodResult r = with_interval_and_stability(5);
  const std::string path = tmp / "result.h5";
  write_result_h5(r, path);
  const auto bytes = dataset_bytes(path);
  for (const char* name :
       {"importance_lo", "importance_hi", "stability/selection_frequency", "stability/importance_mean",
        "stability/importance_sd", "stability/importance_q05", "stability/importance_q50", "stability/importance_q95",
        "stability/rank_mean", "stability/rank_sd", "stability/seeds"})
    BOOST_TEST(bytes.count(name) == 1u, name);
  const MethodResult back = read_result_h5(path);
  BOOST_TEST(back.importance_lo == r.importance_lo);
  BOOST_TEST(back.importance_hi == r.importance_hi);
  BOOST_TEST(back.interval_level == 0.8);
  BOOST_TEST(back.stability.runs == 3);
  BOOST_TEST(back.stability.threshold == 0.6);
  BOOST_TEST(back.stability.run_seeds == r.stability.run_seeds);
  for (std::size_t c = 0; c < r.stability.columns().size(); ++c)
    BOOST_TEST(*back.stability.columns()[c].second == *r.stability.columns()[c].second);
  BOOST_TEST(back.datasets.size() == r.datasets.size());  // /stability is not read as the method's own
}

BOOST_AUTO_TEST_CASE(a_single_run_has_neither_interval_nor_stability) {
  TempDir tmp;
  write_result_h5(make_method_result(4, 2, false), tmp / "result.h5");
  const auto bytes = dataset_bytes(tmp / "result.h5");
  BOOST_TEST(bytes.count("importance_lo") == 0u);
  BOOST_TEST(bytes.count("stability/selection_frequency") == 0u);
  const MethodResult back = read_result_h5(tmp / "result.h5");
  BOOST_TEST(back.importance_lo.empty());
  BOOST_TEST(back.stability.empty());
  write_summary_csv(back, tmp / "summary.csv");
  BOOST_TEST(slurp(tmp / "summary.csv").rfind("feature,name,importance,selected,rank,alpha,count\n", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(summary_csv_and_run_json_add_the_neutral_columns_before_the_methods) {
  TempDir tmp;
  const MethodResult r = with_interval_and_stability(3);
  write_summary_csv(r, tmp / "summary.csv");
  std::istringstream csv(slurp(tmp / "summary.csv"));
  std::string header, row0;
  std::getline(csv, header);
  std::getline(csv, row0);
  BOOST_TEST(header ==
             "feature,name,importance,selected,rank,importance_lo,importance_hi,selection_frequency,importance_mean,"
             "importance_sd,importance_q05,importance_q50,importance_q95,rank_mean,rank_sd,alpha,count");
  // x0: importance 0.9, lo 0.45, hi 1.025; frequency = 0.25·0 + len("selection_frequency") = 19
  BOOST_TEST(row0 == "0,x0,0.900000,1,1,0.45,1.025,19,15,13,14,14,14,9,7,1,0");

  write_run_json(r, tmp / "run.json");
  const auto j = nlohmann::json::parse(slurp(tmp / "run.json"));
  BOOST_TEST(j["interval"].get<double>() == 0.8);
  BOOST_TEST(j["stability"]["runs"].get<int>() == 3);
  BOOST_TEST(j["stability"]["threshold"].get<double>() == 0.6);
  BOOST_TEST(j["stability"]["sources"][2]["result"].get<std::string>() == "c/result.h5");
  BOOST_TEST(j["stability"]["sources"][2]["seed"].get<int>() == 9);
  BOOST_TEST(j["top_features"][0]["importance_lo"].get<double>() == 0.45);
  BOOST_TEST(j["top_features"][0]["selection_frequency"].get<double>() == 19.0);

  std::ostringstream text;
  print_inspection(r, text, 3);
  BOOST_TEST(text.str().find("interval      level 0.8") != std::string::npos);
  BOOST_TEST(text.str().find("stability     3 runs; selected: frequency >= 0.6") != std::string::npos);
  BOOST_TEST(text.str().find("frequency") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(inconsistent_interval_or_summary_is_refused_before_writing) {
  TempDir tmp;
  MethodResult r = with_interval_and_stability(4);
  r.importance_hi.pop_back();
  BOOST_CHECK_THROW(write_result_h5(r, tmp / "a.h5"), Error);
  BOOST_CHECK_THROW(write_summary_csv(r, tmp / "a.csv"), Error);
  r = with_interval_and_stability(4);
  r.stability.rank_sd.pop_back();
  BOOST_CHECK_THROW(write_result_h5(r, tmp / "b.h5"), Error);
  r = with_interval_and_stability(4);
  r.method = "stability";
  BOOST_CHECK_THROW(write_result_h5(r, tmp / "c.h5"), Error);
  BOOST_TEST(!fs::exists(tmp / "a.h5"));
  BOOST_TEST(!fs::exists(tmp / "b.h5"));
}

// The shadow rule (methods/common/shadow_rule.hpp; Boruta [Kursa & Rudnicki 2010]) on hand-made scores: the
// threshold (maximum, numpy's linear quantile), strict selection, which features get shadows and their shuffles;
// FUSE's shadows as features of the search (fuse/shadows.hpp), cmab-scores' shadows on the features' scale; and a run
// of each method with select = "shadow" whose outputs hold the data's p features only, selected = importance above
// the threshold fact.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <set>
#include <variant>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "methods/cmab/scores.hpp"
#include "methods/comm.hpp"
#include "methods/common/shadow_rule.hpp"
#include "methods/executor.hpp"
#include "methods/fuse/shadows.hpp"
#include "methods/registry.hpp"

using namespace bfs;

namespace {

MethodResult run_job(const std::string& text) {
  const JobConfig job = parse_job(methods::catalog(), text, "job.toml");
  const Method& method = methods::find(job.method.name);
  method.validate(job);
  Context context;
  context.seed = job.run.seed;
  SoloComm comm;
  LocalExecutor executor(1);
  const std::string job_text = dump_job(job);
  return *method.run(MethodRun{job, job_text, context, comm, executor, RunControl{}, {}});
}

double fact(const MethodResult& r, const std::string& name) {
  for (const MethodFact& f : r.facts)
    if (f.name == name) return std::get<double>(f.value);
  BOOST_FAIL("no fact " << name);
  return 0.0;
}

/// Every per-feature output has p entries, rank is 1..p, selected = the features above the threshold fact.
void expect_no_shadow_in_outputs(const MethodResult& r, std::size_t p) {
  BOOST_TEST(r.feature_names.size() == p);
  BOOST_TEST(r.importance.size() == p);
  std::set<std::int32_t> ranks(r.rank.begin(), r.rank.end());
  BOOST_TEST(ranks.size() == p);
  BOOST_TEST(*ranks.begin() == 1);
  BOOST_TEST(*ranks.rbegin() == static_cast<std::int32_t>(p));
  for (const std::string& column : r.feature_columns) {
    const MethodDataset* d = r.dataset(column);
    BOOST_REQUIRE(d != nullptr);
    std::visit([&](const auto& v) { BOOST_TEST(v.size() == p, column); }, d->values);
  }
  const double threshold = fact(r, "shadow_threshold");
  BOOST_TEST(r.selected == methods::select_above(r.importance, threshold));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shadow_rule)

BOOST_AUTO_TEST_CASE(threshold_is_the_maximum_or_numpys_linear_quantile) {
  const std::vector<double> shadows = {0.1, 0.5, 0.3, 0.9};
  BOOST_TEST(methods::shadow_threshold(shadows, 1.0) == 0.9);
  // numpy.quantile([0.1, 0.3, 0.5, 0.9], q): h = 3q; q = 0.5 → 0.3 + 0.5·0.2, q = 0.9 → 0.5 + 0.7·0.4.
  BOOST_TEST(methods::shadow_threshold(shadows, 0.5) == 0.4, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(methods::shadow_threshold(shadows, 0.9) == 0.78, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(methods::shadow_threshold(std::vector<double>{0.7}, 0.3) == 0.7);
  // A NaN shadow score counts as −∞: it never raises the threshold.
  BOOST_TEST(methods::shadow_threshold(std::vector<double>{std::nan(""), 0.2}, 1.0) == 0.2);
}

BOOST_AUTO_TEST_CASE(a_feature_must_beat_the_threshold_strictly) {
  const std::vector<double> scores = {0.9, 0.5, 0.51, std::nan(""), 0.2, 0.5000001};
  BOOST_TEST(methods::select_above(scores, 0.5) == (std::vector<FeatureId>{0, 2, 5}));
  BOOST_TEST(methods::select_above(scores, 1.0).empty());
  // Hand-made: 3 features with signal, 4 shadows of no signal; the maximum (0.56) keeps the 3, the median (0.515)
  // lets 0.55 in too.
  const std::vector<double> features = {0.81, 0.51, 0.77, 0.55, 0.74}, shadows = {0.50, 0.56, 0.53, 0.49};
  BOOST_TEST(methods::select_above(features, methods::shadow_threshold(shadows, 1.0)) ==
             (std::vector<FeatureId>{0, 2, 4}));
  BOOST_TEST(methods::select_above(features, methods::shadow_threshold(shadows, 0.5)) ==
             (std::vector<FeatureId>{0, 2, 3, 4}));
}

BOOST_AUTO_TEST_CASE(which_features_get_shadows) {
  BOOST_TEST(methods::shadow_count(0, 30, "d") == 30);
  BOOST_TEST(methods::shadow_count(0, 5000, "d") == methods::kDefaultShadowCap);
  BOOST_TEST(methods::shadow_count(7, 30, "d") == 7);
  BOOST_CHECK_EXCEPTION(methods::shadow_count(31, 30, "data.h5"), InputError, [](const InputError& e) {
    return std::string(e.what()).find("method.shadows = 31 is more than the 30 features of data.h5") !=
           std::string::npos;
  });
  BOOST_TEST(methods::shadow_sources(4, 4, 9) == (std::vector<FeatureId>{0, 1, 2, 3}));
  const std::vector<FeatureId> some = methods::shadow_sources(100, 10, 9);
  BOOST_TEST(some.size() == 10u);
  BOOST_TEST(std::set<FeatureId>(some.begin(), some.end()).size() == 10u);
  BOOST_TEST(std::is_sorted(some.begin(), some.end()));
  BOOST_TEST(some == methods::shadow_sources(100, 10, 9));
  BOOST_TEST(some != methods::shadow_sources(100, 10, 10));
  // A feature's shuffle is keyed by (seed, feature) alone: a permutation, the same whoever draws it.
  const std::vector<std::int64_t> perm = methods::shadow_rows(50, 9, 3);
  BOOST_TEST(perm == methods::shadow_rows(50, 9, 3));
  BOOST_TEST(perm != methods::shadow_rows(50, 9, 4));
  BOOST_TEST(std::set<std::int64_t>(perm.begin(), perm.end()).size() == 50u);
}

BOOST_AUTO_TEST_CASE(fuse_shadows_copy_a_categorical_feature_with_one_shuffle) {
  // Feature 0 numeric (column 0), feature 1 categorical with levels a, b, c (columns 1–3); 8 rows.
  const std::size_t rows = 8;
  fuse::TrainingSet set;
  set.rows = rows;
  set.cols = 4;
  for (std::size_t c = 0; c < 4; ++c)
    for (std::size_t r = 0; r < rows; ++r) set.values.push_back(c == 0 ? 0.5 * r : (r % 3 == c - 1 ? 1.0 : 0.0));
  set.labels.assign(rows, 0);
  FeatureLayout layout{{0, 1, 4}, {{}, {"a", "b", "c"}}};
  fuse::append_shadows(set, layout, {0, 1}, 21);
  BOOST_TEST(set.cols == 8u);
  BOOST_TEST(layout.features(8) == 4);
  BOOST_TEST(layout.column_begin(3) == 5);
  BOOST_TEST(layout.column_end(3) == 8);
  BOOST_TEST(layout.is_categorical(3));
  BOOST_TEST(!layout.is_categorical(2));
  const auto perm0 = methods::shadow_rows(rows, 21, 0), perm1 = methods::shadow_rows(rows, 21, 1);
  for (std::size_t r = 0; r < rows; ++r) {
    BOOST_TEST(set.column(4)[r] == set.column(0)[static_cast<std::size_t>(perm0[r])]);
    double ones = 0.0;
    for (std::size_t c = 0; c < 3; ++c) {
      BOOST_TEST(set.column(5 + c)[r] == set.column(1 + c)[static_cast<std::size_t>(perm1[r])]);
      ones += set.column(5 + c)[r];
    }
    BOOST_TEST(ones == 1.0);  // still one level per row: one shuffle for all its columns
  }
  // Numeric data keeps one column per feature.
  fuse::TrainingSet numeric;
  numeric.rows = 3;
  numeric.cols = 2;
  numeric.values = {1, 2, 3, 4, 5, 6};
  FeatureLayout plain;
  fuse::append_shadows(numeric, plain, {1}, 2);
  BOOST_TEST(numeric.cols == 3u);
  BOOST_TEST(plain.one_column_each());
}

BOOST_AUTO_TEST_CASE(fuse_path_stops_before_its_first_shadow) {
  const std::vector<fuse::PathStep> path = {{2, 10, 0.7}, {0, 6, 0.8}, {5, 4, 0.8}, {1, 2, 0.9}};
  const auto kept = fuse::path_before_shadows(path, 5);
  BOOST_TEST(kept.size() == 2u);
  BOOST_TEST(kept[1].feature == 0);
}

BOOST_AUTO_TEST_CASE(cmab_shadows_are_scored_on_the_features_scale) {
  const std::vector<double> hie = {0.2, 0.6, 1.0}, hdd = {3.0, 1.0, 2.0};
  BOOST_TEST(cmab::combine_on(hie, hdd, hie, hdd, 0.5, 0.5) == cmab::combine(hie, hdd, 0.5, 0.5),
             boost::test_tools::per_element());
  // hie 0.6 → 0.5 and hdd 1.5 → 0.25 on the features' min-max scale; hie 1.4 → 1.5 (outside [0, 1]).
  const std::vector<double> shadow =
      cmab::combine_on(hie, hdd, std::vector<double>{0.6, 1.4}, std::vector<double>{1.5, 1.0}, 0.5, 0.5);
  BOOST_TEST(shadow[0] == 0.375, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(shadow[1] == 0.75, boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(fuse_with_shadows_writes_only_the_datas_features) {
  const MethodResult r = run_job(
      "[method]\nname = \"fuse\"\niterations = 300\nreward_subsample = 30\n[data]\nsource = \"simulate\"\n"
      "dgp = \"friedman1\"\nn = 120\np = 10\n[run]\nseed = 3\n");
  expect_no_shadow_in_outputs(r, 10);
  for (const char* name : {"path", "stop_grave", "final_size"}) BOOST_REQUIRE(r.dataset(name) != nullptr);
  for (const std::int32_t f : std::get<std::vector<std::int32_t>>(r.dataset("path")->values)) BOOST_TEST(f < 10);
  BOOST_TEST(std::get<std::vector<double>>(r.dataset("stop_grave")->values).size() == 11u);
  for (const std::int32_t s : std::get<std::vector<std::int32_t>>(r.dataset("final_size")->values)) BOOST_TEST(s <= 10);
}

BOOST_AUTO_TEST_CASE(cmab_with_shadows_writes_only_the_datas_features) {
  const MethodResult r = run_job(
      "[method]\nname = \"cmab-scores\"\n[data]\nsource = \"simulate\"\ndgp = \"cmab-hte\"\nn = 20000\np = 12\n"
      "[run]\nseed = 4\n");
  expect_no_shadow_in_outputs(r, 12);
  for (const FeatureId f : {0, 1, 2, 3, 4})  // the design's effect modifiers beat every shadow at n = 20 000
    BOOST_TEST(std::binary_search(r.selected.begin(), r.selected.end(), f), "x" << f + 1);
}

BOOST_AUTO_TEST_SUITE_END()

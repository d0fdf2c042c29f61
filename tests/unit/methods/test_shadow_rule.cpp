// The shadow rule (methods/common/shadow_rule.hpp; Boruta's shadows [Kursa & Rudnicki 2010], a permutation p-value
// [Phipson & Smyth 2010] at Bonferroni's level α/p [Gordon et al. 2007]) on hand-made scores: the rank r and its
// threshold, the bound on E[V], the quantile alternative, strict selection, which features get shadows, their copies
// and shuffles, the keys refused with the key named;
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

/// FUSE with R > 1 searches: importance is the mean of search_grave's R rows, and selected = the features above
/// search c's threshold in every search c.
void expect_above_in_every_search(const MethodResult& r, std::size_t p) {
  const MethodDataset* grave = r.dataset("search_grave");
  BOOST_REQUIRE(grave != nullptr);
  const auto& values = std::get<std::vector<double>>(grave->values);
  const auto& thresholds = std::get<std::vector<double>>(r.dataset("search_threshold")->values);
  const std::size_t searches = thresholds.size();
  BOOST_TEST((grave->shape == std::vector<std::size_t>{searches, p}));
  BOOST_REQUIRE(values.size() == searches * p);
  std::vector<FeatureId> selected;
  for (std::size_t f = 0; f < p; ++f) {
    double sum = 0.0;
    bool above = true;
    for (std::size_t c = 0; c < searches; ++c) {
      sum += values[c * p + f];
      above = above && values[c * p + f] > thresholds[c];
    }
    BOOST_TEST(r.importance[f] == sum / static_cast<double>(searches), boost::test_tools::tolerance(1e-15));
    if (above) selected.push_back(static_cast<FeatureId>(f));
  }
  BOOST_TEST(r.selected == selected);
}

/// Every per-feature output has p entries, rank is 1..p, selected = the features above the threshold fact (or with
/// several FUSE searches, above each search's threshold).
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
  if (r.dataset("search_threshold") != nullptr) {
    expect_above_in_every_search(r, p);
    for (const MethodFact& f : r.facts) BOOST_TEST(f.name != "shadow_threshold", "one threshold per search, none else");
    return;
  }
  const double threshold = fact(r, "shadow_threshold");
  BOOST_TEST(r.selected == methods::select_above(r.importance, threshold));
}

/// FUSE's outputs of friedman1's 10 features: no shadow anywhere, the path of the data's features.
void check_fuse_outputs(const MethodResult& r) {
  expect_no_shadow_in_outputs(r, 10);
  for (const char* name : {"path", "stop_grave", "final_size"}) BOOST_REQUIRE(r.dataset(name) != nullptr);
  for (const std::int32_t f : std::get<std::vector<std::int32_t>>(r.dataset("path")->values)) BOOST_TEST(f < 10);
  BOOST_TEST(std::get<std::vector<double>>(r.dataset("stop_grave")->values).size() == 11u);
  for (const std::int32_t s : std::get<std::vector<std::int32_t>>(r.dataset("final_size")->values)) BOOST_TEST(s <= 10);
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

BOOST_AUTO_TEST_CASE(the_rank_is_bonferronis_level_alpha_over_p) {
  // r = floor(α(S + 1)/p): p = 50, α = 0.5: S = 500 → 5; S = 250 → 2; S = 50 → 0, raised to 1 (the maximum).
  BOOST_TEST(methods::shadow_rank(0.5, 500, 50) == 5);
  BOOST_TEST(methods::shadow_rank(0.5, 250, 50) == 2);
  BOOST_TEST(methods::shadow_rank(0.5, 50, 50) == 1);
  BOOST_TEST(methods::shadow_rank(1.0, 30, 30) == 1);   // Boruta's maximum: one shadow per feature, α = 1
  BOOST_TEST(methods::shadow_rank(1.0, 149, 30) == 5);  // α(S + 1)/p = 5 exactly
  BOOST_TEST(methods::shadow_rank(1.0, 148, 30) == 4);
  BOOST_TEST(methods::shadow_rank(1e6, 10, 2) == 10);  // never beyond the shadows
}

BOOST_AUTO_TEST_CASE(the_threshold_is_the_rth_largest_shadow_and_its_bound) {
  const std::vector<double> shadows = {0.2, 0.9, 0.4, std::nan(""), 0.7, 0.1, 0.7, 0.3, 0.5};
  BOOST_TEST(methods::shadow_order_threshold(shadows, 1) == 0.9);
  BOOST_TEST(methods::shadow_order_threshold(shadows, 2) == 0.7);
  BOOST_TEST(methods::shadow_order_threshold(shadows, 3) == 0.7);  // ties count each
  BOOST_TEST(methods::shadow_order_threshold(shadows, 4) == 0.5);
  BOOST_TEST(std::isinf(methods::shadow_order_threshold(shadows, 9)));  // a NaN is −∞
  // E[V] ≤ p·(1 + #{T > t})/(S + 1): S = 9, p = 3; t = 0.7 has one shadow above → 3·2/10.
  BOOST_TEST(methods::shadow_false_bound(shadows, 0.7, 3) == 0.6, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(methods::shadow_false_bound(shadows, 0.9, 3) == 0.3, boost::test_tools::tolerance(1e-15));
  // The rule: p = 2 features, α = 0.5 → r = floor(0.5·10/2) = 2: the 2nd largest (0.7), one shadow above it, so the
  // bound is 2·2/10 = 0.4 ≤ α. A quantile below 1 replaces the rank (rank 0): numpy's linear quantile of the 8
  // finite scores and −∞.
  const methods::ShadowThreshold rule = methods::shadow_rule(shadows, 2, 1.0, 0.5);
  BOOST_TEST(rule.rank == 2);
  BOOST_TEST(rule.value == 0.7);
  BOOST_TEST(rule.false_bound == 0.4, boost::test_tools::tolerance(1e-15));
  const methods::ShadowThreshold quantile = methods::shadow_rule(shadows, 2, 0.75, 0.5);
  BOOST_TEST(quantile.rank == 0);
  BOOST_TEST(quantile.value == methods::shadow_threshold(shadows, 0.75));
  BOOST_TEST(quantile.value == 0.7);  // h = 8·0.75 = 6: the 7th smallest of −∞, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 0.7, 0.9
  // Hand-made selection: features 0.95, 0.72, 0.7, 0.45 against these shadows at α = 0.5, p = 4: r = floor(0.5·10/4)
  // = 1, the maximum 0.9: only the first; at α = 1, r = 2 (0.7): 0.95 and 0.72, not 0.7 (strictly above).
  const std::vector<double> features = {0.95, 0.72, 0.7, 0.45};
  BOOST_TEST(methods::select_above(features, methods::shadow_rule(shadows, 4, 1.0, 0.5).value) ==
             (std::vector<FeatureId>{0}));
  BOOST_TEST(methods::select_above(features, methods::shadow_rule(shadows, 4, 1.0, 1.0).value) ==
             (std::vector<FeatureId>{0, 1}));
}

BOOST_AUTO_TEST_CASE(the_facts_and_the_words_of_the_rule) {
  std::vector<MethodFact> facts;
  methods::add_shadow_facts(facts, {0.7, 2, 0.4}, 250, 5, 1.0, 0.5, true);
  std::vector<std::string> names;
  for (const MethodFact& f : facts) names.push_back(f.name);
  BOOST_TEST(names == (std::vector<std::string>{"shadows", "shadow_copies", "shadow_max_false", "shadow_quantile",
                                                "shadow_rank", "shadow_threshold", "shadow_false_bound"}),
             boost::test_tools::per_element());
  // Several thresholds (FUSE's searches): no single shadow_threshold.
  facts.clear();
  names.clear();
  methods::add_shadow_facts(facts, {0.7, 2, 0.4}, 250, 5, 1.0, 0.5, false);
  for (const MethodFact& f : facts) names.push_back(f.name);
  BOOST_TEST(names == (std::vector<std::string>{"shadows", "shadow_copies", "shadow_max_false", "shadow_quantile",
                                                "shadow_rank", "shadow_false_bound"}),
             boost::test_tools::per_element());
  BOOST_TEST(methods::describe_shadow_threshold({0.7, 2, 0.4}, 250, 1.0) == "the 2nd largest of 250 shadows'");
  BOOST_TEST(methods::describe_shadow_threshold({0.9, 1, 0.9}, 30, 1.0) == "the maximum of 30 shadows'");
  BOOST_TEST(methods::describe_shadow_threshold({0.5, 0, 1.5}, 30, 0.9) == "the quantile 0.9 of 30 shadows'");
  BOOST_TEST(methods::describe_shadow_threshold({0.5, 11, 0.5}, 300, 1.0).starts_with("the 11th largest"));
  BOOST_TEST(methods::describe_shadow_threshold({0.5, 23, 0.5}, 300, 1.0).starts_with("the 23rd largest"));
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
  // Copy 0 is the feature's first shuffle; each further copy its own, keyed by (seed, copy, feature).
  BOOST_TEST(methods::shadow_rows(50, 9, 3, 0) == perm);
  const std::vector<std::int64_t> second = methods::shadow_rows(50, 9, 3, 1);
  BOOST_TEST(second != perm);
  BOOST_TEST(second == methods::shadow_rows(50, 9, 3, 1));
  BOOST_TEST(std::set<std::int64_t>(second.begin(), second.end()).size() == 50u);
}

BOOST_AUTO_TEST_CASE(a_quantile_and_a_max_false_together_are_refused) {
  methods::check_shadow_keys(1.0, 0.2);
  methods::check_shadow_keys(0.9, methods::kDefaultShadowMaxFalse);
  BOOST_CHECK_EXCEPTION(methods::check_shadow_keys(0.9, 0.2), ConfigError, [](const ConfigError& e) {
    const std::string what = e.what();
    return what.find("method.shadow_quantile = 0.9") != std::string::npos &&
           what.find("method.shadow_max_false = 0.2") != std::string::npos;
  });
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

BOOST_AUTO_TEST_CASE(fuse_shadow_copies_follow_copy_by_copy) {
  // Two numeric features, 3 copies: features 2, 3 are copy 0 of 0 and 1, then 4, 5 copy 1, 6, 7 copy 2.
  fuse::TrainingSet set;
  set.rows = 6;
  set.cols = 2;
  set.values = {1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60};
  FeatureLayout layout;
  fuse::append_shadows(set, layout, {0, 1}, 5, 3);
  BOOST_TEST(set.cols == 8u);
  for (std::int64_t copy = 0; copy < 3; ++copy)
    for (FeatureId f = 0; f < 2; ++f) {
      const auto perm = methods::shadow_rows(6, 5, f, copy);
      const auto column = static_cast<std::size_t>(2 + copy * 2 + f);
      for (std::size_t r = 0; r < 6; ++r)
        BOOST_TEST(set.column(column)[r] == set.column(static_cast<std::size_t>(f))[static_cast<std::size_t>(perm[r])]);
    }
  // A later search's shadows: copies 3, 4, 5 (first_copy = 3), its own shuffles.
  fuse::TrainingSet later;
  later.rows = 6;
  later.cols = 2;
  later.values = {1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 50, 60};
  FeatureLayout later_layout;
  fuse::append_shadows(later, later_layout, {0, 1}, 5, 3, 3);
  BOOST_TEST(later.cols == 8u);
  for (std::int64_t copy = 0; copy < 3; ++copy)
    for (FeatureId f = 0; f < 2; ++f) {
      const auto perm = methods::shadow_rows(6, 5, f, 3 + copy);
      const auto column = static_cast<std::size_t>(2 + copy * 2 + f);
      for (std::size_t r = 0; r < 6; ++r)
        BOOST_TEST(later.column(column)[r] ==
                   later.column(static_cast<std::size_t>(f))[static_cast<std::size_t>(perm[r])]);
    }
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
  // One search (one threshold, the fact) and the default two (a threshold each).
  for (const char* searches : {"searches = 1\n", ""}) {
    const MethodResult r =
        run_job(std::string("[method]\nname = \"fuse\"\niterations = 300\nreward_subsample = 30\n") + searches +
                "[data]\nsource = \"simulate\"\ndgp = \"friedman1\"\nn = 120\np = 10\n[run]\nseed = 3\n");
    BOOST_TEST_CONTEXT(searches) {
      check_fuse_outputs(r);
    }
  }
}

BOOST_AUTO_TEST_CASE(fuse_search_zero_is_the_one_search_of_half_the_iterations) {
  // Search 0 draws from the streams of a single search and has its shadows (copy 0), so its g-RAVE are those of
  // searches = 1 with half the iterations; search 1 (its own streams and copy 1) differs.
  const std::string job =
      "[method]\nname = \"fuse\"\niterations = 300\nreward_subsample = 30\n[data]\nsource = \"simulate\"\n"
      "dgp = \"friedman1\"\nn = 120\np = 10\n[run]\nseed = 3\n";
  const MethodResult two = run_job(job);
  const MethodResult half =
      run_job(std::string(job).replace(job.find("iterations = 300"), 16, "iterations = 150\nsearches = 1"));
  const auto& rows = std::get<std::vector<double>>(two.dataset("search_grave")->values);
  BOOST_TEST(std::vector<double>(rows.begin(), rows.begin() + 10) == half.importance);
  BOOST_TEST(std::vector<double>(rows.begin() + 10, rows.end()) != half.importance);
}

BOOST_AUTO_TEST_CASE(fuse_with_several_copies_writes_only_the_datas_features) {
  // k = 3 copies of 10 features: the search runs over 40, every output holds the 10, and the facts say S = 30 and
  // r = floor(0.5 · 31 / 10) = 1.
  const MethodResult r = run_job(
      "[method]\nname = \"fuse\"\niterations = 300\nreward_subsample = 30\nshadow_copies = 3\n[data]\n"
      "source = \"simulate\"\ndgp = \"friedman1\"\nn = 120\np = 10\n[run]\nseed = 3\n");
  expect_no_shadow_in_outputs(r, 10);
  for (const std::int32_t f : std::get<std::vector<std::int32_t>>(r.dataset("path")->values)) BOOST_TEST(f < 10);
  for (const std::int32_t s : std::get<std::vector<std::int32_t>>(r.dataset("final_size")->values)) BOOST_TEST(s <= 10);
  std::int64_t shadows = -1, rank = -1;
  for (const MethodFact& f : r.facts) {
    if (f.name == "shadows") shadows = std::get<std::int64_t>(f.value);
    if (f.name == "shadow_rank") rank = std::get<std::int64_t>(f.value);
  }
  BOOST_TEST(shadows == 30);
  BOOST_TEST(rank == 1);
}

BOOST_AUTO_TEST_CASE(cmab_with_shadows_writes_only_the_datas_features) {
  const MethodResult r = run_job(
      "[method]\nname = \"cmab-scores\"\n[data]\nsource = \"simulate\"\ndgp = \"cmab-hte\"\nn = 20000\np = 12\n"
      "[run]\nseed = 4\n");
  expect_no_shadow_in_outputs(r, 12);
  // The defaults: 5 shadows per feature, α = 0.5: r = floor(0.5 · 61 / 12) = 2, and the bound of that threshold
  // p·(1 + #{shadows above it})/(S + 1) ≤ 12 · 2 / 61.
  BOOST_TEST(fact(r, "shadow_false_bound") <= 24.0 / 61.0 + 1e-12);
  for (const FeatureId f : {0, 1, 2, 3, 4})  // the design's effect modifiers beat the shadows at n = 20 000
    BOOST_TEST(std::binary_search(r.selected.begin(), r.selected.end(), f), "x" << f + 1);
}

BOOST_AUTO_TEST_CASE(bad_shadow_keys_are_refused_naming_the_key) {
  const std::string fuse = "[method]\nname = \"fuse\"\n";
  const std::string cmab = "[method]\nname = \"cmab-scores\"\n";
  const auto refused = [&](const std::string& method, const std::string& line, const std::string& key) {
    const std::string dgp = method == fuse ? "friedman1" : "cmab-hte";
    const std::string data = "[data]\nsource = \"simulate\"\ndgp = \"" + dgp + "\"\nn = 2000\np = 12\n";
    bool named = false;
    try {
      const JobConfig job = parse_job(methods::catalog(), method + line + "\n" + data, "job.toml");
      methods::find(job.method.name).validate(job);
    } catch (const Error& e) {
      named = std::string(e.what()).find(key) != std::string::npos;
      BOOST_TEST_MESSAGE(e.what());
    }
    BOOST_TEST(named, method << line << " is refused naming " << key);
  };
  for (const std::string& method : {fuse, cmab}) {
    refused(method, "shadow_copies = 0", "shadow_copies");
    refused(method, "shadow_copies = 1.5", "shadow_copies");
    refused(method, "shadow_max_false = 0", "shadow_max_false");
    refused(method, "shadow_max_false = -1", "shadow_max_false");
    refused(method, "shadow_quantile = 0.9\nshadow_max_false = 0.2", "method.shadow_quantile = 0.9");
  }
}

BOOST_AUTO_TEST_SUITE_END()

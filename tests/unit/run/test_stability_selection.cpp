// Stability selection's pure parts (run/stability_selection.hpp): the complementary halves, the runs' seeds, the
// threshold from max_false, and the two bounds on hand-made values (worked by hand in the comments; the unimodal
// bound is what the R package stabs' stabsel_parameters gives for sampling.type = "SS", assumption = "unimodal").
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <set>

#include "core/error.hpp"
#include "run/stability_selection.hpp"
#include "run/stability_summary.hpp"

using namespace bfs;

namespace {

void check_pair(const HalfPair& h, std::int64_t begin, std::int64_t end) {
  const auto m = end - begin;
  std::vector<Index> a, b;
  for (Index r : h.first)
    if (r >= begin && r < end) a.push_back(r);
  for (Index r : h.second)
    if (r >= begin && r < end) b.push_back(r);
  BOOST_TEST(static_cast<std::int64_t>(a.size()) == m / 2);
  BOOST_TEST(static_cast<std::int64_t>(b.size()) == m / 2);
  std::set<Index> both(a.begin(), a.end());
  both.insert(b.begin(), b.end());
  BOOST_TEST(static_cast<std::int64_t>(both.size()) == 2 * (m / 2));  // disjoint
}

}  // namespace

BOOST_AUTO_TEST_CASE(halves_are_disjoint_equal_and_cover_an_even_n) {
  for (std::int64_t pair = 0; pair < 20; ++pair) {
    const HalfPair h = complementary_halves({}, 100, 7, pair);
    BOOST_TEST(h.first.size() == 50u);
    BOOST_TEST(h.second.size() == 50u);
    BOOST_TEST(std::is_sorted(h.first.begin(), h.first.end()));
    BOOST_TEST(std::is_sorted(h.second.begin(), h.second.end()));
    std::vector<Index> all = h.first;
    all.insert(all.end(), h.second.begin(), h.second.end());
    std::sort(all.begin(), all.end());
    for (Index i = 0; i < 100; ++i) BOOST_TEST(all[static_cast<std::size_t>(i)] == i);  // covering, disjoint
  }
}

BOOST_AUTO_TEST_CASE(an_odd_n_leaves_one_row_out_of_a_pair) {
  const HalfPair h = complementary_halves({}, 11, 3, 0);
  BOOST_TEST(h.first.size() == 5u);
  BOOST_TEST(h.second.size() == 5u);
  check_pair(h, 0, 11);
}

BOOST_AUTO_TEST_CASE(halves_are_drawn_within_each_period) {
  const std::vector<std::int64_t> offsets = {0, 10, 17, 30};
  const HalfPair h = complementary_halves(offsets, 30, 5, 2);
  check_pair(h, 0, 10);
  check_pair(h, 10, 17);
  check_pair(h, 17, 30);
  BOOST_TEST(h.first.size() == 5u + 3u + 6u);
  BOOST_CHECK_THROW(complementary_halves(std::vector<std::int64_t>{0, 1, 30}, 30, 5, 0), InternalError);
}

BOOST_AUTO_TEST_CASE(the_split_depends_on_seed_and_pair_only) {
  const HalfPair a = complementary_halves({}, 64, 9, 4);
  BOOST_TEST(complementary_halves({}, 64, 9, 4).first == a.first);
  BOOST_TEST(complementary_halves({}, 64, 9, 5).first != a.first);
  BOOST_TEST(complementary_halves({}, 64, 10, 4).first != a.first);
}

BOOST_AUTO_TEST_CASE(run_seeds_are_distinct_valid_run_seeds) {
  std::set<std::uint64_t> seeds;
  for (std::int64_t i = 0; i < 200; ++i) {
    const std::uint64_t s = stability_run_seed(42, i);
    BOOST_TEST(s < (std::uint64_t{1} << 63));
    seeds.insert(s);
  }
  BOOST_TEST(seeds.size() == 200u);
  BOOST_TEST(stability_run_seed(42, 3) == stability_run_seed(42, 3));
  BOOST_TEST(stability_run_seed(43, 3) != stability_run_seed(42, 3));
}

BOOST_AUTO_TEST_CASE(frequency_and_q_of_hand_made_selections) {
  // Six runs of five features; selections {0,1}, {0}, {0,2}, {0,1}, {1}, {0,1,4}.
  const std::vector<std::vector<std::uint8_t>> picks = {{1, 1, 0, 0, 0}, {1, 0, 0, 0, 0}, {1, 0, 1, 0, 0},
                                                        {1, 1, 0, 0, 0}, {0, 1, 0, 0, 0}, {1, 1, 0, 0, 1}};
  std::vector<RunOutcome> runs;
  for (const auto& s : picks) runs.push_back({{0.1, 0.2, 0.3, 0.4, 0.5}, s, {5, 4, 3, 2, 1}});
  const StabilitySummary summary = summarize_runs(runs);
  const std::vector<double> want = {5.0 / 6, 4.0 / 6, 1.0 / 6, 0.0, 1.0 / 6};
  for (std::size_t k = 0; k < want.size(); ++k) BOOST_TEST(summary.selection_frequency[k] == want[k]);
  BOOST_TEST(mean_selected(runs) == 11.0 / 6);
  BOOST_TEST((stable_set(summary, 0.6) == FeatureSet{0, 1}));
  BOOST_TEST((stable_set(summary, 0.7) == FeatureSet{0}));
  BOOST_TEST((stable_set(summary, 5.0 / 6) == FeatureSet{0}));  // π̂ ≥ π_thr, the boundary included
}

BOOST_AUTO_TEST_CASE(meinshausen_buhlmann_bound) {
  // q = 3, p = 100, π = 0.75: 9 / (0.5 · 100) = 0.18.
  BOOST_TEST(bound_meinshausen_buhlmann(3, 100, 0.75) == 0.18, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(bound_meinshausen_buhlmann(3, 100, 1.0) == 0.09, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(std::isnan(bound_meinshausen_buhlmann(3, 100, 0.5)));
  BOOST_TEST(std::isnan(bound_meinshausen_buhlmann(3, 0, 0.9)));
}

BOOST_AUTO_TEST_CASE(shah_samworth_unimodal_bound_as_stabs_computes_it) {
  // π ≤ 3/4: C = 2 (2π − 1 − 1/(2B)); q = 3, p = 100, π = 0.75, B = 50: C = 0.98, bound 0.09 / 0.98.
  BOOST_TEST(bound_shah_samworth_unimodal(3, 100, 0.75, 50) == 0.09 / 0.98, boost::test_tools::tolerance(1e-14));
  // π > 3/4: C = (1 + 1/B) / (4 (1 − π + 1/(2B))); π = 0.9, B = 50: C = 1.02 / 0.44, bound 0.09 · 0.44 / 1.02.
  BOOST_TEST(bound_shah_samworth_unimodal(3, 100, 0.9, 50) == 0.09 * 0.44 / 1.02, boost::test_tools::tolerance(1e-14));
  // π = 1, B = 50: C = 1.02 / 0.04 = 25.5.
  BOOST_TEST(bound_shah_samworth_unimodal(3, 100, 1.0, 50) == 0.09 / 25.5, boost::test_tools::tolerance(1e-14));
  // Below 1/2 + min(θ², 1/(2B) + 3θ²/4) stabs refuses the cutoff: θ = 0.5, π = 0.6 < 0.5 + 0.1975.
  BOOST_TEST(std::isnan(bound_shah_samworth_unimodal(10, 20, 0.6, 50)));
  // Tighter than Meinshausen–Bühlmann's where both hold.
  BOOST_TEST(bound_shah_samworth_unimodal(3, 100, 0.9, 50) < bound_meinshausen_buhlmann(3, 100, 0.9));
}

BOOST_AUTO_TEST_CASE(threshold_from_max_false) {
  // q = 3, p = 100, E[V] = 1: (1 + 9/100) / 2 = 0.545, where the Meinshausen–Bühlmann bound is exactly 1.
  BOOST_TEST(threshold_for_max_false(3, 100, 1.0) == 0.545, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(bound_meinshausen_buhlmann(3, 100, threshold_for_max_false(3, 100, 1.0)) == 1.0,
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(threshold_for_max_false(20, 30, 1.0) == 1.0);  // out of reach: at most 1
  BOOST_TEST(threshold_for_max_false(0, 30, 1.0) == 1.0);   // no run selects anything
}

BOOST_AUTO_TEST_CASE(waves_fill_a_few_seconds_per_worker) {
  // Runs of 0.5 s: 10 fill kWaveSeconds = 5; runs of 20 s: still one; an unmeasurable wave: the most.
  BOOST_TEST(runs_per_worker_for(0.5, 1) == 10);
  BOOST_TEST(runs_per_worker_for(5.0, 10) == 10);
  BOOST_TEST(runs_per_worker_for(20.0, 1) == 1);
  BOOST_TEST(runs_per_worker_for(0.0, 1) == kMaxRunsPerWorker);
  BOOST_TEST(runs_per_worker_for(1e-6, 1) == kMaxRunsPerWorker);
}

BOOST_AUTO_TEST_CASE(waves_cover_every_run_once_and_stop_at_checkpoints) {
  // 2 workers, 10 runs each, 100 runs: waves of 20; the last one is what is left.
  BOOST_TEST(wave_size(0, 100, 2, 10, 0) == 20);
  BOOST_TEST(wave_size(90, 100, 2, 10, 0) == 10);
  // checkpoint_every = 7: the wave from 0 ends at 7, the one from 7 at 14; never below one run per worker.
  BOOST_TEST(wave_size(0, 100, 2, 10, 7) == 7);
  BOOST_TEST(wave_size(7, 100, 2, 10, 7) == 7);
  BOOST_TEST(wave_size(0, 100, 4, 10, 1) == 4);
  BOOST_TEST(wave_size(13, 100, 2, 10, 7) == 8);  // from 13, at least 15; the next multiple of 7 is 21
  // Any sequence of waves covers 0..total exactly, each wave at least min(workers, left) runs, and a wave never
  // crosses a multiple of checkpoint_every beyond its first `workers` runs.
  for (std::int64_t every : {0, 1, 3, 50}) {
    for (std::int64_t workers : {1, 2, 3, 8}) {
      std::int64_t done = 0, per_worker = 1;
      while (done < 97) {
        const std::int64_t n = wave_size(done, 97, workers, per_worker, every);
        BOOST_TEST(n >= std::min<std::int64_t>(workers, 97 - done));
        if (every > 0)
          for (std::int64_t m = done + workers + 1; m < done + n; ++m) BOOST_TEST(m % every != 0);
        done += n;
        per_worker = per_worker % 5 + 1;
      }
      BOOST_TEST(done == 97);
    }
  }
}

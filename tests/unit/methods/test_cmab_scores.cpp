// cmab-scores' pure algorithms ([CMAB §2, eq. 1, A.1]; src/methods/cmab/): the specification's 16-row hand
// example, quantile and per-value bins, ties, the NaN bin and its error, a zero cell (smoothing), an arm missing from
// a bin, a bin of one reward, a constant feature, eq. 1's min-max, and agreement with the NumPy reference
// (tests/data/cmab_reference.py) on its three random logs (tests/data/cmab_reference_cases.txt) to 1e-12 relative.
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "methods/cmab/binning.hpp"
#include "methods/cmab/cell_counts.hpp"
#include "methods/cmab/scores.hpp"

using namespace bfs;
using namespace bfs::cmab;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// KL(p‖q) of two Bernoulli laws, written out for the hand cases (no clip is active in them).
double kl(double p, double q) {
  return p * std::log(p / q) + (1 - p) * std::log((1 - p) / (1 - q));
}

/// Relative; an expected value below 1e-15 is an exact 0 up to rounding (the NumPy reference's causalml filters
/// weigh a bin as (D·size)/N, which leaves ~1e-17 for a constant feature, where banditfs's size/N·D gives 0).
bool close(double got, double expected, double relative = 1e-12) {
  if (std::abs(expected) < 1e-15) return std::abs(got) <= 1e-15;
  return std::abs(got - expected) <= relative * std::abs(expected);
}

/// Cells from {zeros, ones} per (bin, arm), bin-major; the caller lists the missing bin too.
CellCounts cells_of(int arms, const std::vector<std::pair<int, int>>& zeros_ones) {
  CellCounts c;
  c.arms = arms;
  c.bins = static_cast<int>(zeros_ones.size()) / arms;
  for (const auto& [zeros, ones] : zeros_ones) {
    c.count.push_back(zeros);
    c.count.push_back(ones);
  }
  return c;
}

/// The specification's example: 16 rows, arms 0/1, a categorical feature; A (code 0): arm0 3 of 4 rewarded, arm1 1 of
/// 4; B (code 1): arm0 1 of 4, arm1 3 of 4.
struct HandLog {
  std::vector<float> x;
  std::vector<std::int32_t> arm;
  std::vector<std::uint8_t> reward;
};
HandLog hand_log() {
  HandLog log;
  const int rewards[2][2] = {{3, 1}, {1, 3}};  // [level][arm]: rewarded rows of 4
  for (int level = 0; level < 2; ++level)
    for (int arm = 0; arm < 2; ++arm)
      for (int row = 0; row < 4; ++row) {
        log.x.push_back(static_cast<float>(level));
        log.arm.push_back(arm);
        log.reward.push_back(row < rewards[level][arm] ? 1 : 0);
      }
  return log;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cmab_scores)

BOOST_AUTO_TEST_CASE(the_issue_hand_example) {
  const HandLog log = hand_log();
  const FeatureBins bins = bin_feature(log.x, true, 10, Missing::Bin, "segment");
  BOOST_TEST(bins.per_value);
  BOOST_TEST(bins.value_bins == 2);
  BOOST_TEST(!bins.has_missing);
  const CellCounts cells = count_cells(bins, log.arm, 2, log.reward);
  BOOST_TEST(cells.bins == 3);
  BOOST_TEST(cells.at(0, 0, 1) == 3);
  BOOST_TEST(cells.at(0, 0, 0) == 1);
  BOOST_TEST(cells.at(1, 1, 1) == 3);
  BOOST_TEST(cells.at(2, 0, 0) + cells.at(2, 0, 1) + cells.at(2, 1, 0) + cells.at(2, 1, 1) == 0);
  for (const HieReference reference : {HieReference::InBin, HieReference::Global}) {
    const FeatureScores s = score_feature(cells, reference, 0);
    BOOST_TEST(close(s.hie, 0.25));  // both readings
    BOOST_TEST(close(s.hdd, std::log(3.0) / 4), s.hdd);
    BOOST_TEST(std::abs(s.hdd - 0.2746531) < 5e-8);  // the specification's 7 digits
    BOOST_TEST(close(s.kl, std::log(3.0) / 2), s.kl);
    BOOST_TEST(std::abs(s.kl - 0.5493061) < 5e-8);
    BOOST_TEST(close(s.ed, 0.5));
    BOOST_TEST(close(s.chi, 4.0 / 3.0));
    BOOST_TEST(s.mi == 0.0);
  }
}

BOOST_AUTO_TEST_CASE(quantile_edges_of_one_to_twenty) {
  std::vector<float> x;
  for (int v = 1; v <= 20; ++v) x.push_back(static_cast<float>(v));
  const FeatureBins bins = bin_feature(x, false, 10, Missing::Bin, "x");
  BOOST_TEST(!bins.per_value);
  BOOST_TEST_REQUIRE(bins.value_bins == 10);
  BOOST_TEST_REQUIRE(bins.edges.size() == 11u);
  for (int j = 0; j <= 10; ++j) BOOST_TEST(close(bins.edges[j], 1.0 + 1.9 * j), "edge " << j << " " << bins.edges[j]);
  BOOST_TEST(bins.edges.front() == 1.0);
  BOOST_TEST(bins.edges.back() == 20.0);
  BOOST_TEST(bins.bin[2] == 1);                                                                // x = 3: 2.9 < 3 <= 4.8
  for (int row = 0; row < 20; ++row) BOOST_TEST(bins.bin[row] == row / 2, "x = " << row + 1);  // (a, b], 1 in bin 0
}

BOOST_AUTO_TEST_CASE(ties_drop_duplicate_edges) {
  // 15 zeros then 1..15: numpy.quantile at j/10 gives 0 five times, 0.5, 3.4, 6.3, 9.2, 12.1, 15.
  std::vector<float> x(15, 0.0f);
  for (int v = 1; v <= 15; ++v) x.push_back(static_cast<float>(v));
  const FeatureBins bins = bin_feature(x, false, 10, Missing::Bin, "x");
  BOOST_TEST(!bins.per_value);
  const std::vector<double> expected = {0, 0.5, 3.4, 6.3, 9.2, 12.1, 15};
  BOOST_TEST_REQUIRE(bins.edges.size() == expected.size());
  for (std::size_t e = 0; e < expected.size(); ++e) BOOST_TEST(close(bins.edges[e], expected[e]), bins.edges[e]);
  BOOST_TEST(bins.value_bins == 6);
  for (int row = 0; row < 15; ++row) BOOST_TEST(bins.bin[row] == 0);
  BOOST_TEST(bins.bin[15] == 1);  // x = 1 in (0.5, 3.4]
  BOOST_TEST(bins.bin[17] == 1);  // x = 3
  BOOST_TEST(bins.bin[18] == 2);  // x = 4 in (3.4, 6.3]
  BOOST_TEST(bins.bin[29] == 5);  // x = 15, the maximum, in the last bin
}

BOOST_AUTO_TEST_CASE(large_columns_match_a_sorted_quantile_and_a_search) {
  // The fast path (radix select, bucket table) against the plain definition: sort, type-7 quantile, count edges.
  std::mt19937_64 engine(5);
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<int> tick(0, 4095);
  for (const bool narrow : {false, true}) {
    std::vector<float> x(200000);
    for (std::size_t row = 0; row < x.size(); ++row) {
      const float v = narrow ? 1000.0f + static_cast<float>(tick(engine)) / 64.0f : normal(engine);
      x[row] = row % 53 == 0 ? kNaN : row % 31 == 0 ? (row % 2 == 0 ? 0.0f : -0.0f) : row % 17 == 0 ? 0.5f : v;
    }
    BOOST_TEST_CONTEXT((narrow ? "values in a few key buckets" : "normal values")) {
      const FeatureBins bins = bin_feature(x, false, 10, Missing::Bin, "x");
      std::vector<double> sorted;
      for (const float v : x)
        if (!std::isnan(v)) sorted.push_back(v);
      std::sort(sorted.begin(), sorted.end());
      std::vector<double> expected;
      for (int j = 0; j <= 10; ++j) {
        const double index = static_cast<double>(sorted.size() - 1) * (j / 10.0), below = std::floor(index);
        const auto at = static_cast<std::size_t>(below);
        expected.push_back(at + 1 < sorted.size() ? sorted[at] + (sorted[at + 1] - sorted[at]) * (index - below)
                                                  : sorted[at]);
      }
      expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
      BOOST_TEST(!bins.per_value);
      BOOST_TEST(bins.has_missing);
      BOOST_TEST_REQUIRE(bins.edges.size() == expected.size());
      for (std::size_t e = 0; e < expected.size(); ++e) BOOST_TEST(close(bins.edges[e], expected[e], 1e-14));
      int wrong = 0;
      for (std::size_t row = 0; row < x.size(); ++row) {
        int bin = bins.value_bins;
        if (!std::isnan(x[row])) {
          bin = 0;
          for (int e = 1; e < bins.value_bins; ++e) bin += bins.edges[e] < x[row] ? 1 : 0;
        }
        wrong += bins.bin[row] != bin ? 1 : 0;
      }
      BOOST_TEST(wrong == 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(few_distinct_values_get_a_bin_each) {
  const std::vector<float> x = {5, -1, 2.5f, 5, 5, -1, 2.5f, -1};
  const FeatureBins three = bin_feature(x, false, 3, Missing::Bin, "x");
  BOOST_TEST(three.per_value);
  BOOST_TEST(three.value_bins == 3);
  BOOST_TEST(three.edges == (std::vector<double>{-1, 2.5, 5}), boost::test_tools::per_element());
  BOOST_TEST(three.bin == (std::vector<std::int32_t>{2, 0, 1, 2, 2, 0, 1, 0}), boost::test_tools::per_element());
  // With bins = 2 the three values are more than the bins: quantile edges (-1, 2.5, 5), bins (-1, 2.5], (2.5, 5].
  const FeatureBins two = bin_feature(x, false, 2, Missing::Bin, "x");
  BOOST_TEST(!two.per_value);
  BOOST_TEST(two.edges == (std::vector<double>{-1, 2.5, 5}), boost::test_tools::per_element());
  BOOST_TEST(two.bin == (std::vector<std::int32_t>{1, 0, 0, 1, 1, 0, 0, 0}), boost::test_tools::per_element());
  // bins above the small-set scan's limit: 80 values with bins = 100 are still a bin each (the sorting path).
  std::vector<float> eighty(160);
  for (int v = 0; v < 160; ++v) eighty[v] = static_cast<float>((v * 37) % 80) - 40.0f;
  const FeatureBins wide = bin_feature(eighty, false, 100, Missing::Bin, "x");
  BOOST_TEST(wide.per_value);
  BOOST_TEST(wide.value_bins == 80);
  BOOST_TEST(wide.bin[1] == (37 % 80));
  BOOST_TEST(!bin_feature(eighty, false, 79, Missing::Bin, "x").per_value);
  // A categorical feature keeps a bin per level however many: 12 levels with bins = 10.
  std::vector<float> levels;
  for (int v = 11; v >= 0; --v) levels.push_back(static_cast<float>(v));
  const FeatureBins categorical = bin_feature(levels, true, 10, Missing::Bin, "c");
  BOOST_TEST(categorical.per_value);
  BOOST_TEST(categorical.value_bins == 12);
  BOOST_TEST(categorical.bin[0] == 11);
  BOOST_TEST(categorical.bin[11] == 0);
}

BOOST_AUTO_TEST_CASE(nan_rows_get_the_last_bin) {
  const std::vector<float> x = {1, kNaN, 2, 1, kNaN, 2};
  const FeatureBins bins = bin_feature(x, false, 10, Missing::Bin, "x");
  BOOST_TEST(bins.has_missing);
  BOOST_TEST(bins.value_bins == 2);
  BOOST_TEST(bins.bin == (std::vector<std::int32_t>{0, 2, 1, 0, 2, 1}), boost::test_tools::per_element());
  const std::vector<std::int32_t> arm = {0, 1, 1, 0, 0, 1};
  const std::vector<std::uint8_t> reward = {1, 0, 1, 0, 1, 1};
  const CellCounts cells = count_cells(bins, arm, 2, reward);
  BOOST_TEST(cells.bins == 3);
  BOOST_TEST(cells.at(2, 1, 0) == 1);  // row 1
  BOOST_TEST(cells.at(2, 0, 1) == 1);  // row 4
  // All NaN: no value bin, every row missing, every score 0.
  const FeatureBins empty = bin_feature(std::vector<float>(4, kNaN), false, 10, Missing::Bin, "x");
  BOOST_TEST(empty.value_bins == 0);
  BOOST_TEST(empty.bin == (std::vector<std::int32_t>(4, 0)), boost::test_tools::per_element());
  const FeatureScores s =
      score_feature(count_cells(empty, std::vector<std::int32_t>{0, 1, 0, 1}, 2, std::vector<std::uint8_t>{1, 0, 0, 1}),
                    HieReference::InBin, 0);
  BOOST_TEST((s.hie == 0 && s.hdd == 0 && s.kl == 0 && s.ed == 0 && s.chi == 0 && s.mi == 0));
}

BOOST_AUTO_TEST_CASE(missing_error_names_the_feature_and_the_row) {
  const std::vector<float> x = {1, 2, 3, kNaN, 5};
  try {
    bin_feature(x, false, 10, Missing::Error, "income");
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    const std::string message = e.what();
    BOOST_TEST(message.find("'income'") != std::string::npos, message);
    BOOST_TEST(message.find("row 3") != std::string::npos, message);
    BOOST_TEST(message.find("missing") != std::string::npos, message);
  }
  BOOST_CHECK_NO_THROW(bin_feature(std::vector<float>{1, 2, 3}, false, 10, Missing::Error, "income"));
}

BOOST_AUTO_TEST_CASE(a_zero_cell_is_smoothed) {
  // Bin 0: arm0 0 of 2 rewarded, arm1 1 of 2; bin 1: arm0 1 of 2, arm1 2 of 2; no NaN. For HDD a zero count counts
  // as 1 in P (1/3 and 2/3), the weights keep the real counts. causalml's filters smooth the counts themselves:
  // bin 0 arm0 (2 zeros, 1 one), bin 1 arm1 (1, 2), so each bin weighs 5 of the 8 rows; overall 1 of 4 and 3 of 4.
  const CellCounts cells = cells_of(2, {{2, 0}, {1, 1}, {1, 1}, {0, 2}, {0, 0}, {0, 0}});
  const FeatureScores s = score_feature(cells, HieReference::InBin, 0);
  const double third = 1.0 / 3, ln3 = std::log(3.0);
  const double bin0 = kl(third, 0.5) + kl(0.5, third), bin1 = kl(0.5, 2 * third) + kl(2 * third, 0.5);
  // (N_b/N)(N_{b,i}N_{b,j}/N_b²) = (1/2)(1/4); totals 1 of 4 and 3 of 4, KL(1/4‖3/4) = KL(3/4‖1/4) = ln3/2.
  BOOST_TEST(close(s.hdd, 0.125 * bin0 + 0.125 * bin1 - 0.25 * ln3), s.hdd);
  BOOST_TEST(close(s.kl, 0.625 * kl(0.5, third) + 0.625 * kl(2 * third, 0.5) - ln3 / 2), s.kl);
  // ED: 2(1/6)² in each bin, 2(1/2)² overall.
  BOOST_TEST(close(s.ed, 0.625 * (2.0 / 36) * 2 - 0.5), s.ed);
  // Chi: bin 0 p_c = 1/3: (1/36)/(1/3) + (1/36)/(2/3); bin 1 p_c = 1/2: 2(1/36)/(1/2); overall 1 + 1/3.
  BOOST_TEST(close(s.chi, 0.625 * (1.0 / 12 + 1.0 / 24) + 0.625 * (1.0 / 9) - 4.0 / 3), s.chi);
  BOOST_TEST(std::isfinite(s.mi));
  BOOST_TEST(s.hie == 0.0);  // arm1 wins overall and in both bins
}

BOOST_AUTO_TEST_CASE(an_arm_without_rows_in_a_bin) {
  // Bin 0: arm0 1 of 2, arm1 2 of 2; bin 1: arm0 0 of 2, arm1 none. w* = arm1 (1 > 1/4).
  const CellCounts cells = cells_of(2, {{1, 1}, {0, 2}, {2, 0}, {0, 0}, {0, 0}, {0, 0}});
  const FeatureScores in_bin = score_feature(cells, HieReference::InBin, 0);
  const FeatureScores global = score_feature(cells, HieReference::Global, 0);
  BOOST_TEST(in_bin.hie == 0.0);                       // bin 0: arm1 is w_b and w*; bin 1 has no w* rows: adds 0
  BOOST_TEST(close(global.hie, (2.0 / 6) * (0 - 1)));  // bin 1: P_{b,w_b} = 0 (arm0) against P_{w*} = 1
  // HDD: bin 1 has one arm (KL(P‖P) = 0); bin 0 P' = 1/2 and 2/3 (a zero count of zeros smoothed); totals 1 of 4,
  // 2 of 2 (P' = 1/4, 2/3), weights 2·2/4² and 4·2/6².
  const double two_thirds = 2.0 / 3;
  const double children = (4.0 / 6) * 0.25 * (kl(0.5, two_thirds) + kl(two_thirds, 0.5));
  const double parent = (8.0 / 36) * (kl(0.25, two_thirds) + kl(two_thirds, 0.25));
  BOOST_TEST(close(in_bin.hdd, children - parent), in_bin.hdd);
  // causalml's filters (control arm0): bin 0 smoothed to arm0 1 of 2, arm1 2 of 3 (5 rows); bin 1 has no treated
  // rows (D = 0) but its 2 rows count in N; overall arm0 1 of 4, arm1 2 of 3 (its zero count of 0s smoothed).
  BOOST_TEST(close(in_bin.kl, (5.0 / 6) * kl(two_thirds, 0.5) - kl(two_thirds, 0.25)), in_bin.kl);
  const double bin0_gap = two_thirds - 0.5, overall_gap = two_thirds - 0.25;
  BOOST_TEST(close(in_bin.ed, (5.0 / 6) * 2 * bin0_gap * bin0_gap - 2 * overall_gap * overall_gap), in_bin.ed);
}

BOOST_AUTO_TEST_CASE(a_bin_of_one_reward_scores_zero_in_the_filters) {
  // Bin 1 has no reward at all: causalml's KL is 0·ln 0 = NaN there; every filter scores that node 0 (all its rates
  // are 0), while its rows still count in N. Bin 0: arm0 1 of 2, arm1 2 of 2 (smoothed 2 of 3); N = 9.
  const CellCounts cells = cells_of(2, {{1, 1}, {0, 2}, {3, 0}, {2, 0}, {0, 0}, {0, 0}});
  const FeatureScores s = score_feature(cells, HieReference::InBin, 0);
  const double two_thirds = 2.0 / 3;
  // Overall: arm0 1 of 5, arm1 2 of 4.
  BOOST_TEST(close(s.kl, (5.0 / 9) * kl(two_thirds, 0.5) - kl(0.5, 0.2)), s.kl);
  BOOST_TEST(close(s.ed, (5.0 / 9) * 2 * (1.0 / 36) - 2 * 0.09), s.ed);
  BOOST_TEST(close(s.chi, (5.0 / 9) * ((1.0 / 36) / 0.5 + (1.0 / 36) / 0.5) - (0.09 / 0.2 + 0.09 / 0.8)), s.chi);
  // No reward anywhere: every filter is 0 (causalml: KL NaN, ED and Chi 0).
  const FeatureScores none =
      score_feature(cells_of(3, {{2, 0}, {1, 0}, {4, 0}, {3, 0}, {0, 0}, {5, 0}}), HieReference::InBin, 1);
  BOOST_TEST((none.kl == 0.0 && none.ed == 0.0 && none.chi == 0.0));
}

BOOST_AUTO_TEST_CASE(a_constant_feature_scores_zero) {
  const std::vector<float> x(12, 7.0f);
  const std::vector<std::int32_t> arm = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
  const std::vector<std::uint8_t> reward = {1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0};
  const FeatureBins bins = bin_feature(x, false, 10, Missing::Bin, "x");
  BOOST_TEST(bins.per_value);
  BOOST_TEST(bins.value_bins == 1);
  BOOST_TEST(bins.edges == (std::vector<double>{7}), boost::test_tools::per_element());
  const CellCounts cells = count_cells(bins, arm, 3, reward);
  for (const HieReference reference : {HieReference::InBin, HieReference::Global}) {
    for (int control = 0; control < 3; ++control) {
      const FeatureScores s = score_feature(cells, reference, control);
      BOOST_TEST(s.hie == 0.0);
      BOOST_TEST(s.hdd == 0.0);
      BOOST_TEST(s.kl == 0.0);
      BOOST_TEST(s.ed == 0.0);
      BOOST_TEST(s.chi == 0.0);
      BOOST_TEST(s.mi == 0.0);
    }
  }
}

BOOST_AUTO_TEST_CASE(combine_is_eq1_with_min_max) {
  const std::vector<double> hie = {0.2, 0.2, 0.2}, hdd = {1, 3, 2};
  BOOST_TEST(combine(hie, hdd, 0.5, 0.5) == (std::vector<double>{0, 0.5, 0.25}), boost::test_tools::per_element());
  BOOST_TEST(combine(hie, hie, 0.5, 0.5) == (std::vector<double>{0, 0, 0}), boost::test_tools::per_element());
  const std::vector<double> a = {0, 1, 0.5}, b = {2, 0, 1};
  BOOST_TEST(combine(a, b, 0.3, 0.7) == (std::vector<double>{0.7, 0.3, 0.3 * 0.5 + 0.7 * 0.5}),
             boost::test_tools::per_element());
  BOOST_TEST(combine(std::vector<double>{}, std::vector<double>{}, 0.5, 0.5).empty());
  BOOST_TEST(combine(std::vector<double>{4}, std::vector<double>{-1}, 0.5, 0.5) == (std::vector<double>{0}),
             boost::test_tools::per_element());
}

namespace {

/// The whitespace-separated tokens of tests/data/cmab_reference_cases.txt ('#' lines skipped); numbers through
/// strtod / strtof, which read "nan" and give back the exact doubles / float32 values Python wrote.
class Tokens {
 public:
  explicit Tokens(const std::string& path) {
    std::ifstream in(path);
    BOOST_TEST_REQUIRE(in.good(), "cannot open " << path);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream words(line);
      for (std::string word; words >> word;) tokens_.push_back(word);
    }
  }
  bool done() const { return next_ == tokens_.size(); }
  const std::string& word() {
    BOOST_TEST_REQUIRE(next_ < tokens_.size(), "the fixture ends early");
    return tokens_[next_++];
  }
  void expect(const std::string& keyword) {
    const std::string& got = word();
    BOOST_TEST_REQUIRE(got == keyword, "fixture: expected '" << keyword << "', got '" << got << "'");
  }
  long long integer() { return std::stoll(word()); }
  double real() { return std::strtod(word().c_str(), nullptr); }
  float single() { return std::strtof(word().c_str(), nullptr); }
  std::vector<double> reals(std::size_t n) {
    std::vector<double> out(n);
    for (double& v : out) v = real();
    return out;
  }

 private:
  std::vector<std::string> tokens_;
  std::size_t next_ = 0;
};

std::string reference_path() {
  const char* root = std::getenv("BANDITFS_TEST_DATA");
  BOOST_TEST_REQUIRE(root != nullptr, "BANDITFS_TEST_DATA is not set (run the test through ctest)");
  return std::string(root) + "/cmab_reference_cases.txt";
}

void check_scores(const FeatureScores& got, const std::vector<double>& expected) {
  const double values[] = {got.hie, got.hdd, got.kl, got.ed, got.chi, got.mi};
  const char* const names[] = {"hie", "hdd", "kl", "ed", "chi", "mi"};
  for (std::size_t k = 0; k < 6; ++k)
    BOOST_TEST(close(values[k], expected[k]), names[k] << " = " << values[k] << " vs " << expected[k]);
}

/// One feature of a reference case: bins, cells and both HIE readings' scores against the fixture; returns the
/// (in-bin HIE, global HIE, HDD) for eq. 1.
std::array<double, 3> check_reference_feature(Tokens& in, const std::vector<std::int32_t>& arm,
                                              const std::vector<std::uint8_t>& reward, int arms, int control,
                                              int bin_count) {
  in.expect("feature");
  const std::string name = in.word();
  const bool categorical = in.integer() != 0;
  std::vector<float> x(arm.size());
  for (float& v : x) v = in.single();
  BOOST_TEST_CONTEXT("feature " << name) {
    const FeatureBins bins = bin_feature(x, categorical, bin_count, Missing::Bin, name);
    in.expect("bins");
    BOOST_TEST(bins.per_value == (in.integer() != 0));
    BOOST_TEST(bins.value_bins == in.integer());
    const std::vector<double> edges = in.reals(static_cast<std::size_t>(in.integer()));
    BOOST_TEST_REQUIRE(bins.edges.size() == edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e)
      BOOST_TEST(close(bins.edges[e], edges[e]), "edge " << e << " = " << bins.edges[e] << " vs " << edges[e]);
    const CellCounts cells = count_cells(bins, arm, arms, reward);
    in.expect("cells");
    BOOST_TEST_REQUIRE(cells.count.size() == static_cast<std::size_t>(in.integer()));
    for (const std::int64_t c : cells.count) BOOST_TEST(c == in.integer());
    std::array<double, 3> eq1_inputs{};
    for (const HieReference reference : {HieReference::InBin, HieReference::Global}) {
      in.expect("scores");
      BOOST_TEST(in.word() == (reference == HieReference::InBin ? "in-bin" : "global"));
      const FeatureScores s = score_feature(cells, reference, control);
      check_scores(s, in.reals(6));
      eq1_inputs[reference == HieReference::InBin ? 0 : 1] = s.hie;
      eq1_inputs[2] = s.hdd;
    }
    return eq1_inputs;
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_CASE(matches_the_numpy_reference_on_three_random_logs) {
  // Regenerate with /usr/bin/python3 tests/data/cmab_reference.py (3 arms, categorical and NaN columns, ties, a
  // rare level, a constant and an all-NaN column).
  Tokens in(reference_path());
  int cases = 0;
  while (!in.done()) {
    in.expect("case");
    const auto rows = static_cast<std::size_t>(in.integer());
    const auto features = static_cast<std::size_t>(in.integer());
    const int arms = static_cast<int>(in.integer()), control = static_cast<int>(in.integer());
    const int bins = static_cast<int>(in.integer());
    const double alpha_hie = in.real(), alpha_hdd = in.real();
    std::vector<std::int32_t> arm(rows);
    std::vector<std::uint8_t> reward(rows);
    in.expect("arm");
    for (auto& a : arm) a = static_cast<std::int32_t>(in.integer());
    in.expect("reward");
    for (auto& r : reward) r = static_cast<std::uint8_t>(in.integer());
    BOOST_TEST_CONTEXT("case " << cases) {
      std::vector<double> hie_in_bin, hie_global, hdd;
      for (std::size_t f = 0; f < features; ++f) {
        const auto [in_bin, global, divergence] = check_reference_feature(in, arm, reward, arms, control, bins);
        hie_in_bin.push_back(in_bin);
        hie_global.push_back(global);
        hdd.push_back(divergence);
      }
      for (const auto* hie : {&hie_in_bin, &hie_global}) {
        in.expect("combined");
        in.word();  // the reading, in the order written
        const std::vector<double> got = combine(*hie, hdd, alpha_hie, alpha_hdd);
        const std::vector<double> expected = in.reals(features);
        for (std::size_t f = 0; f < features; ++f)
          BOOST_TEST(close(got[f], expected[f]), "combined[" << f << "] = " << got[f] << " vs " << expected[f]);
      }
    }
    ++cases;
  }
  BOOST_TEST(cases == 3);
}

BOOST_AUTO_TEST_SUITE_END()

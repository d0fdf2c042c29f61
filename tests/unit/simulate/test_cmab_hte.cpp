// Simulated contextual-bandit logs after [CMAB §3.1]: structure, the h_j standardisation, determinism,
// column blocks generated on demand, the arm × h reward design, file round trips and errors.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numbers>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "expect_error.hpp"
#include "simulate/cmab_hte.hpp"

using namespace bfs;
using bfs::test::expect_config_error;

namespace {

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  // memcmp of an empty vector's data() (possibly null) is undefined: compare sizes first.
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

struct Stats {
  double mean = 0, var = 0, fourth = 0;  // central moments
};

template <class Values>
Stats stats_of(const Values& v) {
  Stats s;
  for (const double x : v) s.mean += x;
  s.mean /= static_cast<double>(v.size());
  for (const double x : v) {
    const double d = (x - s.mean) * (x - s.mean);
    s.var += d;
    s.fourth += d * d;
  }
  s.var /= static_cast<double>(v.size());
  s.fourth /= static_cast<double>(v.size());
  return s;
}

double corr(const std::vector<double>& a, const std::vector<double>& b) {
  const Stats sa = stats_of(a), sb = stats_of(b);
  double c = 0;
  for (std::size_t i = 0; i < a.size(); ++i) c += (a[i] - sa.mean) * (b[i] - sb.mean);
  return c / static_cast<double>(a.size()) / std::sqrt(sa.var * sb.var);
}

/// A scratch directory removed with its contents.
struct Scratch {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("banditfs_cmab_hte_" + std::to_string(::getpid()));
  Scratch() { std::filesystem::create_directories(dir); }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string file(const char* name) const { return (dir / name).string(); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cmab_hte)

BOOST_AUTO_TEST_CASE(structure_arms_uniform_columns_standard_normal) {
  const Index n = 30000, p = 12;
  const auto log = simulate_cmab_hte(n, p, 3);
  const LoggedHeader& h = log->header();
  BOOST_TEST(h.origin == "simulate cmab-hte (seed 3)");
  BOOST_TEST(h.rows == n);
  BOOST_TEST(h.cols == p);
  BOOST_TEST(h.feature_names.front() == "x1");
  BOOST_TEST(h.feature_names.back() == "x12");
  BOOST_TEST(h.arm_labels == std::vector<std::string>({"arm0", "arm1", "arm2"}), boost::test_tools::per_element());
  BOOST_TEST(h.has_truth);
  BOOST_TEST(h.truth == std::vector<FeatureId>({0, 1, 2, 3, 4}), boost::test_tools::per_element());
  BOOST_TEST(h.correlational == std::vector<FeatureId>({5, 6}), boost::test_tools::per_element());
  BOOST_TEST(std::all_of(h.categorical.begin(), h.categorical.end(), [](std::uint8_t c) { return c == 0; }));
  // Arms uniform: each count within 5 binomial standard errors of n/3.
  std::array<double, 3> count{};
  for (const auto a : h.arm) ++count[static_cast<std::size_t>(a)];
  const double se = std::sqrt(n * (1.0 / 3.0) * (2.0 / 3.0));
  for (const double c : count) BOOST_TEST(std::abs(c - n / 3.0) < 5.0 * se);
  // Columns N(0, 1): mean within 5/√n of 0, variance within 5·√(2/n) of 1, and no two columns alike.
  const std::vector<float> x = log->columns(0, p);
  for (Index j = 0; j < p; ++j) {
    const std::vector<double> column(x.begin() + j * n, x.begin() + (j + 1) * n);
    const Stats s = stats_of(column);
    BOOST_TEST(std::abs(s.mean) < 5.0 / std::sqrt(n));
    BOOST_TEST(std::abs(s.var - 1.0) < 5.0 * std::sqrt(2.0 / n));
    if (j > 0) {
      const std::vector<double> previous(x.begin() + (j - 1) * n, x.begin() + j * n);
      BOOST_TEST(std::abs(corr(column, previous)) < 5.0 / std::sqrt(n));
    }
  }
}

BOOST_AUTO_TEST_CASE(h_is_standardised_with_the_exact_normal_moments) {
  // The specification's constants (rounded to 6 digits): means 0, 1, 0, 0.398942, 0; sds 1, √2, √15, 0.583819,
  // 0.707107.
  BOOST_TEST(std::abs(cmab_hte_h(1, 0.7) - 0.7) < 1e-15);
  BOOST_TEST(std::abs(cmab_hte_h(2, 0.0) - (0.0 - 1.0) / std::sqrt(2.0)) < 1e-15);
  BOOST_TEST(std::abs(cmab_hte_h(3, 2.0) - 8.0 / std::sqrt(15.0)) < 1e-15);
  BOOST_TEST(std::abs(cmab_hte_h(4, 1.0) - (1.0 - 0.398942) / 0.583819) < 1e-5);
  BOOST_TEST(std::abs(cmab_hte_h(4, -1.0) - (0.0 - 0.398942) / 0.583819) < 1e-5);
  BOOST_TEST(std::abs(cmab_hte_h(5, 0.5) - 1.0 / 0.707107) < 1e-5);
  BOOST_CHECK_THROW(cmab_hte_h(6, 0.0), InternalError);
  // Over 200 000 N(0,1) draws each h_j has mean 0 and sd 1 within 5 standard errors.
  const int draws = 200000;
  Rng rng(11);
  std::vector<double> x(draws);
  for (auto& v : x) v = rng.normal();
  for (int j = 1; j <= 5; ++j) {
    std::vector<double> h(draws);
    for (int i = 0; i < draws; ++i) h[static_cast<std::size_t>(i)] = cmab_hte_h(j, x[static_cast<std::size_t>(i)]);
    const Stats s = stats_of(h);
    const double se_mean = std::sqrt(s.var / draws), se_var = std::sqrt((s.fourth - s.var * s.var) / draws);
    BOOST_TEST_INFO("h" << j << ": mean " << s.mean << ", var " << s.var);
    BOOST_TEST(std::abs(s.mean) < 5.0 * se_mean);
    BOOST_TEST(std::abs(s.var - 1.0) < 5.0 * se_var);
  }
}

BOOST_AUTO_TEST_CASE(same_seed_same_log_and_blocks_equal_a_full_read) {
  const Index n = 1000, p = 15;
  const auto a = simulate_cmab_hte(n, p, 42), b = simulate_cmab_hte(n, p, 42), c = simulate_cmab_hte(n, p, 43);
  BOOST_TEST(a->header().arm == b->header().arm, boost::test_tools::per_element());
  BOOST_TEST(a->header().reward == b->header().reward, boost::test_tools::per_element());
  const std::vector<float> full = a->columns(0, p);
  BOOST_TEST(same_floats(full, b->columns(0, p)));
  BOOST_TEST(!same_floats(full, c->columns(0, p)));
  BOOST_TEST(a->header().arm != c->header().arm);
  for (const auto& [first, count] : {std::pair<Index, Index>{0, 1}, {3, 7}, {14, 1}, {5, 0}, {0, 15}}) {
    const std::vector<float> slice(full.begin() + first * n, full.begin() + (first + count) * n);
    BOOST_TEST(same_floats(a->columns(first, count), slice));
  }
  // A larger p leaves the first columns and the header as they were: column j has its own stream.
  const auto wide = simulate_cmab_hte(n, 40, 42);
  BOOST_TEST(same_floats(wide->columns(0, p), full));
  BOOST_TEST(wide->header().reward == a->header().reward, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(reward_follows_arm_times_h_as_designed) {
  const Index n = 120000, p = 10;
  const auto log = simulate_cmab_hte(n, p, 5);
  const LoggedHeader& h = log->header();
  const std::vector<float> x = log->columns(0, 7);
  // The rewards are Bernoulli(expit η) of the stored floats: mean reward − mean expit(η) within 5 SE, per arm.
  std::array<std::vector<double>, 3> reward, h1, h3, x6;
  std::array<double, 3> expected{};
  for (Index i = 0; i < n; ++i) {
    std::array<float, 7> row{};
    for (std::size_t j = 0; j < 7; ++j) row[j] = x[j * static_cast<std::size_t>(n) + static_cast<std::size_t>(i)];
    const int a = h.arm[static_cast<std::size_t>(i)];
    expected[static_cast<std::size_t>(a)] += 1.0 / (1.0 + std::exp(-cmab_hte_eta(row, a)));
    reward[static_cast<std::size_t>(a)].push_back(h.reward[static_cast<std::size_t>(i)]);
    h1[static_cast<std::size_t>(a)].push_back(cmab_hte_h(1, row[0]));
    h3[static_cast<std::size_t>(a)].push_back(cmab_hte_h(3, row[2]));
    x6[static_cast<std::size_t>(a)].push_back(row[5]);
  }
  for (std::size_t a = 0; a < 3; ++a) {
    const double rows = static_cast<double>(reward[a].size()), rate = stats_of(reward[a]).mean;
    BOOST_TEST_INFO("arm" << a << ": reward rate " << rate << ", expected " << expected[a] / rows);
    BOOST_TEST(std::abs(rate - expected[a] / rows) < 5.0 * std::sqrt(rate * (1 - rate) / rows));
    // x6 moves every arm's reward (correlational); h1 only arm1's, h3 only arm2's.
    const double noise = 5.0 / std::sqrt(rows);
    BOOST_TEST(corr(reward[a], x6[a]) > 0.05);
    BOOST_TEST_INFO("arm" << a << ": corr(reward, h1) " << corr(reward[a], h1[a]) << ", corr(reward, h3) "
                          << corr(reward[a], h3[a]));
    if (a == 1) {
      BOOST_TEST(corr(reward[a], h1[a]) > 0.05);
    } else {
      BOOST_TEST(std::abs(corr(reward[a], h1[a])) < noise);
    }
    if (a == 2) {
      BOOST_TEST(corr(reward[a], h3[a]) > 0.05);
    } else {
      BOOST_TEST(std::abs(corr(reward[a], h3[a])) < noise);
    }
  }
  // arm0 has no treatment effect: its reward rate is that of logit(0.1) + 0.5 x6 − 0.5 x7, a little above 0.1.
  const double rate0 = stats_of(reward[0]).mean;
  BOOST_TEST(rate0 > 0.1);
  BOOST_TEST(rate0 < 0.15);
}

BOOST_AUTO_TEST_CASE(round_trips_through_hdf5_and_csv) {
  Scratch scratch;
  const Index n = 3000, p = 130;  // three column blocks (64 + 64 + 2) streamed by the writer
  const auto log = simulate_cmab_hte(n, p, 8);
  const std::string h5 = scratch.file("log.h5"), csv = scratch.file("log.csv");
  write_logged_hdf5(h5, *log);
  write_logged_csv(csv, *log);
  BOOST_TEST(!std::filesystem::exists(h5 + ".tmp"));
  BOOST_TEST(!std::filesystem::exists(csv + ".tmp"));
  LoggedCsvSpec spec;
  spec.arm = "arm";
  spec.reward = "reward";
  const auto from_h5 = open_logged_hdf5(h5, {});
  const auto from_csv = open_logged_csv(csv, spec);
  for (const LoggedSource* back : {from_h5.get(), from_csv.get()}) {
    BOOST_TEST(back->header().arm == log->header().arm, boost::test_tools::per_element());
    BOOST_TEST(back->header().reward == log->header().reward, boost::test_tools::per_element());
    BOOST_TEST(back->header().arm_labels == log->header().arm_labels, boost::test_tools::per_element());
    BOOST_TEST(back->header().feature_names == log->header().feature_names, boost::test_tools::per_element());
    BOOST_TEST(same_floats(back->columns(60, 10), log->columns(60, 10)));
  }
  BOOST_TEST(same_floats(from_h5->columns(0, p), log->columns(0, p)));
  BOOST_TEST(from_h5->header().truth == log->header().truth, boost::test_tools::per_element());
  BOOST_TEST(from_h5->header().correlational == log->header().correlational, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(bad_sizes_are_config_errors) {
  expect_config_error([] { simulate_cmab_hte(100, 9, 1); }, "simulate cmab-hte: p = 9 is below 10");
  expect_config_error([] { simulate_cmab_hte(1, 10, 1); }, "simulate cmab-hte: n = 1 rows; a log needs at least 2");
  expect_config_error([] { simulate_cmab_hte(2, 10, 1); }, "no rows (seed 1); take a larger n");
}

BOOST_AUTO_TEST_SUITE_END()

// bart: the likelihood and move ratios against tests/data/bart_reference.py, the prior's τ, λ and cuts, the sampler
// against the tree prior (likelihood off), accuracy on Friedman #1, DART's sparsity, round trip, threads, bad input.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "estimators/bart.hpp"
#include "estimators/detail/bart_lanes.hpp"
#include "estimators/estimator.hpp"
#include "test_data.hpp"

using namespace bfs;

namespace {

std::vector<std::vector<double>> reference_lines(const std::string& keyword) {
  const char* root = std::getenv("BANDITFS_TEST_DATA");
  BOOST_TEST_REQUIRE(root != nullptr, "BANDITFS_TEST_DATA is not set (run the test through ctest)");
  std::ifstream in(std::string(root) + "/bart_reference_cases.txt");
  BOOST_TEST_REQUIRE(in.good());
  std::vector<std::vector<double>> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string head;
    words >> head;
    if (head != keyword) continue;
    std::vector<double> values;
    for (std::string w; words >> w;) values.push_back(std::strtod(w.c_str(), nullptr));
    out.push_back(values);
  }
  BOOST_TEST_REQUIRE(!out.empty());
  return out;
}

BartParams quick(int trees, int sweeps, int burn) {
  BartParams params;
  params.n_estimators = trees;
  params.sweeps = sweeps;
  params.burn = burn;
  return params;
}

std::unique_ptr<Model> fit_bart(const BartParams& params, const test::Problem& data, std::uint64_t seed = 7,
                                int threads = 1) {
  return make_bart(params)->fit(data.X, data.y, FitOptions{seed, threads, {}, nullptr});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bart_estimator)

BOOST_AUTO_TEST_CASE(split_likelihood_matches_the_multivariate_normal_reference) {
  for (const auto& c : reference_lines("split")) {
    const double sigma = c[0], tau = c[1];
    const auto n_left = static_cast<std::size_t>(c[2]), n_right = static_cast<std::size_t>(c[3]);
    bart::SplitSums s;
    s.n_left = static_cast<double>(n_left);
    s.n_right = static_cast<double>(n_right);
    for (std::size_t i = 0; i < n_left; ++i) s.sum_left += c[4 + i];
    for (std::size_t i = 0; i < n_right; ++i) s.sum_right += c[4 + n_left + i];
    const double expected = c.back();
    BOOST_TEST(bart::split_log_likelihood(s, sigma, tau) == expected, boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(birth_and_death_prior_ratios_match_the_reference) {
  for (const auto& c : reference_lines("birth")) {
    const bart::BirthProbabilities p{c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
    BOOST_TEST(bart::birth_log_prior_ratio(p) == c[7], boost::test_tools::tolerance(1e-12));
  }
  for (const auto& c : reference_lines("death")) {
    const bart::DeathProbabilities p{c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
    BOOST_TEST(bart::death_log_prior_ratio(p) == c[7], boost::test_tools::tolerance(1e-12));
  }
  // A birth and the death undoing it: the full ratios are each other's inverse when the probabilities correspond.
  const bart::BirthProbabilities birth{0.4, 0.2, 0.0, 0.5, 1.0 / 3, 0.25, 0.5};
  const bart::DeathProbabilities death{0.4, 0.2, 0.0, 0.5, 0.25, 0.5, 1.0 / 3};
  const bart::SplitSums s{6, 2.5, 9, -1.0};
  BOOST_TEST(bart::birth_log_ratio(birth, s, 1.3, 0.4) == -bart::death_log_ratio(death, s, 1.3, 0.4),
             boost::test_tools::tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(prior_scale_tau_and_lambda) {
  Vector y(4);
  y << -1.0, 3.0, 0.5, 2.0;
  BOOST_TEST(bart::tau_of(y, 2.0, 10) == 4.0 / (4.0 * std::sqrt(10.0)), boost::test_tools::tolerance(1e-15));
  // λ = σ̂²·χ²_ν⁻¹(1 − q)/ν; χ²₃⁻¹(0.1) = 0.5843744, checked against the reference's bisection too.
  const double quantile = reference_lines("chi2_3_quantile")[0][1];
  BOOST_TEST(bart::lambda_of(1.0, 3.0, 0.9) * 3.0 == quantile, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::abs(quantile - 0.5843744) < 1e-7);
  BOOST_TEST(bart::lambda_of(2.0, 3.0, 0.9) == 4.0 * quantile / 3.0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(sigma_hat_is_the_ols_residual_sd_or_sd_y) {
  // y = 1 + 2x + e with e = (1, −1, 1, −1, 0) ⊥ (1, x): RSS = 4, n − rank = 5 − 2 = 3.
  Matrix X(5, 1);
  X << 0, 1, 2, 3, 4;
  Vector y(5);
  const double e[5] = {1, -1, -1, 1, 0};
  for (int i = 0; i < 5; ++i) y[i] = 1 + 2 * i + e[i];
  BOOST_TEST(bart::sigma_hat_of(X, y) == std::sqrt(4.0 / 3.0), boost::test_tools::tolerance(1e-12));
  // As many columns as rows: sd(y).
  const Matrix wide = Matrix::Random(5, 5);
  const double mean = y.mean();
  BOOST_TEST(bart::sigma_hat_of(wide, y) == std::sqrt((y.array() - mean).square().sum() / 4.0),
             boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(cuts_equally_spaced_midpoints_or_none) {
  std::vector<float> many(200);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<float>(i);  // 0..199
  const auto spaced = bart::column_cuts(many, 100);
  BOOST_TEST(spaced.size() == 100u);
  BOOST_TEST(spaced.front() == static_cast<float>(199.0 / 101.0));
  BOOST_TEST(spaced.back() == static_cast<float>(199.0 * 100.0 / 101.0));
  const std::vector<float> few{3, 1, 2, 2, 5};
  const auto mid = bart::column_cuts(few, 100);
  BOOST_TEST(mid == (std::vector<float>{1.5f, 2.5f, 4.0f}), boost::test_tools::per_element());
  BOOST_TEST(bart::column_cuts(std::vector<float>{4, 4, 4}, 100).empty());

  Matrix X(4, 2);
  X << 1, 7, 2, 7, 3, 7, 4, 7;
  const auto binned = bart::bin_columns(X, 100);
  BOOST_TEST(binned.cut_counts[0] == 3);
  BOOST_TEST(binned.cut_counts[1] == 0);
  for (Index i = 0; i < 4; ++i) BOOST_TEST(binned.bin(0, i) == i);  // bin = number of cuts ≤ x
}

BOOST_AUTO_TEST_CASE(without_the_likelihood_the_sampler_draws_the_tree_prior) {
  // One column with 6 distinct values (5 midpoint cuts): the mean leaf count per tree must be the prior's, computed
  // exactly by the reference's recursion. Batch means over 20 000 sweeps give the standard error.
  for (const auto& c : reference_lines("leaves")) {
    const int cuts = static_cast<int>(c[0]);
    Matrix X(60, 1);
    for (Index i = 0; i < X.rows(); ++i) X(i, 0) = static_cast<float>(i % (cuts + 1));
    Vector y = Vector::LinSpaced(X.rows(), -1.0, 1.0);
    BartParams params = quick(10, 20000, 0);
    params.alpha = c[1];
    params.beta = c[2];
    params.sparse = false;
    bart::Prior prior{0.5, 1.0, 0.3};
    std::vector<double> per_sweep;
    bart::SamplerOptions options;
    options.likelihood = false;
    options.on_sweep = [&](int, std::span<const bart::SamplerTree> trees) {
      double leaves = 0.0;
      for (const auto& tree : trees) leaves += static_cast<double>(tree.leaves().size());
      per_sweep.push_back(leaves / static_cast<double>(trees.size()));
    };
    Rng rng(42);
    bart::run_sampler(bart::bin_columns(X, 100), y, params, prior, rng, options);
    constexpr std::size_t kBatches = 100;
    const std::size_t batch = per_sweep.size() / kBatches;
    std::vector<double> means(kBatches);
    for (std::size_t b = 0; b < kBatches; ++b)
      means[b] = std::accumulate(per_sweep.begin() + b * batch, per_sweep.begin() + (b + 1) * batch, 0.0) / batch;
    const double mean = std::accumulate(means.begin(), means.end(), 0.0) / kBatches;
    double var = 0.0;
    for (double m : means) var += (m - mean) * (m - mean);
    const double se = std::sqrt(var / (kBatches - 1) / kBatches);
    BOOST_TEST_MESSAGE("cuts " << cuts << ": mean leaves " << mean << " prior " << c[3] << " se " << se);
    BOOST_TEST(std::abs(mean - c[3]) < 3.0 * se);
    BOOST_TEST(se < 0.02);  // the check has teeth
  }
}

BOOST_AUTO_TEST_CASE(friedman1_test_r2_at_least_0_9) {
  const auto train = test::friedman1(500, 10, 1.0, 11);
  const auto test_rows = test::friedman1(1000, 10, 1.0, 12);
  const auto model = fit_bart(quick(200, 600, 100), train);
  const double r2 = test::r2(test_rows.y, model->predict(test_rows.X));
  BOOST_TEST_MESSAGE("bart friedman1 test R2 " << r2);
  BOOST_TEST(r2 >= 0.9);
  // fitted_values() is predict() on the training rows, summed in another order.
  const Vector* fitted = model->fitted_values();
  BOOST_TEST_REQUIRE(fitted != nullptr);
  BOOST_TEST((*fitted - model->predict(train.X)).cwiseAbs().maxCoeff() < 1e-9);
}

BOOST_AUTO_TEST_CASE(dart_puts_most_splits_on_the_true_columns) {
  const auto train = test::friedman1(500, 50, 1.0, 21);
  const auto model = fit_bart(quick(20, 1000, 0), train);
  const SplitCounts* counts = model->split_counts();
  BOOST_TEST_REQUIRE(counts != nullptr);
  BOOST_TEST_REQUIRE(counts->mean.size() == 50u);
  // DART is on from sweep M/2; the mean counts run over all sweeps, so take the last sweep's forest.
  const double total = std::accumulate(counts->last.begin(), counts->last.end(), 0.0);
  const double on_truth = std::accumulate(counts->last.begin(), counts->last.begin() + 5, 0.0);
  BOOST_TEST_MESSAGE("DART splits on x1..x5: " << on_truth << " of " << total);
  BOOST_TEST(total > 0.0);
  BOOST_TEST(on_truth >= 0.8 * total);
}

// The cuts by their definition (the header's: sort, unique, midpoints below numcut distinct values, else equally
// spaced; rounded to float, merged neighbours dropped) and the bins by std::upper_bound, on columns with ties, ±0,
// few values and many: bin_columns finds the distinct values and the bins by other means.
BOOST_AUTO_TEST_CASE(cuts_and_bins_equal_their_definition) {
  const auto reference_cuts = [](std::vector<float> sorted, int numcut) {
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<float> out;
    if (sorted.size() < 2) return out;
    const double lo = sorted.front(), hi = sorted.back();
    for (std::size_t k = 1; k < (static_cast<int>(sorted.size()) < numcut ? sorted.size() : std::size_t(numcut) + 1);
         ++k) {
      const double c = static_cast<int>(sorted.size()) < numcut ? 0.5 * (double(sorted[k - 1]) + double(sorted[k]))
                                                                : lo + (hi - lo) * double(k) / (numcut + 1.0);
      const auto f = static_cast<float>(c);
      if (f > sorted.front() && (out.empty() || f > out.back())) out.push_back(f);
    }
    return out;
  };
  std::mt19937_64 gen(7);
  std::normal_distribution<float> normal;
  Matrix X(301, 5);
  for (Index i = 0; i < X.rows(); ++i) {
    X(i, 0) = normal(gen);                                        // continuous
    X(i, 1) = static_cast<float>(gen() % 7);                      // 7 values
    X(i, 2) = (i % 2 == 0) ? 0.0f : -0.0f;                        // ±0: one value, no cut
    X(i, 3) = static_cast<float>(gen() % 150) * 0.5f;             // up to 150 values, with ties
    X(i, 4) = 1e6f + static_cast<float>(gen() % 1000) * 0.0625f;  // large, close values: spaced cuts merge
  }
  for (int numcut : {1, 5, 100}) {
    const auto binned = bart::bin_columns(X, numcut);
    for (Index v = 0; v < X.cols(); ++v) {
      std::vector<float> column(static_cast<std::size_t>(X.rows()));
      for (Index i = 0; i < X.rows(); ++i) column[static_cast<std::size_t>(i)] = X(i, v);
      const auto expected = reference_cuts(column, numcut);
      BOOST_TEST(binned.cuts[static_cast<std::size_t>(v)] == expected, boost::test_tools::per_element());
      for (Index i = 0; i < X.rows(); ++i) {
        const auto at_most = std::upper_bound(expected.begin(), expected.end(), X(i, v)) - expected.begin();
        BOOST_TEST(binned.bin(static_cast<std::int32_t>(v), i) == at_most);
      }
    }
  }
}

// The pass between two tree updates and the forest's fit: the AVX-512 path (when the CPU has it) equals the scalar
// loop bit for bit, and both equal the definition: r ← (r − μ_now) + μ_next, each leaf's lanes summed in row order,
// and fit = (y − r) + μ. Leaf counts 1, 7,
// 16 (registers) and 17 (scalar); node ids up to 20 (a gather, not a permute); 1003 rows (a tail of 3).
BOOST_AUTO_TEST_CASE(the_pass_equals_its_definition_on_every_path) {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal;
  const std::size_t n = 1003;
  for (std::size_t leaves : {1u, 7u, 16u, 17u}) {
    for (std::size_t nodes : {leaves, leaves + 3}) {
      std::vector<double> mu_now(nodes), mu_next(nodes), start(n);
      for (double& m : mu_now) m = normal(gen);
      for (double& m : mu_next) m = normal(gen);
      for (double& r : start) r = 100.0 * normal(gen);
      std::vector<std::int32_t> leaf_ids(nodes);
      std::iota(leaf_ids.begin(), leaf_ids.end(), 0);
      std::shuffle(leaf_ids.begin(), leaf_ids.end(), gen);
      leaf_ids.resize(leaves);
      std::sort(leaf_ids.begin(), leaf_ids.end());
      std::vector<std::int32_t> now(n), next(n);
      for (std::size_t i = 0; i < n; ++i) {
        now[i] = static_cast<std::int32_t>(gen() % nodes);
        next[i] = leaf_ids[gen() % leaves];
      }
      std::vector<double> expected = start, expected_sums(nodes * bart::kLanes, 0.0);
      for (std::size_t i = 0; i < n; ++i) {
        expected[i] =
            (expected[i] - mu_now[static_cast<std::size_t>(now[i])]) + mu_next[static_cast<std::size_t>(next[i])];
        expected_sums[static_cast<std::size_t>(next[i]) * bart::kLanes + i % bart::kLanes] += expected[i];
      }
      std::vector<double> y(n), expected_fit(n);
      for (std::size_t i = 0; i < n; ++i) {
        y[i] = normal(gen);
        expected_fit[i] = (y[i] - start[i]) + mu_now[static_cast<std::size_t>(now[i])];
      }
      for (bool simd : {false, true}) {
        std::vector<double> residual = start, sums(nodes * bart::kLanes, -1.0), fit(n);
        bart::advance_residual(residual, now, mu_now, next, mu_next, leaf_ids, sums, simd);
        BOOST_TEST(residual == expected, boost::test_tools::per_element());
        BOOST_TEST(sums == expected_sums, boost::test_tools::per_element());
        bart::forest_fit(y, start, now, mu_now, fit, simd);
        BOOST_TEST(fit == expected_fit, boost::test_tools::per_element());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(round_trip_threads_and_seeds) {
  const auto data = test::friedman1(120, 6, 1.0, 31);
  const BartParams params = quick(10, 60, 10);
  const auto one = fit_bart(params, data, 5, 1);
  const auto two = fit_bart(params, data, 5, 2);
  BOOST_TEST(one->serialize() == two->serialize());
  BOOST_TEST(fit_bart(params, data, 6, 1)->serialize() != one->serialize());
  const auto restored = make_bart(params)->deserialize(one->serialize());
  const Vector a = one->predict(data.X), b = restored->predict(data.X);
  BOOST_TEST(a == b);
  BOOST_TEST(restored->split_counts()->mean == one->split_counts()->mean, boost::test_tools::per_element());
  BOOST_TEST(restored->split_counts()->last == one->split_counts()->last, boost::test_tools::per_element());
  // predict() is the mean forest of the 50 kept sweeps around ȳ: the kept trees' arena, walked as an ensemble,
  // gives the sampler's own mean fit (up to the order of the sums).
  BOOST_TEST(one->trees()->trees.size() == 50u * 10u);
  BOOST_TEST_REQUIRE(one->fitted_values() != nullptr);
  BOOST_TEST((a - *one->fitted_values()).cwiseAbs().maxCoeff() < 1e-9);
  BOOST_TEST(one->trees()->base_score == data.y.mean());
  std::string bytes = one->serialize();
  bytes.resize(bytes.size() / 2);
  BOOST_CHECK_THROW(make_bart(params)->deserialize(bytes), InputError);
}

BOOST_AUTO_TEST_CASE(refuses_constant_targets_binary_tasks_and_a_burn_in_past_the_sweeps) {
  auto data = test::friedman1(50, 5, 1.0, 41);
  data.y.setConstant(2.0);
  BOOST_CHECK_THROW(fit_bart(quick(5, 10, 0), data), InputError);
  EstimatorConfig binary;  // the registry refuses a task outside the list's column
  binary.name = EstimatorName::Bart;
  binary.bart = quick(5, 10, 0);
  BOOST_CHECK_THROW(make_estimator(binary, Task::Binary), ConfigError);
  BOOST_CHECK_THROW(make_bart(quick(5, 10, 10)), ConfigError);
  data.y[3] = std::nan("");
  BOOST_CHECK_THROW(fit_bart(quick(5, 10, 0), data), InputError);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_CASE(the_estimator_list_matches_the_registry) {
  // One list (BFS_ESTIMATORS, config/estimator_config.hpp) generates the names, the config members, the schema's keys
  // and the registry: every name builds an estimator reporting that name, for the task it supports.
  for (const std::string& name : estimator_names()) {
    EstimatorConfig config;
    config.name = *enum_from_name<EstimatorName>(name);
    const Task task = config.name == EstimatorName::Svm ? Task::Binary : Task::Regression;
    BOOST_TEST(make_estimator(config, task)->name() == name);
  }
  BOOST_TEST(estimator_names().size() == 7u);
}

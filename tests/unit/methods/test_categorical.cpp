// FIRST and FUSE on a table with a categorical feature and missing cells (data/feature_layout.hpp): the missing
// cells become their column's mean (methods/common/column_major.hpp); a categorical feature is one factor of FIRST
// (its distances on all its indicator columns, the shared forward search unchanged) and one feature of FUSE.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>

#include "../methods_bandit/categorical_data.hpp"
#include "data/source.hpp"
#include "methods/common/column_major.hpp"
#include "methods/first/first.hpp"
#include "methods/first/nanne.hpp"
#include "methods/fuse/reward.hpp"

using namespace bfs;

namespace {

/// The categorical table with `noise` N(0,1) features appended after its 4 (numeric, one column each).
Dataset wide_table(Index n, std::uint64_t seed, Index noise) {
  Dataset data = testing::categorical_table(n, seed, /*with_missing=*/true).data;
  append_noise_features(data, noise, seed, 0, 0);  // numeric features of the layout too
  return data;
}

/// Algorithm 3 with TotalIndex::estimate per candidate (no shared search): the forward set and V̂ after each step.
std::pair<std::vector<std::size_t>, std::vector<double>> forward_by_estimate(const first::TotalIndex& t,
                                                                             std::uint64_t seed) {
  std::vector<std::size_t> a, candidates(t.features());
  std::vector<double> explained;
  for (std::size_t j = 0; j < t.features(); ++j) candidates[j] = j;
  for (std::uint64_t step = 1; !candidates.empty(); ++step) {
    const auto outer = first::outer_rows(t.rows(), 0, seed, first::kForwardPhase, step);
    std::vector<double> v(candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      std::vector<std::size_t> u = a;
      u.push_back(candidates[c]);
      v[c] = t.var_y() - t.estimate(u, outer);
    }
    const auto best = static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
    if (!(v[best] > (explained.empty() ? 0.0 : explained.back()))) break;
    a.push_back(candidates[best]);
    explained.push_back(v[best]);
    candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return {a, explained};
}

}  // namespace

BOOST_AUTO_TEST_CASE(column_major_fills_a_missing_cell_with_its_columns_mean) {
  const Dataset data = testing::categorical_table(50, 1, /*with_missing=*/true).data;
  const methods::ColumnMajor x = methods::column_major(data);
  BOOST_TEST(x.imputed == static_cast<std::size_t>(data.missing[2]));
  double sum = 0.0;
  std::size_t present = 0;
  for (Index i = 0; i < data.rows(); ++i) {
    if (std::isnan(data.X(i, 4))) continue;
    sum += static_cast<double>(data.X(i, 4));
    ++present;
  }
  const double mean = sum / static_cast<double>(present);
  for (std::size_t r = 0; r < x.rows; ++r) {
    const double expected = std::isnan(data.X(static_cast<Index>(r), 4)) ? mean : data.X(static_cast<Index>(r), 4);
    BOOST_TEST(x.column(4)[r] == expected);
  }
  for (const double v : x.values) BOOST_TEST(!std::isnan(v));
  // Complete data: nothing changes, nothing is counted.
  const methods::ColumnMajor complete = methods::column_major(testing::categorical_table(50, 1, false).data);
  BOOST_TEST(complete.imputed == 0u);
}

BOOST_AUTO_TEST_CASE(first_estimates_a_categorical_factor_on_all_its_columns) {
  const Dataset data = wide_table(300, 2, 16);
  methods::ColumnMajor x = methods::column_major(data);
  methods::standardise(x);
  const std::vector<double> y(data.y.begin(), data.y.end());
  const first::TotalIndex t(x, y, 2, data.layout);
  BOOST_TEST(t.features() == 20u);
  BOOST_TEST(t.cols() == 22u);
  BOOST_TEST(t.columns_of(std::vector<std::size_t>{4, 1}) == (std::vector<std::size_t>{1, 2, 3, 6}));
  const auto outer = first::outer_rows(t.rows(), 0, 0, 0, 0);
  const std::vector<std::size_t> colour_columns{1, 2, 3};
  BOOST_TEST(t.estimate({1}, outer) == first::detail::mean_neighbourhood_variance(x, y, colour_columns, 2, outer));
}

// The forward search walks A's lists for the numeric candidates and estimates the categorical one on its own:
// the same forward path, bit for bit, as estimating every candidate; colour enters as one factor and keeps ψ̂ > 0.
BOOST_AUTO_TEST_CASE(first_selects_the_categorical_feature_as_one_factor) {
  const Dataset data = wide_table(300, 3, 16);
  methods::ColumnMajor x = methods::column_major(data);
  methods::standardise(x);
  const first::TotalIndex t(std::move(x), std::vector<double>(data.y.begin(), data.y.end()), 2, data.layout);
  first::FirstSettings settings;
  settings.seed = 4;
  LocalExecutor executor(2);
  const first::FirstOutcome out = first::run_first(t, settings, executor);
  const auto [forward, explained] = forward_by_estimate(t, settings.seed);
  BOOST_TEST(out.forward == forward);
  BOOST_REQUIRE(out.forward_explained.size() == explained.size());
  BOOST_TEST(std::memcmp(out.forward_explained.data(), explained.data(), explained.size() * sizeof(double)) == 0);
  BOOST_REQUIRE(out.psi.size() == 20u);  // one per feature
  BOOST_REQUIRE(!out.forward.empty());
  BOOST_TEST(out.forward.front() == 1u);  // colour explains the most (3·effect against x0's unit variance)
  BOOST_TEST(out.psi[1] > 0.0);
  BOOST_TEST(out.psi[0] > 0.0);
}

BOOST_AUTO_TEST_CASE(fuse_rewards_a_categorical_feature_on_all_its_columns) {
  Dataset data = testing::categorical_table(160, 5, /*with_missing=*/true).data;
  for (Index i = 0; i < data.rows(); ++i) data.y(i) = data.y(i) > 0.0 ? 1.0 : 0.0;
  fuse::TrainingSet set{methods::column_major(data), {}};
  for (Index i = 0; i < data.rows(); ++i) set.labels.push_back(data.y(i) > 0.5 ? 1 : 0);
  methods::standardise(set);
  const fuse::KnnReward by_feature(set, 3, data.layout);
  const fuse::KnnReward by_column(set, 3);
  BOOST_TEST(by_feature.features() == 4);
  BOOST_TEST(by_column.features() == 6);
  std::vector<std::size_t> validation;
  for (std::size_t r = 0; r < set.rows; r += 3) validation.push_back(r);
  const std::vector<std::int32_t> colour{1}, colour_columns{1, 2, 3}, x2_colour{2, 1}, x2_colour_columns{1, 2, 3, 4};
  BOOST_TEST(by_feature.scores(colour, validation) == by_column.scores(colour_columns, validation));
  BOOST_TEST(by_feature.value(x2_colour, validation) == by_column.value(x2_colour_columns, validation));
  BOOST_TEST(by_feature.value(colour, validation) > 0.7);  // the sign of y follows the level more than anything
}

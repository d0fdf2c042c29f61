// Binary simulation (SimulateSpec::binary): y ~ Bernoulli(Φ of the batch-standardised f). X must be the regression
// batch's X bit for bit (the labels are drawn after it), the labels 0/1, balanced, and more often 1 where f is high.
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <span>

#include "core/error.hpp"
#include "simulate/dgp.hpp"

using namespace bfs;

namespace {

SimulateSpec binary_spec(Dgp dgp, Index n, Index p, std::uint64_t seed) {
  SimulateSpec spec{dgp, n, p, seed};
  spec.binary = true;
  return spec;
}

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(binary_dgp)

BOOST_AUTO_TEST_CASE(labels_are_zero_one_and_x_is_the_regression_x) {
  for (const Dgp name : xy_dgps()) {
    BOOST_TEST_CONTEXT(name_of(name)) {
      const Dataset regression = simulate({name, 300, 10, 12}, 2);
      const Dataset binary = simulate(binary_spec(name, 300, 10, 12), 2);
      BOOST_TEST(same_bits(regression.X, binary.X));
      BOOST_TEST((binary.y.array() == 0.0 || binary.y.array() == 1.0).all());
      BOOST_TEST(binary.truth == regression.truth, boost::test_tools::per_element());
      BOOST_TEST(binary.has_truth);
    }
  }
}

BOOST_AUTO_TEST_CASE(friedman1_is_balanced_and_follows_f) {
  const Dataset d = simulate(binary_spec(Dgp::Friedman1, 2000, 10, 3));
  double f1 = 0, f0 = 0;
  Index n1 = 0;
  for (Index i = 0; i < d.rows(); ++i) {
    const double f = dgp_mean(Dgp::Friedman1, std::span<const float>(d.X.data() + i * d.cols(), d.cols()));
    if (d.y[i] == 1.0) {
      f1 += f;
      ++n1;
    } else {
      f0 += f;
    }
  }
  const double share = static_cast<double>(n1) / static_cast<double>(d.rows());
  BOOST_TEST(share > 0.35);
  BOOST_TEST(share < 0.65);
  BOOST_TEST(f1 / static_cast<double>(n1) > f0 / static_cast<double>(d.rows() - n1));
}

BOOST_AUTO_TEST_CASE(deterministic_and_fresh_per_batch) {
  const SimulateSpec spec = binary_spec(Dgp::Friedman1, 400, 6, 8);
  BOOST_TEST((simulate(spec, 1).y.array() == simulate(spec, 1).y.array()).all());
  BOOST_TEST(!(simulate(spec, 0).y.array() == simulate(spec, 1).y.array()).all());
  // The stacked file (banditfs simulate --binary --periods) holds the same batches.
  const Dataset stacked = simulate_dataset(spec, 3);
  BOOST_TEST(stacked.num_periods() == 3);
  BOOST_TEST((stacked.y.segment(400, 400).array() == simulate(spec, 1).y.array()).all());
  BOOST_TEST(simulate_dataset(spec, 1).period_offsets.empty());
}

BOOST_AUTO_TEST_CASE(the_source_draws_binary_batches) {
  const SimulateSpec spec = binary_spec(Dgp::Liang, 100, 7, 5);
  auto source = make_simulated_source(spec, 2, true, 1);
  const Dataset period = source->load_period(1);
  BOOST_TEST((period.y.array() == simulate(spec, 1).y.array()).all());
  BOOST_TEST(source->describe().find("binary") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(zero_spread_of_f_is_an_error) {
  try {
    simulate(binary_spec(Dgp::Friedman1, 1, 6, 2));
    BOOST_ERROR("no exception for n = 1");
  } catch (const ConfigError& e) {
    BOOST_TEST(std::string(e.what()).find("data.n = 1") != std::string::npos);
    BOOST_TEST(std::string(e.what()).find("standard deviation is 0") != std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// validate_dataset, gather and default names.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "data/dataset.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::random_dataset;

BOOST_AUTO_TEST_SUITE(dataset)

BOOST_AUTO_TEST_CASE(valid_data_passes) {
  Dataset d = random_dataset(20, 4);
  d.period_offsets = {0, 5, 20};
  d.period_labels = {7, 8};
  d.truth = {0, 3};
  d.has_truth = true;
  BOOST_CHECK_NO_THROW(validate_dataset(d));
  BOOST_TEST(d.num_periods() == 2);
}

BOOST_AUTO_TEST_CASE(each_problem_is_named) {
  Dataset base = random_dataset(10, 3);
  base.origin = "data.h5";
  {
    Dataset d = base;  // NaN in X is a missing cell; NaN in y is not
    d.X(7, 2) = std::numeric_limits<float>::quiet_NaN();
    BOOST_CHECK_NO_THROW(validate_dataset(d));
    d.y[3] = std::numeric_limits<double>::quiet_NaN();
    expect_error<InputError>([&] { validate_dataset(d); }, "data.h5: y has NaN at row 3");
  }
  {
    Dataset d = base;
    d.X(1, 0) = -std::numeric_limits<float>::infinity();
    expect_error<InputError>([&] { validate_dataset(d); }, "data.h5: X has -Inf at row 1, column 'x1'");
  }
  {
    Dataset d = base;
    d.y[4] = std::numeric_limits<double>::infinity();
    expect_error<InputError>([&] { validate_dataset(d); }, "data.h5: y has +Inf at row 4");
  }
  {
    Dataset d = base;
    d.X.resize(10, 0);
    d.feature_names.clear();
    expect_error<InputError>([&] { validate_dataset(d); }, "data.h5: p = 0 (no feature columns)");
  }
  {
    Dataset d = base;
    d.y.resize(9);
    expect_error<InputError>([&] { validate_dataset(d); }, "data.h5: y has 9 rows but X has 10");
  }
  {
    Dataset d = base;
    d.feature_names.pop_back();
    expect_error<InputError>([&] { validate_dataset(d); }, "2 feature names but X has 3 columns");
  }
  {
    Dataset d = base;
    d.feature_names[2] = "x1";
    expect_error<InputError>([&] { validate_dataset(d); }, "duplicate feature name 'x1'");
  }
  {
    Dataset d = base;
    d.period_offsets = {0, 6, 6, 10};
    expect_error<InputError>([&] { validate_dataset(d); }, "not increasing");
  }
  {
    Dataset d = base;
    d.period_offsets = {0, 6, 9};
    expect_error<InputError>([&] { validate_dataset(d); }, "end at 9 but there are 10 rows");
  }
  {
    Dataset d = base;
    d.truth = {3};
    expect_error<InputError>([&] { validate_dataset(d); }, "truth index 3 out of range");
  }
}

BOOST_AUTO_TEST_CASE(gather_copies_rows_and_columns) {
  Dataset d = random_dataset(6, 5);
  const Index rows[] = {4, 0, 4};
  const FeatureId cols[] = {1, 3};
  Matrix m = gather(d.X, rows, cols);
  BOOST_TEST(m.rows() == 3);
  BOOST_TEST(m.cols() == 2);
  BOOST_TEST(m(0, 0) == d.X(4, 1));
  BOOST_TEST(m(1, 1) == d.X(0, 3));
  BOOST_TEST(m(2, 1) == d.X(4, 3));
  Vector v = gather(d.y, rows);
  BOOST_TEST(v[1] == d.y[0]);
  BOOST_TEST(default_feature_names(3) == std::vector<std::string>({"x1", "x2", "x3"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_CASE(a_target_outside_the_arithmetic_is_refused) {
  // Finite, but every R² would be NaN (squares overflow) or 0/0 (a spread below the smallest normal double).
  Dataset base = random_dataset(10, 3);
  base.origin = "data.h5";
  {
    Dataset d = base;
    for (Index i = 0; i < d.rows(); ++i) d.y[i] = (i % 2 == 0 ? 1e308 : -1e308) * (1.0 + 0.01 * static_cast<double>(i));
    expect_error<InputError>([&] { validate_dataset(d); },
                             "data.h5: y is too large for the arithmetic: the sum of its squares overflows a double "
                             "(largest |y| = 1.09e+308 at row 9); divide y by a power of ten");
  }
  {
    Dataset d = base;
    d.y *= 1e-310;  // subnormal values
    expect_error<InputError>([&] { validate_dataset(d); }, "data.h5: y varies too little for the arithmetic");
    expect_error<InputError>([&] { check_finite(d, 100); }, "multiply y by a power of ten");
  }
  {
    // A constant target is left to the methods (each says it in its own terms); a single tiny value among ordinary
    // ones, or a target scaled by 1e-150, is fine.
    Dataset d = base;
    d.y.setConstant(1e-310);
    BOOST_CHECK_NO_THROW(validate_dataset(d));
    d = base;
    d.y[3] = 1e-320;
    BOOST_CHECK_NO_THROW(validate_dataset(d));
    d = base;
    d.y *= 1e-150;
    BOOST_CHECK_NO_THROW(validate_dataset(d));
    d = base;
    d.y *= 1e150;
    BOOST_CHECK_NO_THROW(validate_dataset(d));
  }
}

BOOST_AUTO_TEST_CASE(a_repeated_truth_index_is_refused) {
  // Counted twice it would inflate power and the Hamming distance.
  Dataset d = random_dataset(10, 4);
  d.origin = "sim.h5";
  d.truth = {1, 3, 1};
  d.has_truth = true;
  expect_error<InputError>([&] { validate_dataset(d); }, "sim.h5: truth lists feature index 1 more than once");
}

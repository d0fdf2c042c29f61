#define BOOST_TEST_MODULE estimators_linear
#include <boost/test/unit_test.hpp>

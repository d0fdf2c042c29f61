#define BOOST_TEST_MODULE bandit
#include <boost/test/unit_test.hpp>

#define BOOST_TEST_MODULE methods_bandit
#include <boost/test/unit_test.hpp>

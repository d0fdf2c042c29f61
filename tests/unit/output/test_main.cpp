#define BOOST_TEST_MODULE output
#include <boost/test/unit_test.hpp>

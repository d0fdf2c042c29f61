#define BOOST_TEST_MODULE simulate
#include <boost/test/unit_test.hpp>

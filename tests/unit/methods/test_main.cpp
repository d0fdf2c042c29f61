#define BOOST_TEST_MODULE methods
#include <boost/test/unit_test.hpp>

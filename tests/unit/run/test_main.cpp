#define BOOST_TEST_MODULE run
#include <boost/test/unit_test.hpp>

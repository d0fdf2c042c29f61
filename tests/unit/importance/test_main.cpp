#define BOOST_TEST_MODULE importance
#include <boost/test/unit_test.hpp>

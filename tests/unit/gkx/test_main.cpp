#define BOOST_TEST_MODULE gkx
#include <boost/test/unit_test.hpp>

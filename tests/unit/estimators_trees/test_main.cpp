#define BOOST_TEST_MODULE estimators_trees
#include <boost/test/unit_test.hpp>

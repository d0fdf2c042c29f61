// cmab-scores' KL, ED and Chi against causalml's filter_D as tests/data/causalml_filters.py re-does it from rows
// (tests/data/causalml_filters_cases.txt): 2 to 4 arms, any control, zero cells, an arm or the control missing from
// a bin, bins without rewards or with rewards only, rates beyond the 0.1**6 floor. Equal to 1e-12 relative wherever
// causalml's value is finite; where it is NaN (a one-label node), the value of the documented rule (such a node
// scores 0), which the script computes too.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "methods/cmab/cell_counts.hpp"
#include "methods/cmab/scores.hpp"

using namespace bfs::cmab;

namespace {

struct FilterCase {
  std::string name;
  CellCounts cells;
  int control = 0;
  double causalml[3] = {}, banditfs[3] = {};
};

std::vector<double> numbers(std::istringstream& words, const std::string& keyword, std::size_t count) {
  std::string got;
  words >> got;
  BOOST_TEST_REQUIRE(got == keyword, "fixture: expected '" << keyword << "', got '" << got << "'");
  std::vector<double> out;
  for (std::string word; words >> word;) out.push_back(std::strtod(word.c_str(), nullptr));  // reads "nan"
  BOOST_TEST_REQUIRE((count == 0 || out.size() == count), keyword << ": " << out.size() << " numbers");
  return out;
}

std::vector<FilterCase> read_cases() {
  const char* root = std::getenv("BANDITFS_TEST_DATA");
  BOOST_TEST_REQUIRE(root != nullptr, "BANDITFS_TEST_DATA is not set (run the test through ctest)");
  const std::string path = std::string(root) + "/causalml_filters_cases.txt";
  std::ifstream in(path);
  BOOST_TEST_REQUIRE(in.good(), "cannot open " << path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  BOOST_TEST_REQUIRE(lines.size() % 4 == 0u);
  std::vector<FilterCase> cases;
  for (std::size_t i = 0; i < lines.size(); i += 4) {
    FilterCase c;
    std::istringstream head(lines[i]);
    std::string keyword;
    head >> keyword >> c.name >> c.cells.arms >> c.control >> c.cells.bins;
    BOOST_TEST_REQUIRE(keyword == "case");
    std::istringstream cells(lines[i + 1]), causalml(lines[i + 2]), ours(lines[i + 3]);
    for (const double v : numbers(cells, "cells", static_cast<std::size_t>(c.cells.bins * c.cells.arms * 2)))
      c.cells.count.push_back(static_cast<std::int64_t>(v));
    const std::vector<double> theirs = numbers(causalml, "causalml", 3), mine = numbers(ours, "banditfs", 3);
    for (int k = 0; k < 3; ++k) {
      c.causalml[k] = theirs[static_cast<std::size_t>(k)];
      c.banditfs[k] = mine[static_cast<std::size_t>(k)];
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

double relative_difference(double got, double expected) {
  if (got == expected) return 0.0;
  return std::abs(got - expected) / std::abs(expected);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cmab_filters)

BOOST_AUTO_TEST_CASE(kl_ed_chi_equal_causalml_filter_d) {
  const std::vector<FilterCase> cases = read_cases();
  BOOST_TEST(cases.size() == 18u);
  const char* const names[3] = {"kl", "ed", "chi"};
  double largest = 0.0;
  int nan_cases = 0, finite_compared = 0;
  for (const FilterCase& c : cases) {
    BOOST_TEST_CONTEXT("case " << c.name) {
      for (const HieReference reference : {HieReference::InBin, HieReference::Global}) {
        const FeatureScores s = score_feature(c.cells, reference, c.control);
        const double got[3] = {s.kl, s.ed, s.chi};
        for (int k = 0; k < 3; ++k) {
          BOOST_TEST(std::isfinite(got[k]), names[k] << " = " << got[k]);
          if (std::isnan(c.causalml[k])) {
            ++nan_cases;
            BOOST_TEST(relative_difference(got[k], c.banditfs[k]) <= 1e-12,
                       names[k] << " = " << got[k] << ", the one-label rule gives " << c.banditfs[k]);
            continue;
          }
          ++finite_compared;
          BOOST_TEST(c.banditfs[k] == c.causalml[k]);  // the rule changes nothing where causalml is finite
          const double difference = relative_difference(got[k], c.causalml[k]);
          largest = std::max(largest, difference);
          BOOST_TEST(difference <= 1e-12, names[k] << " = " << got[k] << " vs causalml " << c.causalml[k]);
        }
      }
    }
  }
  BOOST_TEST(nan_cases > 0);  // the fixture holds NaN cases, so the documented rule is exercised
  BOOST_TEST_MESSAGE("causalml filters: " << finite_compared << " finite values, largest relative difference "
                                          << largest);
}

BOOST_AUTO_TEST_SUITE_END()

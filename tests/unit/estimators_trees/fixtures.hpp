#pragma once
// Readers for the classification fixtures of tests/data/classification (written by
// tests/data/make_tree_classification_fixtures.py); tests/data is found through BANDITFS_TEST_DATA, which CTest sets.
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace bfs::test {

inline std::string fixture_path(const std::string& name) {
  const char* root = std::getenv("BANDITFS_TEST_DATA");
  BOOST_REQUIRE_MESSAGE(root != nullptr, "BANDITFS_TEST_DATA is not set (run the test through ctest)");
  return std::string(root) + "/classification/" + name;
}

/// The rows of a CSV with a header, every field as text.
inline std::vector<std::vector<std::string>> read_csv(const std::string& name) {
  std::ifstream in(fixture_path(name));
  BOOST_REQUIRE_MESSAGE(in.good(), "cannot open fixture " << fixture_path(name));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::stringstream fields_in(line);
    for (std::string field; std::getline(fields_in, field, ',');) fields.push_back(field);
    rows.push_back(std::move(fields));
  }
  return rows;
}

/// A key,value file as a map.
inline std::map<std::string, std::string> read_pairs(const std::string& name) {
  std::map<std::string, std::string> out;
  for (const auto& row : read_csv(name)) out[row.at(0)] = row.at(1);
  return out;
}

/// x0..x{p−1},y rows; the x values are multiples of 1/256, so strtod then float is the float32 python wrote.
struct Labelled {
  Matrix X;
  Vector y;
};
inline Labelled read_labelled(const std::string& name) {
  const auto rows = read_csv(name);
  const auto n = static_cast<Index>(rows.size());
  const auto p = static_cast<Index>(rows.at(0).size()) - 1;
  Labelled out{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) out.X(i, j) = static_cast<float>(std::stod(rows[i][j]));
    out.y[i] = std::stod(rows[i][p]);
  }
  return out;
}

}  // namespace bfs::test

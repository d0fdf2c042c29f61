// FIRST's neighbour searches (src/methods/first/detail/knn.*, forward_search.*): the kd-tree path, the
// forward step's list walk and brute force give the same neighbourhoods (sizes, outer row by outer row) and the same
// T̂, bit for bit, on lattice data full of ties and duplicate rows and on continuous data, for |u| = 1, 2, 5, 16
// (the walk: |A| = 0…16) and N_I = 2, 3, 5.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <numeric>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "methods/first/detail/forward_search.hpp"
#include "methods/first/detail/knn.hpp"

using namespace bfs;
using namespace bfs::first::detail;

namespace {

constexpr std::size_t kRows = 300;
constexpr std::size_t kCols = 17;

enum class Kind { integer_grid, tenths_grid, standardised_grid, continuous, low_bits };

/// kRows × kCols columns. integer_grid: integers 0..3 (squared distances are exact integers: ties everywhere, and
/// duplicate rows on few columns); tenths_grid: 0.1 × 0..4 (distances that tie on paper but round differently);
/// standardised_grid: the integer grid after standardise(); continuous: N(0, 1); low_bits: 1 + k·2⁻⁴⁰, k in 0..999
/// (values that differ only in their low 32 bits, with ties: step 1's sort takes its all-bytes path).
Columns make_columns(Kind kind, std::uint64_t seed) {
  Rng rng(seed);
  Columns x;
  x.rows = kRows;
  x.cols = kCols;
  x.values.resize(kRows * kCols);
  for (double& v : x.values) {
    switch (kind) {
      case Kind::integer_grid:
      case Kind::standardised_grid:
        v = static_cast<double>(rng.uniform_int(4));
        break;
      case Kind::tenths_grid:
        v = 0.1 * static_cast<double>(rng.uniform_int(5));
        break;
      case Kind::continuous:
        v = rng.normal();
        break;
      case Kind::low_bits:
        v = 1.0 + std::ldexp(static_cast<double>(rng.uniform_int(1000)), -40);
        break;
    }
  }
  if (kind == Kind::standardised_grid) standardise(x);
  return x;
}

std::vector<double> make_y(std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> y(kRows);
  for (double& v : y) v = rng.normal();
  return y;
}

std::vector<std::size_t> first_columns(std::size_t k, std::size_t offset) {
  std::vector<std::size_t> u(k);
  std::iota(u.begin(), u.end(), offset);
  return u;
}

void check_same(const Columns& x, const std::vector<double>& y, const std::vector<std::size_t>& u, std::size_t inner,
                const std::vector<std::size_t>& outer) {
  std::vector<std::size_t> brute_sizes, tree_sizes, auto_sizes;
  const double brute = mean_neighbourhood_variance(x, y, u, inner, outer, NeighbourSearch::brute_force, &brute_sizes);
  const double tree = mean_neighbourhood_variance(x, y, u, inner, outer, NeighbourSearch::kd_tree, &tree_sizes);
  const double automatic = mean_neighbourhood_variance(x, y, u, inner, outer, NeighbourSearch::automatic, &auto_sizes);
  BOOST_TEST(brute_sizes.size() == outer.size());
  BOOST_TEST(tree_sizes == brute_sizes, boost::test_tools::per_element());
  BOOST_TEST(auto_sizes == brute_sizes, boost::test_tools::per_element());
  BOOST_TEST(std::memcmp(&tree, &brute, sizeof(double)) == 0, "kd-tree " << tree << " != brute force " << brute);
  BOOST_TEST(std::memcmp(&automatic, &brute, sizeof(double)) == 0);
  for (const std::size_t s : brute_sizes) BOOST_TEST(s >= inner);
}

}  // namespace

BOOST_AUTO_TEST_CASE(kd_tree_and_brute_force_find_the_same_neighbourhoods) {
  const auto y = make_y(1);
  std::vector<std::size_t> all(kRows);
  std::iota(all.begin(), all.end(), std::size_t{0});
  const std::vector<std::size_t> some = {0, 3, 4, 17, 100, 101, 250, 299};
  for (const Kind kind : {Kind::integer_grid, Kind::tenths_grid, Kind::standardised_grid, Kind::continuous}) {
    const Columns x = make_columns(kind, 7 + static_cast<std::uint64_t>(kind));
    for (const std::size_t k : {1, 2, 5, 16}) {
      for (const std::size_t inner : {2, 3, 5}) {
        BOOST_TEST_CONTEXT("kind " << static_cast<int>(kind) << ", |u| = " << k << ", N_I = " << inner) {
          check_same(x, y, first_columns(k, 0), inner, all);
          check_same(x, y, first_columns(k, kCols - k), inner, some);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(lattice_ties_widen_the_neighbourhoods_in_both_paths) {
  // On the integer grid with one column every row has ~75 duplicates: each neighbourhood is its whole level.
  const Columns x = make_columns(Kind::integer_grid, 7);
  const auto y = make_y(2);
  std::vector<std::size_t> all(kRows);
  std::iota(all.begin(), all.end(), std::size_t{0});
  std::vector<std::size_t> sizes;
  mean_neighbourhood_variance(x, y, first_columns(1, 0), 2, all, NeighbourSearch::kd_tree, &sizes);
  const auto column = x.column(0);
  for (std::size_t m = 0; m < kRows; ++m) {
    const auto level = static_cast<std::size_t>(std::count(column.begin(), column.end(), column[m]));
    BOOST_TEST(sizes[m] == level);
  }
}

BOOST_AUTO_TEST_CASE(a_constant_column_makes_every_row_a_neighbour) {
  Columns x;
  x.rows = 50;
  x.cols = 2;
  x.values.assign(100, 0.0);
  for (std::size_t r = 0; r < 50; ++r) x.values[50 + r] = static_cast<double>(r % 5);
  standardise(x);  // column 0 is constant: all 0
  std::vector<double> y(50);
  for (std::size_t r = 0; r < 50; ++r) y[r] = static_cast<double>(r * r % 7);
  std::vector<std::size_t> all(50), sizes;
  std::iota(all.begin(), all.end(), std::size_t{0});
  const std::vector<std::size_t> u0 = {0}, u01 = {0, 1};
  const double t0 = mean_neighbourhood_variance(x, y, u0, 2, all, NeighbourSearch::kd_tree, &sizes);
  BOOST_TEST(t0 == sample_variance(y));
  for (const std::size_t s : sizes) BOOST_TEST(s == 50u);
  check_same(x, y, u01, 2, all);
  // No columns at all: every row is at distance 0 (the kd-tree request falls back to brute force).
  const std::vector<std::size_t> none;
  BOOST_TEST(mean_neighbourhood_variance(x, y, none, 2, all, NeighbourSearch::kd_tree) == sample_variance(y));
}

BOOST_AUTO_TEST_CASE(the_automatic_search_switches_above_16_columns) {
  BOOST_TEST(kKdTreeMaxColumns == 16u);
  const Columns x = make_columns(Kind::tenths_grid, 3);
  const auto y = make_y(4);
  const std::vector<std::size_t> outer = {1, 2, 3, 50, 299};
  check_same(x, y, first_columns(17, 0), 2, outer);  // brute force on both sides of the automatic choice
}

namespace {

/// A's forward search against brute force on A ∪ {i}, for each candidate i outside A: T̂ bit for bit, and every
/// outer row's neighbourhood size. Returns the search's fallbacks.
std::uint64_t check_forward(const Columns& x, const std::vector<double>& y, const std::vector<std::size_t>& a,
                            std::size_t inner, const std::vector<std::size_t>& outer, std::size_t list_rows) {
  const ForwardSearch search(x, y, a, inner, outer, 2, list_rows);
  for (std::size_t candidate = 0; candidate < x.cols; ++candidate) {
    if (std::find(a.begin(), a.end(), candidate) != a.end()) continue;
    std::vector<std::size_t> u = a;
    u.push_back(candidate);
    std::sort(u.begin(), u.end());
    std::vector<std::size_t> brute_sizes, walk_sizes;
    const double brute = mean_neighbourhood_variance(x, y, u, inner, outer, NeighbourSearch::brute_force, &brute_sizes);
    const double walked = search.mean_variance(candidate, &walk_sizes);
    BOOST_TEST_CONTEXT("candidate " << candidate) {
      BOOST_TEST(walk_sizes == brute_sizes, boost::test_tools::per_element());
      BOOST_TEST(std::memcmp(&walked, &brute, sizeof(double)) == 0, "walk " << walked << " != brute " << brute);
    }
  }
  return search.fallbacks();
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_forward_search_finds_brute_force_neighbourhoods) {
  const auto y = make_y(5);
  std::vector<std::size_t> all(kRows);
  std::iota(all.begin(), all.end(), std::size_t{0});
  const std::vector<std::size_t> some = {299, 0, 3, 4, 17, 100, 101, 250};  // any order: T̂ sums in this one
  std::uint64_t fallbacks_short = 0, fallbacks_long = 0;
  for (const Kind kind :
       {Kind::integer_grid, Kind::tenths_grid, Kind::standardised_grid, Kind::continuous, Kind::low_bits}) {
    const Columns x = make_columns(kind, 11 + static_cast<std::uint64_t>(kind));
    for (const std::vector<std::size_t>& a : std::vector<std::vector<std::size_t>>{
             {}, {3}, {16, 2}, {0, 5, 9, 12}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}) {
      for (const std::size_t inner : {2, 3, 5}) {
        BOOST_TEST_CONTEXT("kind " << static_cast<int>(kind) << ", |A| = " << a.size() << ", N_I = " << inner) {
          fallbacks_long += check_forward(x, y, a, inner, all, 0);       // default_list_rows
          fallbacks_short += check_forward(x, y, a, inner, some, 6);     // lists that run out: every row, measured
          BOOST_TEST(check_forward(x, y, a, inner, some, kRows) == 0u);  // a list of every row never runs out
        }
      }
    }
  }
  BOOST_TEST(fallbacks_short > 0u);  // the fallback above was exercised, not only reachable
  BOOST_TEST(fallbacks_long < fallbacks_short);
}

BOOST_AUTO_TEST_CASE(the_forward_search_refuses_a_candidate_in_a) {
  const Columns x = make_columns(Kind::continuous, 3);
  const auto y = make_y(4);
  const ForwardSearch search(x, y, {2, 7}, 2, {0, 1, 2});
  BOOST_CHECK_THROW(search.mean_variance(7), InternalError);
  BOOST_CHECK_THROW(search.mean_variance(kCols), InternalError);
  BOOST_CHECK_THROW(ForwardSearch(x, y, {1}, 2, {kRows}), InternalError);
}

BOOST_AUTO_TEST_CASE(the_two_value_variance_is_the_two_pass_formula_bit_for_bit) {
  // sample_variance's shortcut for two values against the general two passes (divisor n, then n − 1), written out.
  const auto two_pass = [](double a, double b) {
    double sum = 0.0;
    sum += a;
    sum += b;
    const double mean = sum / 2.0;
    double squares = 0.0;
    squares += (a - mean) * (a - mean);
    squares += (b - mean) * (b - mean);
    return squares / 1.0;
  };
  Rng rng(9);
  std::vector<std::pair<double, double>> pairs = {{-0.0, 0.0},   {0.0, -0.0},      {1e308, 1e308}, {-1e308, 1e308},
                                                  {4.9e-324, 0}, {1e-310, 3e-310}, {1.0, 1.0},     {3.0, -7.5}};
  for (int i = 0; i < 10000; ++i) pairs.emplace_back(rng.normal() * std::exp(20 * rng.normal()), rng.normal());
  for (const auto& [a, b] : pairs) {
    const std::vector<double> values = {a, b};
    const double fast = sample_variance(values), reference = two_pass(a, b);
    BOOST_TEST(std::memcmp(&fast, &reference, sizeof(double)) == 0,
               a << ", " << b << ": " << fast << " != " << reference);
  }
}

BOOST_AUTO_TEST_CASE(the_shared_lists_are_built_only_where_they_repay_and_fit) {
  BOOST_TEST(forward_search_pays(1000, 1000, 1000));
  BOOST_TEST(!forward_search_pays(15, 1000, 1000));         // too few candidates for any N
  BOOST_TEST(!forward_search_pays(100, 10000, 10000));      // fewer than N/64
  BOOST_TEST(forward_search_pays(1000, 10000, 10000));      // 10 000 × 400 rows × 16 bytes = 64 MB
  BOOST_TEST(!forward_search_pays(10000, 100000, 100000));  // 100 000 × 1 264 rows × 16 bytes: above 256 MiB
  BOOST_TEST(forward_search_pays(10000, 100000, 5000));     // the same with N_O = 5 000
  BOOST_TEST(default_list_rows(1000) == 128u);
  BOOST_TEST(default_list_rows(10000) == 400u);
}

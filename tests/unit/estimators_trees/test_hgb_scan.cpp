// hgb's split scan (estimators/detail/hgb_grower.hpp, Grower::scan_column) against the plain rule it implements:
// score every bin in two passes, missing rows right then left, first strict maximum, [LightGBM]'s and
// scikit-learn's two scans. The scan skips what cannot win (a prefix below min_rows, empty bins); on random
// histograms with empty runs, exact ties, every count of missing rows around min_rows and both slot types, the
// chosen split and the bits of its gain must be the reference's.
#include <bit>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "estimators/detail/hgb_grower.hpp"

using namespace bfs;
using namespace bfs::hgb;
using namespace bfs::hgb::growth;

namespace {

/// The two-pass scan, every bin scored: the rule, written for clarity.
template <class Entry>
SplitChoice reference_scan(const std::vector<Entry>& h, int value_bins, const Sums& node, double floor,
                           const GrowLimits& limits, double g_inv, double h_inv) {
  constexpr bool kUnit = std::is_same_v<Entry, UnitEntry>;
  const std::int64_t min_rows =
      kUnit ? std::max<std::int64_t>(limits.min_samples_leaf,
                                     static_cast<std::int64_t>(std::ceil(limits.min_child_weight)))
            : limits.min_samples_leaf;
  const auto children = [&](const Sums& l, const Sums& r) {
    constexpr double kNone = -std::numeric_limits<double>::infinity();
    const double gl = static_cast<double>(l.g) * g_inv, gr = static_cast<double>(r.g) * g_inv;
    if constexpr (kUnit) {
      if (l.n < min_rows) return kNone;
      return gl * gl * (1.0 / (static_cast<double>(l.n) + limits.lambda)) +
             gr * gr * (1.0 / (static_cast<double>(r.n) + limits.lambda));
    } else {
      const double hl = static_cast<double>(l.h) * h_inv, hr = static_cast<double>(r.h) * h_inv;
      if (l.n < min_rows || hl < limits.min_child_weight || hr < limits.min_child_weight) return kNone;
      return gl * gl / (hl + limits.lambda) + gr * gr / (hr + limits.lambda);
    }
  };
  const Entry& nan = h[static_cast<std::size_t>(value_bins)];
  double best = floor;
  int best_bin = -1;
  bool best_nan_left = false;
  const auto pass = [&](Sums left, int end, bool nan_left) {
    for (int b = 0; b < end; ++b) {
      left.g += h[static_cast<std::size_t>(b)].g;
      left.h += h[static_cast<std::size_t>(b)].hessian();
      left.n += h[static_cast<std::size_t>(b)].n;
      const Sums right{node.g - left.g, node.h - left.h, node.n - left.n};
      if (right.n < min_rows) break;
      const double s = children(left, right);
      if (s > best) {
        best = s;
        best_bin = b;
        best_nan_left = nan_left;
      }
    }
  };
  pass(Sums{}, nan.n > 0 ? value_bins : value_bins - 1, false);
  if (nan.n > 0) pass(Sums{nan.g, nan.hessian(), nan.n}, value_bins - 1, true);
  if (best_bin < 0) return SplitChoice{};
  return SplitChoice{best - floor, 0, best_bin, best_nan_left};
}

/// A random histogram of value_bins value slots and one missing slot: a share of the slots empty (in runs),
/// per-row gradients small integers so that exact ties happen, `missing` rows in the missing slot.
template <class Entry>
std::vector<Entry> random_histogram(std::mt19937_64& rng, int value_bins, double empty_share, std::int64_t missing,
                                    int max_g) {
  std::vector<Entry> h(static_cast<std::size_t>(value_bins) + 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> rows(1, 6), g(-max_g, max_g), hess(0, 3);
  bool in_empty_run = false;
  for (int b = 0; b <= value_bins; ++b) {
    in_empty_run = unit(rng) < (in_empty_run ? 0.8 : empty_share);
    const std::int64_t n = b == value_bins ? missing : (in_empty_run ? 0 : rows(rng));
    for (std::int64_t r = 0; r < n; ++r) h[static_cast<std::size_t>(b)].add(g(rng), hess(rng));
  }
  return h;
}

template <class Entry>
Sums total(const std::vector<Entry>& h) {
  Sums s;
  for (const Entry& e : h) {
    s.g += e.g;
    s.h += e.hessian();
    s.n += e.n;
  }
  return s;
}

template <class Entry>
int compare_on_random_histograms(std::uint64_t seed, int cases) {
  std::mt19937_64 rng(seed);
  BinnedColumns binned;
  binned.rows = 4096;  // the scan's reciprocal table covers every row count below
  const QuantizedGradients grad{{}, {}, 0.25, 0.5};
  const std::vector<int> allowed;
  int splits = 0;
  for (int c = 0; c < cases; ++c) {
    GrowLimits limits;
    limits.min_samples_leaf = std::vector<std::int64_t>{1, 3, 20}[static_cast<std::size_t>(c % 3)];
    limits.min_child_weight = (c / 3) % 2 == 0 ? 1e-3 : 7.5;  // non-integer: node.n < 2·min_rows possible
    limits.lambda = std::vector<double>{0.0, 0.01, 1e30}[static_cast<std::size_t>((c / 6) % 3)];
    const int value_bins = std::vector<int>{1, 2, 3, 17, 255}[static_cast<std::size_t>((c / 18) % 5)];
    const std::int64_t m = limits.min_samples_leaf;
    const std::int64_t missing =
        std::vector<std::int64_t>{0, 0, 1, m - 1, m, m + 1, 40}[static_cast<std::size_t>((c / 90) % 7)];
    const double empty_share = std::vector<double>{0.0, 0.5, 0.95}[static_cast<std::size_t>((c / 630) % 3)];
    const std::vector<Entry> h = random_histogram<Entry>(rng, value_bins, empty_share, missing, c % 2 == 0 ? 1 : 50);
    const Sums node = total(h);
    Grower<Entry> grower(binned, limits, 1, nullptr, HgbGroupSplit::Columns);
    grower.start(grad, allowed);
    const double floor = grower.score(node);
    const SplitChoice got = grower.scan_column(h.data(), value_bins, node, floor);
    const SplitChoice want = reference_scan(h, value_bins, node, floor, limits, 1.0 / grad.g_scale, 1.0 / grad.h_scale);
    BOOST_TEST_CONTEXT("case " << c << " bins " << value_bins << " missing " << missing << " rows " << node.n) {
      BOOST_TEST(got.feature == want.feature);
      BOOST_TEST(got.bin == want.bin);
      BOOST_TEST(got.nan_left == want.nan_left);
      BOOST_TEST(std::bit_cast<std::uint64_t>(got.gain) == std::bit_cast<std::uint64_t>(want.gain));
    }
    splits += want.feature >= 0 ? 1 : 0;
  }
  return splits;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hgb_scan)

BOOST_AUTO_TEST_CASE(unit_hessians_choose_the_two_pass_split) {
  const int cases = 3 * 630;
  // Many cases have an admissible split (the others check that none is invented): the comparison is not vacuous.
  BOOST_TEST(compare_on_random_histograms<UnitEntry>(11, cases) > cases / 4);
}

BOOST_AUTO_TEST_CASE(full_hessians_choose_the_two_pass_split) {
  const int cases = 3 * 630;
  BOOST_TEST(compare_on_random_histograms<FullEntry>(12, cases) > cases / 4);
}

BOOST_AUTO_TEST_CASE(missing_rows_alone_on_either_side) {
  // Every value row in bin 0 and min_rows missing rows: "split on NaN" (R at the last bin) and its mirror L at bin 0
  // have the same sums; R comes first and keeps the tie.
  BinnedColumns binned;
  binned.rows = 64;
  GrowLimits limits;
  limits.min_samples_leaf = 2;
  const QuantizedGradients grad{{}, {}, 1.0, 1.0};
  Grower<UnitEntry> grower(binned, limits, 1, nullptr, HgbGroupSplit::Columns);
  const std::vector<int> allowed;
  grower.start(grad, allowed);
  std::vector<UnitEntry> h(4);  // value bins 0..2, missing slot 3
  for (int r = 0; r < 3; ++r) h[0].add(5, 1);
  for (int r = 0; r < 2; ++r) h[3].add(-7, 1);
  const Sums node = total(h);
  const SplitChoice s = grower.scan_column(h.data(), 3, node, grower.score(node));
  BOOST_TEST(s.feature == 0);
  BOOST_TEST(s.bin == 0);  // bin 0 with missing right: the same partition as NaN-alone, found first
  BOOST_TEST(!s.nan_left);
}

BOOST_AUTO_TEST_SUITE_END()

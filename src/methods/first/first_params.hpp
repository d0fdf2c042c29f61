#pragma once
// The keys of [method] name = "first" ([FIRST], FIRST): the inner and outer sample sizes of the nearest-neighbour
// estimator of §3.2–3.3, the forward-selection variant of Algorithm 3 / Algorithm S1, standardisation, and a cap.
#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "config/method_params.hpp"

namespace bfs::first {

/// The forward selection: Algorithm 3, or FIRST-FAST (Algorithm S1: a step also drops candidates that explain less).
enum class Forward { full, fast };
constexpr std::array<std::pair<Forward, std::string_view>, 2> enum_table(Forward) {
  return {{{Forward::full, "full"}, {Forward::fast, "fast"}}};
}

struct FirstParams final : MethodParams {
  /// N_I: neighbours per outer row (0 = the paper's default: 3 when y has two values, else 2; §3.3, §6).
  int inner_samples = 0;
  /// N_O: outer rows (0 = all N rows, §3.2 Fig. 1); fewer = one subsample without replacement per step.
  std::int64_t outer_samples = 0;
  /// "full" = Algorithm 3; "fast" = FIRST-FAST (Algorithm S1: a step also drops candidates that explain less).
  Forward forward = Forward::full;
  /// Centre and scale each column (sd with divisor N−1; the R package's default, the paper is silent).
  bool standardize = true;
  /// Stop the forward selection at this many features (0 = no cap; ours, not the paper's).
  std::int64_t max_selected = 0;

  void visit(KeyVisitor& v) override {
    using namespace keyspec;
    v("inner_samples", inner_samples, range(0, 1e6, "N_I: neighbours per outer row (0 = 3 for binary y, else 2)"));
    v("outer_samples", outer_samples, range(0, 1e9, "N_O: outer rows per estimate (0 = all rows)"));
    v("forward", forward, text("forward selection: Algorithm 3 or FIRST-FAST (Algorithm S1)"));
    v("standardize", standardize, text("standardise each column (sd divisor N-1) before the distances"));
    v("max_selected", max_selected, range(0, 1e8, "cap on the forward-selected set (0 = none)"));
  }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<FirstParams>(*this); }
};

}  // namespace bfs::first

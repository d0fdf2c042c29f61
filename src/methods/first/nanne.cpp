#include "methods/first/nanne.hpp"

#include <algorithm>
#include <numeric>

#include "core/rng.hpp"

namespace bfs::first {

namespace {
/// FIRST's own stream tag (a purpose of its own without touching core's Purpose list): "FIRST" in ASCII.
constexpr std::uint64_t kFirstStream = 0x4649525354;
}  // namespace

TotalIndex::TotalIndex(detail::Columns x, std::vector<double> y, std::size_t inner, FeatureLayout layout)
    : x_(std::move(x)),
      y_(std::move(y)),
      inner_(inner),
      var_y_(detail::sample_variance(y_)),
      layout_(std::move(layout)) {}

std::vector<std::size_t> TotalIndex::columns_of(std::span<const std::size_t> u) const {
  std::vector<std::size_t> columns;
  for (const std::size_t f : u) {
    const auto feature = static_cast<FeatureId>(f);
    for (Index c = layout_.column_begin(feature); c < layout_.column_end(feature); ++c)
      columns.push_back(static_cast<std::size_t>(c));
  }
  std::sort(columns.begin(), columns.end());
  return columns;
}

std::size_t TotalIndex::width(std::size_t f) const {
  const auto feature = static_cast<FeatureId>(f);
  return static_cast<std::size_t>(layout_.column_end(feature) - layout_.column_begin(feature));
}

double TotalIndex::estimate(std::vector<std::size_t> u, std::span<const std::size_t> outer) const {
  if (u.empty()) return var_y_;
  return detail::mean_neighbourhood_variance(x_, y_, columns_of(u), inner_, outer);
}

std::vector<std::size_t> outer_rows(std::size_t n, std::size_t n_outer, std::uint64_t seed, std::uint64_t phase,
                                    std::uint64_t step) {
  std::vector<std::size_t> rows(n);
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  if (n_outer == 0 || n_outer >= n) return rows;
  const std::uint64_t parts[] = {kFirstStream, phase, step};
  Rng rng(derive_key(seed, parts));
  for (std::size_t i = 0; i < n_outer; ++i) std::swap(rows[i], rows[i + rng.uniform_int(n - i)]);
  rows.resize(n_outer);
  std::sort(rows.begin(), rows.end());
  return rows;
}

NanneResult nanne(const TotalIndex& t, const std::vector<std::size_t>& a, std::span<const std::size_t> outer,
                  Executor& executor) {
  // Task 0 is T̂(A); task i is T̂(A ∖ a[i − 1]).
  const auto estimates = executor.map(a.size() + 1, [&](std::size_t task) {
    std::vector<std::size_t> u = a;
    if (task > 0) u.erase(u.begin() + static_cast<std::ptrdiff_t>(task - 1));
    return std::vector<double>{t.estimate(std::move(u), outer)};
  });
  NanneResult result;
  result.noise_var = estimates[0][0];
  result.explained_var = std::max(t.var_y() - result.noise_var, 0.0);
  result.indices.assign(a.size(), 0.0);
  if (result.explained_var == 0.0) return result;
  for (std::size_t i = 0; i < a.size(); ++i)
    result.indices[i] = std::max(estimates[i + 1][0] - result.noise_var, 0.0) / result.explained_var;
  return result;
}

BackwardResult nanne_backward(const TotalIndex& t, const std::vector<std::size_t>& a, std::size_t n_outer,
                              std::uint64_t seed, Executor& executor) {
  BackwardResult result;
  result.dropped_in.assign(a.size(), 0);
  std::vector<std::size_t> current = a;
  std::vector<std::size_t> position(a.size());  // index in `a` of each feature of `current`
  std::iota(position.begin(), position.end(), std::size_t{0});
  while (!current.empty()) {
    ++result.passes;
    const auto outer = outer_rows(t.rows(), n_outer, seed, kBackwardPhase, static_cast<std::uint64_t>(result.passes));
    const NanneResult pass = nanne(t, current, outer, executor);
    result.noise_var = pass.noise_var;
    std::vector<std::size_t> next, next_position;
    for (std::size_t i = 0; i < current.size(); ++i) {
      if (pass.indices[i] > 0.0) {
        next.push_back(current[i]);
        next_position.push_back(position[i]);
      } else {
        result.dropped_in[position[i]] = result.passes;
      }
    }
    if (next.size() == current.size()) {  // none is 0: this pass's indices are the answer
      result.kept = current;
      result.indices = pass.indices;
      return result;
    }
    current = std::move(next);
    position = std::move(next_position);
  }
  return result;  // none left
}

}  // namespace bfs::first

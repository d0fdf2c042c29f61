#include "methods/first/first.hpp"

#include <optional>

namespace bfs::first {
namespace {

/// One forward step (Algorithm 3 line 4, eq. 15): V̂_{A∪i} for every candidate through the Executor; adds the
/// argmax (ties to the lowest index) when it is strictly above V̂_A. False when nothing was added.
bool forward_step(const TotalIndex& t, const FirstSettings& settings, Executor& executor, ForwardState& state) {
  const std::int32_t step = state.step + 1;
  const auto outer =
      outer_rows(t.rows(), settings.n_outer, settings.seed, kForwardPhase, static_cast<std::uint64_t>(step));
  // Every candidate shares A and the outer rows: A's neighbour lists are built once for the step (the same T̂, bit
  // for bit, as estimate(A ∪ {i}); detail/forward_search.hpp), unless A is too wide for its rounding bound or too
  // few candidates are left to repay the lists (forward_search_pays). The lists are on A's columns; a candidate of
  // one column walks them, a categorical candidate (several columns) is estimated on its own.
  std::optional<detail::ForwardSearch> search;
  const std::vector<std::size_t> a_columns = t.columns_of(state.forward);
  if (a_columns.size() + 1 <= detail::kForwardSearchMaxColumns &&
      detail::forward_search_pays(state.candidates.size(), t.rows(), outer.size()))
    search.emplace(t.columns(), t.y(), a_columns, t.inner(), outer, executor.threads());
  const auto estimates = executor.map(state.candidates.size(), [&](std::size_t c) {
    const std::size_t candidate = state.candidates[c];
    if (search && t.width(candidate) == 1)
      return std::vector<double>{t.var_y() - search->mean_variance(t.columns_of(std::span(&candidate, 1)).front())};
    std::vector<std::size_t> u = state.forward;
    u.push_back(state.candidates[c]);
    return std::vector<double>{t.var_y() - t.estimate(std::move(u), outer)};
  });
  std::size_t best = 0;
  for (std::size_t c = 1; c < state.candidates.size(); ++c)  // candidates ascend: the first maximum is the lowest
    if (estimates[c][0] > estimates[best][0]) best = c;
  const double previous = state.explained.empty() ? 0.0 : state.explained.back();  // V̂_∅ = 0
  if (!(estimates[best][0] > previous)) return false;
  state.step = step;
  state.forward.push_back(state.candidates[best]);
  state.explained.push_back(estimates[best][0]);
  std::vector<std::size_t> next;
  for (std::size_t c = 0; c < state.candidates.size(); ++c) {
    if (c == best) continue;
    if (settings.fast && estimates[c][0] < previous) continue;  // Algorithm S1: never again a candidate
    next.push_back(state.candidates[c]);
  }
  state.candidates = std::move(next);
  return true;
}

}  // namespace

FirstOutcome run_first(const TotalIndex& t, const FirstSettings& settings, Executor& executor,
                       const StepHook& after_step, ForwardState start) {
  const std::size_t p = t.features();
  FirstOutcome out;
  ForwardState state = std::move(start);
  if (state.step == 0 && state.forward.empty()) {
    state.candidates.resize(p);
    for (std::size_t j = 0; j < p; ++j) state.candidates[j] = j;
  }
  const std::size_t cap = settings.max_selected == 0 ? p : std::min(p, settings.max_selected);
  while (state.forward.size() < cap && !state.candidates.empty()) {
    if (!forward_step(t, settings, executor, state)) break;
    if (after_step && after_step(state)) {
      out.interrupted = true;
      break;
    }
  }
  out.forward = state.forward;
  out.forward_explained = state.explained;
  out.steps = state.step;
  if (out.interrupted) return out;
  out.backward = nanne_backward(t, state.forward, settings.n_outer, settings.seed, executor);
  out.psi.assign(p, 0.0);
  for (std::size_t i = 0; i < out.backward.kept.size(); ++i) out.psi[out.backward.kept[i]] = out.backward.indices[i];
  return out;
}

}  // namespace bfs::first

#include "methods/first/first.hpp"

namespace bfs::first {

FirstOutcome run_first(const TotalIndex& t, const FirstSettings& settings, Executor& executor,
                       const StepCallback& on_step) {
  const std::size_t p = t.cols();
  FirstOutcome out;
  std::vector<std::size_t> candidates(p);
  for (std::size_t j = 0; j < p; ++j) candidates[j] = j;
  std::vector<std::size_t> a;
  double explained = 0.0;  // V̂_∅ = 0
  const std::size_t cap = settings.max_selected == 0 ? p : std::min(p, settings.max_selected);
  for (std::int32_t step = 1; a.size() < cap && !candidates.empty(); ++step) {
    const auto outer =
        outer_rows(t.rows(), settings.n_outer, settings.seed, kForwardPhase, static_cast<std::uint64_t>(step));
    const auto estimates = executor.map(candidates.size(), [&](std::size_t c) {
      std::vector<std::size_t> u = a;
      u.push_back(candidates[c]);
      return std::vector<double>{t.var_y() - t.estimate(std::move(u), outer)};
    });
    std::size_t best = 0;
    for (std::size_t c = 1; c < candidates.size(); ++c)  // candidates ascend: the first maximum is the lowest index
      if (estimates[c][0] > estimates[best][0]) best = c;
    if (!(estimates[best][0] > explained)) break;
    const double previous = explained;
    explained = estimates[best][0];
    a.push_back(candidates[best]);
    out.forward.push_back(candidates[best]);
    out.forward_explained.push_back(explained);
    std::vector<std::size_t> next;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      if (c == best) continue;
      if (settings.fast && estimates[c][0] < previous) continue;  // Algorithm S1: never again a candidate
      next.push_back(candidates[c]);
    }
    candidates = std::move(next);
    if (on_step) on_step(step, a.size());
  }
  out.backward = nanne_backward(t, a, settings.n_outer, settings.seed, executor);
  out.psi.assign(p, 0.0);
  for (std::size_t i = 0; i < out.backward.kept.size(); ++i) out.psi[out.backward.kept[i]] = out.backward.indices[i];
  return out;
}

}  // namespace bfs::first

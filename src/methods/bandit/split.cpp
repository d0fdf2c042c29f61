#include "methods/bandit/split.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace bfs {

Index test_rows(Index n, double test_fraction) {
  return static_cast<Index>(std::ceil(test_fraction * static_cast<double>(n) - 1e-9));
}

void check_splittable(Index n, double test_fraction, const std::string& what) {
  const Index n_test = test_rows(n, test_fraction);
  if (n_test < 2 || n - n_test < 2)
    throw InputError(what + " has " + std::to_string(n) + " rows: too few for a train/test split with test_fraction " +
                     std::to_string(test_fraction) + " (need at least 2 training and 2 test rows)");
}

std::vector<Index> bootstrap_rows(Index n, std::uint64_t seed, std::uint64_t round, std::uint64_t slot) {
  Rng rng = Rng::stream(seed, round, slot, Purpose::Bootstrap);
  std::vector<Index> rows(static_cast<std::size_t>(n));
  for (auto& row : rows) row = static_cast<Index>(rng.uniform_int(static_cast<std::uint64_t>(n)));
  return rows;
}

TrainTestSplit make_split(Index n, const SplitSettings& settings, std::uint64_t seed, std::uint64_t round,
                          std::uint64_t slot) {
  const Index n_test = test_rows(n, settings.test_fraction);
  std::vector<Index> order(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  TrainTestSplit split;
  if (settings.shuffle) {
    Rng rng = Rng::stream(seed, round, slot, Purpose::Split);
    rng.shuffle(order);
    split.test.assign(order.begin(), order.begin() + n_test);
    split.train.assign(order.begin() + n_test, order.end());
  } else {
    split.train.assign(order.begin(), order.end() - n_test);
    split.test.assign(order.end() - n_test, order.end());
  }
  if (settings.bootstrap) {
    const auto picks = bootstrap_rows(static_cast<Index>(split.train.size()), seed, round, slot);
    std::vector<Index> resampled(picks.size());
    for (std::size_t i = 0; i < picks.size(); ++i) resampled[i] = split.train[static_cast<std::size_t>(picks[i])];
    split.train = std::move(resampled);
  }
  return split;
}

}  // namespace bfs

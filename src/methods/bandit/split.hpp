#pragma once
// Train/test rows of one evaluation ([Wu Alg. 2] "train_test_split"; reference-code facts in
// papers/INDEX.md): 80/20 by default; offline the rows are shuffled and the training part bootstrapped; with
// time_series the test rows are the last 20% of the period in order and nothing is shuffled or resampled.
#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace bfs {

struct SplitSettings {
  double test_fraction = 0.2;
  bool shuffle = true;     ///< false for time series
  bool bootstrap = false;  ///< resample the training rows with replacement
};

struct TrainTestSplit {
  std::vector<Index> train;
  std::vector<Index> test;
};

/// Number of test rows: ⌈test_fraction · n⌉ (scikit-learn's rule).
Index test_rows(Index n, double test_fraction);
/// Throws InputError naming `what` (e.g. "period 3 of data.h5") when n rows cannot give ≥ 2 train and ≥ 2 test rows.
void check_splittable(Index n, double test_fraction, const std::string& what);
/// The split for evaluation (round, slot): streams (seed, round, slot, Split) and (…, Bootstrap).
TrainTestSplit make_split(Index n, const SplitSettings& settings, std::uint64_t seed, std::uint64_t round,
                          std::uint64_t slot);
/// A bootstrap resample of 0..n-1 from the stream (seed, round, slot, Bootstrap).
std::vector<Index> bootstrap_rows(Index n, std::uint64_t seed, std::uint64_t round, std::uint64_t slot);

}  // namespace bfs

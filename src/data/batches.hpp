#pragma once
// Online batches cut from data in memory ([TVS §5.2]), as DataSource wrappers:
//  - data.batch_size = s: a source without periods becomes ⌈n/s⌉ batches of s rows in row order (the last one holds
//    the remainder); period k is rows [k·s, min((k + 1)·s, n)).
//  - bandit.rebatch = "bootstrap": "performing multiple passes through the data after bootstrapping the entire
//    dataset and chopping it into new batches" (§5.2). Pass 0 sees the source's own periods; before pass r ≥ 1 all
//    n rows are resampled with replacement from the stream (seed, r, 0, Shuffle) and cut into the same batch sizes,
//    in order. The wrapper exposes passes × K periods, period r·K + k being batch k of pass r, so the round driver
//    runs them as one pass. The whole data set is in memory (on every rank).
#include <cstdint>
#include <memory>

#include "data/source.hpp"

namespace bfs {

/// ConfigError naming data.batch_size when the source has periods already or s exceeds its n rows.
std::unique_ptr<DataSource> with_batches(std::unique_ptr<DataSource> inner, std::int64_t batch_size);
std::unique_ptr<DataSource> with_bootstrap_passes(std::unique_ptr<DataSource> inner, int passes, std::uint64_t seed);

}  // namespace bfs

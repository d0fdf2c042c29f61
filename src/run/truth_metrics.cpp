#include "run/truth_metrics.hpp"

#include <algorithm>
#include <iterator>

namespace bfs {

TruthMetrics truth_metrics(const FeatureSet& selected, const FeatureSet& truth) {
  TruthMetrics m;
  m.known = true;
  FeatureSet hits;
  std::set_intersection(selected.begin(), selected.end(), truth.begin(), truth.end(), std::back_inserter(hits));
  const double false_discoveries = static_cast<double>(selected.size() - hits.size());
  m.fdp = selected.empty() ? 0.0 : false_discoveries / static_cast<double>(selected.size());
  m.power = truth.empty() ? 1.0 : static_cast<double>(hits.size()) / static_cast<double>(truth.size());
  m.hamming = static_cast<std::int64_t>(selected.size() + truth.size() - 2 * hits.size());
  return m;
}

}  // namespace bfs

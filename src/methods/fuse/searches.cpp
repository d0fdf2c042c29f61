#include "methods/fuse/searches.hpp"

#include "core/error.hpp"

namespace bfs::fuse {

std::int64_t search_count(const FuseParams& params) {
  if (params.searches > 0) return params.searches;
  return params.select == Select::shadow ? kDefaultShadowSearches : 1;
}

std::uint64_t search_iterations(std::uint64_t total, std::uint64_t searches, std::uint64_t c) {
  BFS_CHECK(searches >= 1 && c < searches, "search ", c, " of ", searches);
  return total / searches + (c < total % searches ? 1 : 0);
}

bool ends_whole_round(std::uint64_t done, std::uint64_t total, std::uint64_t searches, std::uint64_t batch) {
  if (done > total) return false;
  std::uint64_t start = 0;
  for (std::uint64_t c = 0; c < searches; ++c) {
    const std::uint64_t end = start + search_iterations(total, searches, c);
    if (done <= end) return done == end || (done - start) % batch == 0;
    start = end;
  }
  return false;
}

std::vector<FeatureId> above_in_every_search(const std::vector<std::vector<double>>& scores,
                                             std::span<const double> thresholds, std::size_t p) {
  BFS_CHECK(scores.size() == thresholds.size() && !scores.empty(), "scores of ", scores.size(), " searches, ",
            thresholds.size(), " thresholds");
  std::vector<FeatureId> selected;
  for (std::size_t f = 0; f < p; ++f) {
    bool above = true;
    for (std::size_t c = 0; c < scores.size() && above; ++c) above = scores[c].at(f) > thresholds[c];
    if (above) selected.push_back(static_cast<FeatureId>(f));
  }
  return selected;
}

std::vector<double> mean_over_searches(const std::vector<std::vector<double>>& scores, std::size_t p) {
  std::vector<double> mean(p, 0.0);
  for (const auto& search : scores)
    for (std::size_t f = 0; f < p; ++f) mean[f] += search.at(f);
  for (double& m : mean) m /= static_cast<double>(scores.size());
  return mean;
}

}  // namespace bfs::fuse

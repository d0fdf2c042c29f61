#include "methods/fuse/reward.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace bfs::fuse {

double auc(std::span<const std::int32_t> scores, std::span<const std::uint8_t> labels) {
  BFS_CHECK(scores.size() == labels.size());
  if (scores.empty()) return 0.5;
  const auto [lo, hi] = std::minmax_element(scores.begin(), scores.end());
  const auto span = static_cast<std::size_t>(static_cast<std::int64_t>(*hi) - *lo) + 1;
  // Scores are small integers (0..k): count each class per score, then one pass in score order.
  std::vector<std::int64_t> pos(span, 0);
  std::vector<std::int64_t> neg(span, 0);
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const auto s = static_cast<std::size_t>(static_cast<std::int64_t>(scores[i]) - *lo);
    ++(labels[i] != 0 ? pos : neg)[s];
  }
  double pairs = 0.0;  // Σ over positives of (#negatives below + ½ #negatives tied)
  std::int64_t below = 0;
  std::int64_t n_pos = 0;
  for (std::size_t s = 0; s < span; ++s) {
    pairs += static_cast<double>(pos[s]) * (static_cast<double>(below) + 0.5 * static_cast<double>(neg[s]));
    below += neg[s];
    n_pos += pos[s];
  }
  if (n_pos == 0 || below == 0) return 0.5;
  return pairs / (static_cast<double>(n_pos) * static_cast<double>(below));
}

std::vector<std::size_t> stratified_subsample(std::span<const std::uint8_t> labels, std::size_t m, Rng& rng) {
  if (m > labels.size()) {
    throw std::invalid_argument("reward subsample of " + std::to_string(m) + " rows from " +
                                std::to_string(labels.size()));
  }
  std::vector<std::size_t> positives;
  std::vector<std::size_t> negatives;
  for (std::size_t i = 0; i < labels.size(); ++i) (labels[i] != 0 ? positives : negatives).push_back(i);
  const double share =
      labels.empty() ? 0.0 : static_cast<double>(positives.size()) / static_cast<double>(labels.size());
  auto m_pos = static_cast<std::size_t>(std::llround(share * static_cast<double>(m)));
  if (m >= 2 && !positives.empty() && !negatives.empty()) m_pos = std::clamp<std::size_t>(m_pos, 1, m - 1);
  m_pos = std::clamp(m_pos, m - std::min(m, negatives.size()), std::min(m, positives.size()));
  auto draw = [&rng](std::vector<std::size_t>& rows, std::size_t count, std::vector<std::size_t>& out) {
    for (std::size_t i = 0; i < count; ++i) {  // partial Fisher–Yates
      std::swap(rows[i], rows[i + static_cast<std::size_t>(rng.uniform_int(rows.size() - i))]);
      out.push_back(rows[i]);
    }
  };
  std::vector<std::size_t> chosen;
  chosen.reserve(m);
  draw(positives, m_pos, chosen);
  draw(negatives, m - m_pos, chosen);
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

KnnReward::KnnReward(TrainingSet data, std::int32_t k, FeatureLayout layout)
    : data_(std::move(data)), k_(k), layout_(std::move(layout)) {
  BFS_CHECK(data_.values.size() == data_.rows * data_.cols && data_.labels.size() == data_.rows);
  BFS_CHECK(k_ >= 1 && static_cast<std::size_t>(k_) < data_.rows, "k must be below the number of rows");
  rounded_ = detail::round_columns(data_);
}

std::vector<std::int32_t> KnnReward::scores(std::span<const std::int32_t> features,
                                            std::span<const std::size_t> validation) const {
  std::vector<std::int32_t> cols;
  for (const std::int32_t f : features) {
    BFS_CHECK(f >= 0 && f < this->features());
    for (Index c = layout_.column_begin(f); c < layout_.column_end(f); ++c)
      cols.push_back(static_cast<std::int32_t>(c));
  }
  std::sort(cols.begin(), cols.end());
  return detail::nearest_positives(data_, rounded_, cols, validation, static_cast<std::size_t>(k_));
}

double KnnReward::value(std::span<const std::int32_t> features, std::span<const std::size_t> validation) const {
  if (features.empty()) return 0.5;
  const auto s = scores(features, validation);
  std::vector<std::uint8_t> labels(validation.size());
  for (std::size_t i = 0; i < validation.size(); ++i) labels[i] = data_.labels[validation[i]];
  return auc(s, labels);
}

}  // namespace bfs::fuse

#include "importance/ranking_evaluation.hpp"

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/missing.hpp"
#include "importance/metrics.hpp"

namespace bfs {

std::vector<RankingScore> evaluate_ranking(const Dataset& train, const Dataset& test, const FeatureSet& ranking,
                                           const std::vector<std::int32_t>& sizes, const Estimator& learner,
                                           std::uint64_t seed, int threads, const RankingProgress& progress) {
  BFS_CHECK(train.cols() == test.cols());
  std::vector<Index> train_rows(static_cast<std::size_t>(train.rows())),
      test_rows(static_cast<std::size_t>(test.rows()));
  for (Index i = 0; i < train.rows(); ++i) train_rows[static_cast<std::size_t>(i)] = i;
  for (Index i = 0; i < test.rows(); ++i) test_rows[static_cast<std::size_t>(i)] = i;
  // Test rows with missing cells are routed by the trees' rule for a table with missing cells (FitOptions).
  const bool data_has_missing = has_missing(train.X) || has_missing(test.X);
  std::vector<RankingScore> out;
  for (const std::int32_t k : sizes) {
    BFS_CHECK(k >= 1 && static_cast<std::size_t>(k) <= ranking.size());
    RankingScore score;
    score.size = k;
    score.features.assign(ranking.begin(), ranking.begin() + k);
    FitOptions options{Rng::stream(seed, static_cast<std::uint64_t>(k), 0, Purpose::Fit).next_u64(), threads, {}};
    options.data_has_missing = data_has_missing;
    const auto model = learner.fit(gather(train.X, train_rows, score.features), train.y, options);
    const Vector p = model->predict(gather(test.X, test_rows, score.features));
    score.test_error = 1.0 - metric_score(Metric::Accuracy, test.y, p);
    score.test_auc = metric_score(Metric::Auc, test.y, p);
    score.constant_prediction = p.size() > 0 && (p.array() == p(0)).all();
    out.push_back(std::move(score));
    if (progress) progress(out.back(), out.size(), sizes.size());
  }
  return out;
}

}  // namespace bfs

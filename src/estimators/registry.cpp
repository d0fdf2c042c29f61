// The estimator registry: estimator.name (an EstimatorName, whose names config/estimator_config.hpp declares once)
// to the factory of that estimator.
#include "core/error.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

std::unique_ptr<Estimator> make_estimator(const EstimatorConfig& config, Task task) {
  switch (config.name) {
    case EstimatorName::Lasso:
      return make_lasso(config.lasso, task);
    case EstimatorName::RandomForest:
      return make_random_forest(config.random_forest, task);
    case EstimatorName::Gbm:
      return make_gbm(config.gbm, task);
    case EstimatorName::Mlp:
      return make_mlp(config.mlp, task);
    case EstimatorName::Svm:
      return make_svm(config.svm, task);
  }
  throw InternalError("make_estimator: an EstimatorName without a factory");
}

std::vector<std::string> estimator_names() {
  return enum_names<EstimatorName>();
}

}  // namespace bfs

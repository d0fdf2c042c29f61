// The estimator registry: estimator.name (an EstimatorName, whose names config/estimator_config.hpp declares once)
// to the factory of that estimator, for a task the list's column says it fits, behind a fitted mean imputation when
// data.missing asks for one (estimators/missing.hpp).
#include "core/error.hpp"
#include "estimators/estimator.hpp"
#include "estimators/missing.hpp"

namespace bfs {

namespace {

std::unique_ptr<Estimator> make_bare(const EstimatorConfig& config, Task task) {
  switch (config.name) {
#define BFS_ESTIMATOR_FACTORY(value, name, member, params, tasks) \
  case EstimatorName::value:                                      \
    return make_##member(config.member, task);
    BFS_ESTIMATORS(BFS_ESTIMATOR_FACTORY)
#undef BFS_ESTIMATOR_FACTORY
  }
  throw InternalError("make_estimator: an EstimatorName without a factory");
}

}  // namespace

std::unique_ptr<Estimator> make_estimator(const EstimatorConfig& config, Task task, MissingRule missing) {
  check_estimator_task(config.name, task);
  std::unique_ptr<Estimator> estimator = make_bare(config, task);
  if (imputes_missing(config.name, missing)) return make_imputing(std::move(estimator));
  return estimator;
}

std::vector<std::string> estimator_names() {
  return enum_names<EstimatorName>();
}

}  // namespace bfs

// The estimator registry: estimator.name (an EstimatorName, whose names config/estimator_config.hpp declares once)
// to the factory of that estimator, for a task the list's column says it fits.
#include "core/error.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

std::unique_ptr<Estimator> make_estimator(const EstimatorConfig& config, Task task) {
  check_estimator_task(config.name, task);
  switch (config.name) {
#define BFS_ESTIMATOR_FACTORY(value, name, member, params, tasks) \
  case EstimatorName::value:                                      \
    return make_##member(config.member, task);
    BFS_ESTIMATORS(BFS_ESTIMATOR_FACTORY)
#undef BFS_ESTIMATOR_FACTORY
  }
  throw InternalError("make_estimator: an EstimatorName without a factory");
}

std::vector<std::string> estimator_names() {
  return enum_names<EstimatorName>();
}

}  // namespace bfs

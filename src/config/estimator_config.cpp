#include "config/estimator_config.hpp"

#include <string>

#include "core/error.hpp"

namespace bfs {

void check_estimator_task(EstimatorName name, Task task) {
  const EstimatorTasks tasks = estimator_tasks(name);
  if (task == Task::Regression ? tasks.regression : tasks.binary) return;
  const Task needed = tasks.regression ? Task::Regression : Task::Binary;
  throw ConfigError(detail::concat("estimator.name = \"", name_of(name), "\" needs data.task = \"", name_of(needed),
                                   "\" (", tasks.why, "; got \"", name_of(task), "\")"));
}

}  // namespace bfs

#include <functional>
#include <map>

#include "core/error.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

namespace {
using Factory = std::function<std::unique_ptr<Estimator>(const EstimatorConfig&, Task)>;

const std::map<std::string, Factory>& registry() {
  static const std::map<std::string, Factory> factories = {
      {"lasso", [](const EstimatorConfig& c, Task t) { return make_lasso(c.lasso, t); }},
      {"random_forest", [](const EstimatorConfig& c, Task t) { return make_random_forest(c.random_forest, t); }},
      {"gbm", [](const EstimatorConfig& c, Task t) { return make_gbm(c.gbm, t); }},
      {"mlp", [](const EstimatorConfig& c, Task t) { return make_mlp(c.mlp, t); }},
  };
  return factories;
}
}  // namespace

std::unique_ptr<Estimator> make_estimator(const EstimatorConfig& config, Task task) {
  const auto& factories = registry();
  auto it = factories.find(config.name);
  if (it == factories.end()) {
    std::string known;
    for (const auto& [name, factory] : factories) known += (known.empty() ? "" : ", ") + name;
    throw ConfigError("estimator.name: unknown estimator '" + config.name + "' (known: " + known + ")");
  }
  return it->second(config, task);
}

std::vector<std::string> estimator_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

}  // namespace bfs

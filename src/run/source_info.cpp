#include "run/source_info.hpp"

#include "core/fnv1a.hpp"

namespace bfs {

SourceInfo describe_source(const DataSource& source, bool online) {
  SourceInfo info;
  info.description = source.describe();
  info.feature_names = source.feature_names();
  info.periods = online ? source.num_periods() : 1;
  info.truth = source.truth();
  info.has_truth = source.has_truth();
  info.missing = source.missing();
  info.rows_without_target = source.rows_without_target();
  std::string text = source.describe() + "|p=" + std::to_string(source.num_features()) +
                     "|periods=" + std::to_string(source.num_periods());
  for (const auto& name : info.feature_names) text += "|" + name;
  info.fingerprint = fnv1a_hex(text);
  return info;
}

}  // namespace bfs

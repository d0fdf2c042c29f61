#pragma once
// Enum ↔ name: every enum-valued job key declares its names once, as `enum_table(E)` next to the enum (found by
// argument-dependent lookup), and the config parser, result attributes and messages all go through these helpers.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bfs {

/// The name of an enum value ("?" for a value missing from its table, which a test of each table rules out).
template <class E>
constexpr std::string_view name_of(E value) requires requires {
  enum_table(value);
}
{
  for (const auto& [entry, name] : enum_table(value))
    if (entry == value) return name;
  return "?";
}

/// The value named `name`, or nullopt.
template <class E>
std::optional<E> enum_from_name(std::string_view name) {
  for (const auto& [entry, entry_name] : enum_table(E{}))
    if (entry_name == name) return entry;
  return std::nullopt;
}

/// Every name of E, in declaration order.
template <class E>
std::vector<std::string> enum_names() {
  std::vector<std::string> names;
  for (const auto& entry : enum_table(E{})) names.emplace_back(entry.second);
  return names;
}

}  // namespace bfs

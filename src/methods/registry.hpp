#pragma once
// The one list of methods (registry.cpp): the CLI dispatches through it, and its catalog tells the schema each
// method's keys and sections.
#include <memory>
#include <string>
#include <vector>

#include "config/method_params.hpp"
#include "methods/method.hpp"

namespace bfs::methods {

/// Every method, in registry order.
const std::vector<std::unique_ptr<Method>>& all();
/// The method named `name`; ConfigError "method.name = "x" is not one of ..." otherwise.
const Method& find(const std::string& name);
/// Each method's describe(), for parse_job / load_job / describe_keys.
MethodCatalog catalog();

}  // namespace bfs::methods

#include "methods/registry.hpp"

#include "core/error.hpp"

// The registry: one line per method. X(folder) declares std::unique_ptr<Method> make_<folder>_method(), which the
// method's folder defines; adding a method is its folder plus its line here.
#define BANDITFS_METHODS(X) \
  X(bandit)                 \
  X(first)                  \
  X(cmab)                   \
  X(fuse)                   \
  /* end of the list */

namespace bfs {

#define BANDITFS_DECLARE_METHOD(folder) std::unique_ptr<Method> make_##folder##_method();
BANDITFS_METHODS(BANDITFS_DECLARE_METHOD)
#undef BANDITFS_DECLARE_METHOD

namespace methods {

const std::vector<std::unique_ptr<Method>>& all() {
  static const std::vector<std::unique_ptr<Method>> list = [] {
    std::vector<std::unique_ptr<Method>> methods;
#define BANDITFS_MAKE_METHOD(folder) methods.push_back(make_##folder##_method());
    BANDITFS_METHODS(BANDITFS_MAKE_METHOD)
#undef BANDITFS_MAKE_METHOD
    return methods;
  }();
  return list;
}

const Method& find(const std::string& name) {
  std::string names;
  for (const auto& method : all()) {
    if (method->name() == name) return *method;
    names += (names.empty() ? "\"" : ", \"") + method->name() + "\"";
  }
  throw ConfigError("method.name = \"" + name + "\" is not one of " + names);
}

MethodCatalog catalog() {
  MethodCatalog list;
  for (const auto& method : all()) list.push_back(method->describe());
  return list;
}

}  // namespace methods
}  // namespace bfs

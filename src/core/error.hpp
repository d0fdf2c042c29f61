#pragma once
// Typed exceptions (docs/design.md §6): every message names the input (file, key, value) and what is wrong. `main`
// catches them, prints one line and exits non-zero.
#include <sstream>
#include <stdexcept>
#include <string>

namespace bfs {

/// Base of all banditfs errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// Bad user input: a data file, a CSV column, a value in the data.
class InputError : public Error {
 public:
  using Error::Error;
};
/// Bad job configuration: unknown key, wrong type, out-of-range value.
class ConfigError : public Error {
 public:
  using Error::Error;
};
/// A broken internal invariant (a bug, not a user mistake).
class InternalError : public Error {
 public:
  using Error::Error;
};

namespace detail {
template <class... Parts>
std::string concat(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}
}  // namespace detail

}  // namespace bfs

/// Throws bfs::InternalError with file:line when an invariant fails.
#define BFS_CHECK(cond, ...)                                                                                        \
  do {                                                                                                              \
    if (!(cond)) {                                                                                                  \
      throw ::bfs::InternalError(                                                                                   \
          ::bfs::detail::concat(__FILE__, ":", __LINE__, ": check failed: " #cond " " __VA_OPT__(, ) __VA_ARGS__)); \
    }                                                                                                               \
  } while (false)

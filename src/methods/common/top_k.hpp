#pragma once
// The one rule for a method's top-k key (fuse `top`, cmab-scores `select_top`): k may not exceed the p features of
// the data. A larger k would select every feature and look like a selection; it is refused as soon as the data is
// open (p is not known before), naming the key, its value, p and the data.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace bfs::methods {

/// InputError "method.<key> = <value> is more than the <p> features of <origin>; set it to at most <p>" when
/// value > p.
inline void check_top_k(std::string_view key, std::int64_t value, std::int64_t p, std::string_view origin) {
  if (value <= p) return;
  const std::string name = "method." + std::string(key);
  throw InputError(name + " = " + std::to_string(value) + " is more than the " + std::to_string(p) + " features of " +
                   std::string(origin) + "; set " + name + " to at most " + std::to_string(p));
}

}  // namespace bfs::methods

#include "gkx/characteristics.hpp"

#include "core/error.hpp"

namespace bfs::gkx {

std::size_t characteristic_index(std::string_view name) {
  for (std::size_t k = 0; k < kCharacteristics.size(); ++k)
    if (kCharacteristics[k] == name) return k;
  throw InternalError(::bfs::detail::concat("'", name, "' is not a GKX characteristic"));
}

}  // namespace bfs::gkx

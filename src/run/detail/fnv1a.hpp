#pragma once
// The 64-bit FNV-1a hash as 16 hex digits: the job hash and the data fingerprint a checkpoint stores.
#include <cstdint>
#include <cstdio>
#include <string>

namespace bfs::detail {

inline std::string fnv1a_hex(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

}  // namespace bfs::detail

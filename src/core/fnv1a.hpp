#pragma once
// 64-bit FNV-1a, the digest of banditfs's own files (run.json's pins on its result set, a checkpoint's seal). Not a
// cryptographic hash: it guards against corruption, not tampering. Each byte is xor-ed in and the state multiplied
// by an odd constant, a bijection, so any change of a single byte changes the digest.
#include <cstddef>
#include <cstdint>

namespace bfs {

class Fnv1a64 {
 public:
  void update(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      hash_ ^= bytes[i];
      hash_ *= 0x100000001b3ULL;
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace bfs

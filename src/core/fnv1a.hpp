#pragma once
// 64-bit FNV-1a, the digest of banditfs's own files (run.json's pins on its result set, a checkpoint's seal). Not a
// cryptographic hash: it guards against corruption, not tampering. Each byte is xor-ed in and the state multiplied
// by an odd constant, a bijection, so any change of a single byte changes the digest.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

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

/// The digest of `bytes`.
inline std::uint64_t fnv1a64(std::string_view bytes) {
  Fnv1a64 hash;
  hash.update(bytes.data(), bytes.size());
  return hash.value();
}

/// A digest as 16 lower-case hex digits (a job's hash, a data fingerprint, a checkpoint's seal).
inline std::string hex16(std::uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (std::size_t i = 16; i-- > 0; value >>= 4) out[i] = kDigits[value & 0xF];
  return out;
}

/// The digest of `text` as 16 hex digits.
inline std::string fnv1a_hex(std::string_view text) {
  return hex16(fnv1a64(text));
}

}  // namespace bfs

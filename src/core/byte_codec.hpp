#pragma once
// Fixed-width binary encoding of plain values, vectors and strings into a byte string (native byte order: the
// bytes cross ranks of one job, never machines of different endianness, nor files). The decoder checks every size
// before reading or allocating and throws InternalError naming the message on a truncated or malformed one.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/error.hpp"

namespace bfs {

class ByteWriter {
 public:
  template <class T>
  void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    bytes_.append(p, sizeof(T));
  }
  template <class T>
  void put_vector(const std::vector<T>& values) {
    put<std::uint64_t>(values.size());
    for (const T& v : values) put(v);
  }
  template <class T>
  void put_vectors(const std::vector<std::vector<T>>& vectors) {
    put<std::uint64_t>(vectors.size());
    for (const auto& v : vectors) put_vector(v);
  }
  void put_string(std::string_view text) {
    put<std::uint64_t>(text.size());
    bytes_.append(text);
  }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class ByteReader {
 public:
  ByteReader(std::string_view bytes, const char* what) : bytes_(bytes), what_(what) {}
  template <class T>
  T get() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }
  template <class T>
  std::vector<T> get_vector() {
    const auto count = get<std::uint64_t>();
    // Rejects absurd counts before allocating (divided, not multiplied: count · sizeof(T) could wrap around).
    if (count > (bytes_.size() - pos_) / sizeof(T))
      throw InternalError(std::string(what_) + " message truncated (" + std::to_string(bytes_.size()) + " bytes)");
    std::vector<T> values(count);
    for (auto& v : values) v = get<T>();
    return values;
  }
  /// An element count, rejected before anything is allocated when the bytes left could not hold that many.
  std::uint64_t get_count(const char* of) {
    const auto count = get<std::uint64_t>();
    if (count > bytes_.size() - pos_)
      throw InternalError(std::string(what_) + " message with an impossible " + of + " count");
    return count;
  }
  template <class T>
  std::vector<std::vector<T>> get_vectors(const char* of) {
    std::vector<std::vector<T>> vectors(get_count(of));
    for (auto& v : vectors) v = get_vector<T>();
    return vectors;
  }
  std::string get_string() {
    const auto count = get<std::uint64_t>();
    need(count);
    std::string text(bytes_.substr(pos_, count));
    pos_ += count;
    return text;
  }
  void finish() const {
    if (pos_ != bytes_.size())
      throw InternalError(std::string(what_) + " message has " + std::to_string(bytes_.size() - pos_) +
                          " trailing bytes");
  }

 private:
  void need(std::uint64_t count) const {
    if (count > bytes_.size() - pos_)
      throw InternalError(std::string(what_) + " message truncated (" + std::to_string(bytes_.size()) + " bytes)");
  }
  std::string_view bytes_;
  std::size_t pos_ = 0;
  const char* what_;
};

}  // namespace bfs

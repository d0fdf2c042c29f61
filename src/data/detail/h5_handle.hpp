#pragma once
// RAII ownership of HDF5 C-API identifiers (hid_t) for every HDF5 reader and writer (data/ and output/): every file,
// group, dataset, dataspace, datatype, property list and attribute is closed on scope exit, also when an exception
// unwinds, so a failed write closes the tmp file before it is removed.
#include <hdf5.h>

#include <string>
#include <utility>

namespace bfs::detail {

class H5Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  H5Handle() = default;
  H5Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  H5Handle(const H5Handle&) = delete;
  H5Handle& operator=(const H5Handle&) = delete;
  H5Handle(H5Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}
  H5Handle& operator=(H5Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
      closer_ = other.closer_;
    }
    return *this;
  }
  ~H5Handle() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void reset() {
    if (id_ >= 0 && closer_ != nullptr) closer_(id_);
    id_ = H5I_INVALID_HID;
  }
  /// Closes now and reports failure (H5Fclose flushes: its result matters for a writer).
  herr_t close() {
    herr_t status = 0;
    if (id_ >= 0 && closer_ != nullptr) status = closer_(id_);
    id_ = H5I_INVALID_HID;
    return status;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

inline H5Handle h5_file(hid_t id) {
  return {id, H5Fclose};
}
inline H5Handle h5_group(hid_t id) {
  return {id, H5Gclose};
}
inline H5Handle h5_dataset(hid_t id) {
  return {id, H5Dclose};
}
inline H5Handle h5_space(hid_t id) {
  return {id, H5Sclose};
}
inline H5Handle h5_type(hid_t id) {
  return {id, H5Tclose};
}
inline H5Handle h5_plist(hid_t id) {
  return {id, H5Pclose};
}
inline H5Handle h5_attr(hid_t id) {
  return {id, H5Aclose};
}

/// Turns off HDF5's automatic printing of its error stack (we throw our own messages instead).
inline void silence_hdf5_errors() {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

}  // namespace bfs::detail

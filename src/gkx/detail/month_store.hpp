#pragma once
// prepare-gkx's buffer between its two stages (gkx/prepare.cpp): one fixed-size record per in-range row, grouped by
// month, in memory up to a budget and spilled beyond it to one temp file per month (removed when the store is).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <vector>

namespace bfs::gkx::staging {

namespace fs = std::filesystem;

/// The fixed head of one in-range row as buffered between the stages; the row's characteristics follow it as
/// float32 (NaN = missing). A record is kRecordHead + 4·K bytes, rounded up to 8.
struct RowHead {
  std::int64_t line;
  double y;
  std::int32_t permno;
  std::int32_t sic2;
};
constexpr std::size_t kRecordHead = sizeof(RowHead);
inline std::size_t record_size(std::size_t characteristics) {
  return (kRecordHead + characteristics * sizeof(float) + 7) / 8 * 8;
}
inline RowHead head_of(const unsigned char* record) {
  RowHead h;
  std::memcpy(&h, record, sizeof h);
  return h;
}
inline float value_of(const unsigned char* record, std::size_t k) {
  float v;
  std::memcpy(&v, record + kRecordHead + k * sizeof(float), sizeof v);
  return v;
}

/// Per-month buffers of fixed-size records with a memory budget; beyond it every buffer is appended to its month's
/// temp file.
class MonthStore {
 public:
  MonthStore(std::int32_t from, int months, std::size_t record, std::size_t budget, fs::path spill_parent)
      : from_(from),
        record_(record),
        buffers_(static_cast<std::size_t>(months)),
        spilled_(buffers_.size(), false),
        budget_(budget),
        parent_(std::move(spill_parent)) {}
  ~MonthStore();
  MonthStore(const MonthStore&) = delete;
  MonthStore& operator=(const MonthStore&) = delete;

  void add(int month_index, const unsigned char* record) {
    auto& buf = buffers_[static_cast<std::size_t>(month_index)];
    buf.insert(buf.end(), record, record + record_);
    bytes_ += record_;
    if (bytes_ > budget_) spill_all();
  }
  /// Every record of the month (spilled part first, so line order is kept), removing it from the store.
  std::vector<unsigned char> take(int month_index);
  std::int64_t spilled_bytes() const { return spilled_bytes_; }

 private:
  fs::path file_of(int month_index) const;

  void spill_all();

  std::int32_t from_;
  std::size_t record_;
  std::vector<std::vector<unsigned char>> buffers_;
  std::vector<bool> spilled_;
  std::size_t budget_;
  std::size_t bytes_ = 0;
  fs::path parent_, dir_;
  std::int64_t spilled_bytes_ = 0;
};
}  // namespace bfs::gkx::staging

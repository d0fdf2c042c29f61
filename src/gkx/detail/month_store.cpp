#include "gkx/detail/month_store.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

#include "core/error.hpp"
#include "gkx/gkx_csv.hpp"  // add_months

namespace bfs::gkx::staging {

fs::path MonthStore::file_of(int month_index) const {
  return dir_ / (std::to_string(add_months(from_, month_index)) + ".bin");
}

MonthStore::~MonthStore() {
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

std::vector<unsigned char> MonthStore::take(int month_index) {
  auto& buf = buffers_[static_cast<std::size_t>(month_index)];
  std::vector<unsigned char> rows;
  if (spilled_[static_cast<std::size_t>(month_index)]) {
    const fs::path file = file_of(month_index);
    const auto size = fs::file_size(file);
    rows.resize(static_cast<std::size_t>(size));
    std::FILE* f = std::fopen(file.c_str(), "rb");
    const bool ok = f != nullptr && std::fread(rows.data(), 1, rows.size(), f) == rows.size();
    if (f != nullptr) std::fclose(f);
    if (!ok || rows.size() % record_ != 0)
      throw InputError(bfs::detail::concat("cannot read the spill file ", file.string()));
    std::error_code ec;
    fs::remove(file, ec);
  }
  rows.insert(rows.end(), buf.begin(), buf.end());
  bytes_ -= buf.size();
  std::vector<unsigned char>().swap(buf);
  return rows;
}

void MonthStore::spill_all() {
  if (dir_.empty()) {
    dir_ = parent_ / bfs::detail::concat(".banditfs-prepare-gkx-spill.", ::getpid());
    std::error_code ec;
    fs::remove_all(dir_, ec);
    fs::create_directories(dir_, ec);
    if (ec)
      throw InputError(bfs::detail::concat("cannot create the spill directory ", dir_.string(), ": ", ec.message()));
  }
  for (std::size_t k = 0; k < buffers_.size(); ++k) {
    auto& buf = buffers_[k];
    if (buf.empty()) continue;
    const fs::path file = file_of(static_cast<int>(k));
    std::FILE* f = std::fopen(file.c_str(), "ab");
    const bool ok = f != nullptr && std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
    if (f != nullptr && std::fclose(f) != 0) throw InputError("cannot write the spill file " + file.string());
    if (!ok)
      throw InputError(bfs::detail::concat("cannot write the spill file ", file.string(), ": ", std::strerror(errno)));
    spilled_[k] = true;
    spilled_bytes_ += static_cast<std::int64_t>(buf.size());
    std::vector<unsigned char>().swap(buf);
  }
  bytes_ = 0;
}

}  // namespace bfs::gkx::staging

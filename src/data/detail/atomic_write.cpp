#include "data/detail/atomic_write.hpp"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "core/error.hpp"

namespace bfs::detail {

void create_parent_directories(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) {
    throw InputError(
        concat("cannot write '", path, "': cannot create the directory '", parent.string(), "': ", ec.message()));
  }
}

void atomic_write(const std::string& path, const std::function<void(const std::string& tmp_path)>& write) {
  const std::string tmp = path + ".tmp";
  try {
    write(tmp);
    std::filesystem::rename(tmp, path);
  } catch (const std::exception& e) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw Error(concat("cannot write '", path, "': ", e.what()));
  }
}

void write_text_atomic(const std::string& path, const std::string& content) {
  atomic_write(path, [&](const std::string& tmp) {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw Error(concat("cannot open '", tmp, "' for writing"));
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      throw Error(concat("write to '", tmp, "' failed"));
    }
  });
}

}  // namespace bfs::detail

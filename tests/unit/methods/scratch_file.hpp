#pragma once
// A file name in the temporary directory, unique to this process and test, removed when the test ends.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace bfs::test {

struct ScratchFile {
  explicit ScratchFile(const std::string& stem)
      : path(std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(::getpid()) + ".h5")) {}
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  std::filesystem::path path;
};

}  // namespace bfs::test

// The replay driver of the fuzz harnesses for builds without libFuzzer (GCC; docs/fuzzing.md): every file named on
// the command line, or inside a directory named there (sorted by name), is fed once to LLVMFuzzerTestOneInput.
// A finding aborts as in the fuzzer, so a ctest entry running this over tests/fuzz/corpus/<harness> and
// tests/fuzz/regressions/<harness> fails when an input that once crashed crashes again.
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "replay: %s (%zu bytes)\n", file.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...  (feeds each file once to the harness)\n", argv[0]);
    return 2;
  }
#if !defined(__SANITIZE_ADDRESS__)
  // An input that makes a reader allocate gigabytes (a corrupt shape) must fail here as it does under libFuzzer's
  // 2 GB limit, whatever this machine's memory: cap the address space at 4 GiB (not under ASan, which reserves
  // terabytes of it and reports huge allocations itself).
  const rlimit cap{rlim_t{4} << 30, rlim_t{4} << 30};
  setrlimit(RLIMIT_AS, &cap);
#endif
  std::size_t count = 0;
  bool ok = true;
  for (int a = 1; a < argc; ++a) {
    const std::filesystem::path arg(argv[a]);
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        if (entry.is_regular_file() && entry.path().filename().string().front() != '.') files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        ok = replay(file) && ok;
        ++count;
      }
    } else {
      ok = replay(arg) && ok;
      ++count;
    }
  }
  std::fprintf(stderr, "replay: %zu input(s) replayed without a finding\n", count);
  return ok ? 0 : 1;
}

#pragma once
// Helpers shared by the data tests: a self-removing temp directory, error-message checks, a small random data set.
#include <unistd.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/rng.hpp"
#include "data/dataset.hpp"

namespace bfs::test {

/// A fresh directory under the system temp dir, removed (with its contents) on destruction.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("banditfs_data_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

/// Runs f, expects an exception of type E whose message contains `needle`.
template <class E, class F>
void expect_error(F&& f, const std::string& needle) {
  try {
    f();
    BOOST_ERROR("no exception thrown; expected one containing: " << needle);
  } catch (const E& e) {
    const std::string what = e.what();
    BOOST_TEST_INFO("message: " << what);
    BOOST_TEST(what.find(needle) != std::string::npos);
  }
}

/// n × p data set with N(0,1) X, y, names x1..xp.
inline Dataset random_dataset(Index n, Index p, std::uint64_t seed = 5) {
  Rng rng(seed);
  Dataset d;
  d.X.resize(n, p);
  d.y.resize(n);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) d.X(i, j) = static_cast<float>(rng.normal());
    d.y[i] = rng.normal() * 3.0;
  }
  d.feature_names = default_feature_names(p);
  d.origin = "random";
  return d;
}

}  // namespace bfs::test

// Fuzz harness: the CSV data reader (data/csv_reader.hpp read_csv), docs/fuzzing.md.
// Input: a first line "target" or "target|feature|feature..." (data.target, data.features), then the CSV file.
// A data set that reads must be whole: n ≥ 1 rows, p ≥ 1 features named, no ±Inf in X (NaN is missing), y finite.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "data/csv_reader.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view spec = input.substr(0, newline);
  const std::string_view csv = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  std::string target;
  std::vector<std::string> features;
  {
    std::size_t start = 0;
    for (bool first = true;; first = false) {
      const std::size_t bar = spec.find('|', start);
      const std::string name(spec.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start));
      if (first)
        target = name;
      else if (features.size() < 64)
        features.push_back(name);
      if (bar == std::string_view::npos) break;
      start = bar + 1;
    }
  }
  const std::string path = bfs::fuzz::write_scratch("input.csv", csv);
  bfs::fuzz::run_one([&] {
    const bfs::Dataset d = bfs::read_csv(path, target, features);
    // NaN in X is a missing cell; a categorical column is one feature of several columns.
    const bool whole = d.rows() >= 1 && d.cols() >= 1 && d.y.size() == d.rows() &&
                       static_cast<bfs::Index>(d.feature_names.size()) == d.features() &&
                       (features.empty() || d.feature_names == features) && !d.X.array().isInf().any() &&
                       d.y.allFinite();
    if (!whole) bfs::fuzz::finding("read_csv returned a data set that is not whole", path.c_str());
  });
  return 0;
}

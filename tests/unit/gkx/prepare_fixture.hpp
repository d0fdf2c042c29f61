#pragma once
// Shared by the prepare-gkx unit tests (test_prepare.cpp, test_prepare_vintage.cpp): a temp dir, tiny CSV writers,
// the malformed-input assertion and HDF5 attribute readers.
#include <hdf5.h>
#include <unistd.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "data/hdf5_io.hpp"
#include "data/hdf5_panel_writer.hpp"
#include "data/source.hpp"
#include "gkx/characteristics.hpp"
#include "gkx/gkx_csv.hpp"
#include "gkx/prepare.hpp"
#include "gkx/rank_transform.hpp"

namespace bfs::gkx::test_support {

namespace fs = std::filesystem;

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("banditfs_gkx_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
    return file(name);
  }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(path_), {})); }

 private:
  fs::path path_;
};

template <class F>
inline void expect_input_error(F&& f, std::initializer_list<std::string> needles) {
  try {
    f();
    BOOST_ERROR("no exception thrown");
  } catch (const InputError& e) {
    const std::string what = e.what();
    BOOST_TEST_INFO("message: " << what);
    for (const auto& needle : needles) BOOST_TEST(what.find(needle) != std::string::npos, "missing: " << needle);
  }
}

/// One row of a tiny characteristics file: every characteristic = `value` unless overridden in `cells`.
struct Row {
  std::string permno, date, value = "1", sic2 = "28", ret = "";
  std::map<std::string, std::string> cells = {};
};

/// Writes a GKX-like CSV: permno, DATE, the 94 characteristics, sic2, RET, prc (an extra ignored column).
inline std::string write_gkx(const TempDir& dir, const std::vector<Row>& rows, const std::string& drop_column = "",
                             const std::string& name = "gkx.csv") {
  std::ostringstream out;
  std::vector<std::string> cols = {"permno", "DATE"};
  cols.insert(cols.end(), kCharacteristics.begin(), kCharacteristics.end());
  cols.insert(cols.end(), {"sic2", "RET", "prc"});
  std::erase(cols, drop_column);
  for (std::size_t k = 0; k < cols.size(); ++k) out << (k ? "," : "") << cols[k];
  out << "\n";
  for (const auto& r : rows) {
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const std::string& c = cols[k];
      std::string v = c == "permno" ? r.permno
                      : c == "DATE" ? r.date
                      : c == "sic2" ? r.sic2
                      : c == "RET"  ? r.ret
                      : c == "prc"  ? "12.5"
                                    : r.value;
      if (auto it = r.cells.find(c); it != r.cells.end()) v = it->second;
      out << (k ? "," : "") << v;
    }
    out << "\n";
  }
  return dir.write(name, out.str());
}

/// Three months 2010-01..2010-03, stocks 10, 11, 12 (written out of permno order), plus one row outside the range.
struct Fixture {
  TempDir dir;
  std::string gkx, returns, rf;
  PrepareOptions options() const {
    PrepareOptions o;
    o.characteristics = gkx;
    o.returns = returns;
    o.riskfree = rf;
    o.from = 201001;
    o.to = 201003;
    o.out = dir.file("panel.h5");
    return o;
  }
  Fixture() {
    gkx = write_gkx(dir, {
                             {"12", "20100129", "3", "35"},
                             {"10", "20100129", "1", "28", "", {{"mom12m", ""}, {"beta", "NA"}}},
                             {"11", "20100129", "2", "28"},
                             {"10", "20100226", "5", ""},
                             {"11", "20100226", "5", "10"},
                             {"13", "20100226", "5", "10"},  // no return: dropped
                             {"10", "20100331", "7", "28"},
                             {"10", "20091231", "9", "28"},  // outside the range
                         });
    returns = dir.write("ret.csv",
                        "PERMNO,date,RET\n"
                        "10,20100129,0.05\n11,20100129,-0.02\n12,20100129,0.10\n"
                        "10,20100226,0.01\n11,20100226,C\n"
                        "10,20100331,0.03\n11,20100331,0.04\n"
                        "10,20100430,0.07\n");
    rf = dir.write("rf.csv", "yyyymm,rf\n201001,0.001\n201002,0.002\n201003,0.003\n201004,0.004\n");
  }
};

inline std::string read_string_attribute(const std::string& path, const char* name) {
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  hid_t t = H5Aget_type(a);
  BOOST_REQUIRE(H5Tis_variable_str(t) > 0);
  char* text = nullptr;
  H5Aread(a, t, &text);
  std::string value(text != nullptr ? text : "");
  H5free_memory(text);
  H5Tclose(t);
  H5Aclose(a);
  H5Fclose(f);
  return value;
}

inline std::size_t column_of(const Dataset& d, const std::string& name) {
  auto it = std::find(d.feature_names.begin(), d.feature_names.end(), name);
  BOOST_REQUIRE(it != d.feature_names.end());
  return static_cast<std::size_t>(it - d.feature_names.begin());
}

}  // namespace bfs::gkx::test_support

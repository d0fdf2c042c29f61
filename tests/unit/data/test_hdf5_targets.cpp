// HDF5 rows without a target (NaN in /y): dropped and counted as the CSV reader does, in a whole-file read, a
// hyperslab read, an offline source and an online panel (whose period offsets then count the kept rows).
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "data/hdf5_io.hpp"
#include "data/source.hpp"
#include "raw_h5_file.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::TempDir;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// n rows of 2 columns: row i is (i, 10·i), so a row read names its file row.
std::vector<float> numbered_rows(std::size_t n) {
  std::vector<float> v;
  for (std::size_t i = 0; i < n; ++i) {
    v.push_back(static_cast<float>(i));
    v.push_back(static_cast<float>(10 * i));
  }
  return v;
}

/// The file rows (column 0) of X.
std::vector<int> file_rows_of(const Matrix& X) {
  std::vector<int> rows;
  for (Index i = 0; i < X.rows(); ++i) rows.push_back(static_cast<int>(X(i, 0)));
  return rows;
}

std::string write_file(TempDir& dir, const std::string& name, const std::vector<double>& y,
                       const std::vector<std::int32_t>& period = {}, const std::vector<std::int64_t>& offsets = {}) {
  const std::string path = dir.file(name);
  test::RawH5File raw(path);
  raw.add_x({y.size(), 2}, numbered_rows(y.size()));
  raw.add_y(y);
  if (!period.empty()) raw.add_i32("period", period);
  if (!offsets.empty()) raw.add_i64("period_offsets", offsets);
  return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hdf5_targets)

BOOST_AUTO_TEST_CASE(rows_with_nan_in_y_are_dropped_and_counted) {
  TempDir dir;
  const std::string path = write_file(dir, "nan_y.h5", {1, kNaN, 3, kNaN, 5, 6});
  const Dataset data = read_hdf5(path);
  BOOST_TEST(data.rows() == 4);
  BOOST_TEST(data.rows_without_target == 2);
  BOOST_TEST(file_rows_of(data.X) == std::vector<int>({0, 2, 4, 5}), boost::test_tools::per_element());
  BOOST_TEST(data.y[1] == 3.0);
  BOOST_TEST(data.X(1, 1) == 20.0f);

  const Hdf5Header header = read_hdf5_header(path);
  BOOST_TEST(header.rows == 4);
  BOOST_TEST(header.dropped_rows == std::vector<Index>({1, 3}), boost::test_tools::per_element());
  const Dataset middle = read_hdf5_rows(path, header, 1, 2);  // kept rows 1 and 2: the file's rows 2 and 4
  BOOST_TEST(file_rows_of(middle.X) == std::vector<int>({2, 4}), boost::test_tools::per_element());
  BOOST_TEST(middle.y[1] == 5.0);
  const Vector y = read_hdf5_y(path, header);
  BOOST_TEST(std::vector<double>(y.data(), y.data() + y.size()) == std::vector<double>({1, 3, 5, 6}),
             boost::test_tools::per_element());

  auto source = make_hdf5_source(path, false, 0, 1);
  BOOST_TEST(source->rows_without_target() == 2);
  BOOST_TEST(source->describe().find("4 rows") != std::string::npos);
  BOOST_TEST(source->describe().find("2 rows without a target dropped") != std::string::npos);
  const Dataset period = source->load_period(0);
  BOOST_TEST(period.rows() == 4);
  BOOST_TEST(period.rows_without_target == 2);

  expect_error<InputError>(
      [&] {
        read_hdf5(path, TableRules{10, 64, true});
      },
      path + ": column '/y' has 2 missing values and data.missing = \"error\"");
  expect_error<InputError>(
      [&] {
        make_hdf5_source(path, false, 0, 1, {}, TableRules{10, 64, true});
      },
      "column '/y' has 2 missing values");
}

BOOST_AUTO_TEST_CASE(a_panel_drops_its_rows_and_recounts_its_periods) {
  TempDir dir;
  // Periods 7 (rows 0-2), 8 (rows 3-4), 9 (rows 5-7); rows 1 and 3 have no target.
  const std::vector<double> y{1, kNaN, 3, kNaN, 5, 6, 7, 8};
  const std::vector<std::int32_t> period{7, 7, 7, 8, 8, 9, 9, 9};
  for (const bool with_offsets : {false, true}) {
    const std::string path =
        write_file(dir, with_offsets ? "offsets.h5" : "period.h5", y, period,
                   with_offsets ? std::vector<std::int64_t>{0, 3, 5, 8} : std::vector<std::int64_t>{});
    const Dataset whole = read_hdf5(path);
    BOOST_TEST(whole.period_offsets == std::vector<std::int64_t>({0, 2, 3, 6}), boost::test_tools::per_element());
    BOOST_TEST(whole.period_labels == std::vector<std::int32_t>({7, 8, 9}), boost::test_tools::per_element());
    BOOST_TEST(whole.rows_without_target == 2);

    auto online = make_hdf5_source(path, true, 1, 3);
    BOOST_TEST(online->num_periods() == 3);
    BOOST_TEST(online->rows_without_target() == 2);
    const std::vector<std::vector<int>> expected{{0, 2}, {4}, {5, 6, 7}};
    for (int k = 0; k < 3; ++k) {
      const Dataset rows = online->load_period(k);
      BOOST_TEST(file_rows_of(rows.X) == expected[static_cast<std::size_t>(k)], boost::test_tools::per_element());
      BOOST_TEST(rows.rows_without_target == 0);  // a period is not every row: the source has the count
      BOOST_TEST(rows.cols() == 3);               // the noise column appended
    }
  }
}

BOOST_AUTO_TEST_CASE(a_period_or_a_file_without_targets_is_an_error) {
  TempDir dir;
  const std::string empty_period = write_file(dir, "empty_period.h5", {1, 2, kNaN, kNaN, 5}, {7, 7, 8, 8, 9});
  expect_error<InputError>([&] { read_hdf5_header(empty_period); },
                           empty_period + ": period 8 (period 1, rows 2 to 3) has no rows with a target");
  const std::string none = write_file(dir, "none.h5", {kNaN, kNaN});
  expect_error<InputError>([&] { read_hdf5(none); }, none + ": no rows with a target: every one of the 2 rows");
}

BOOST_AUTO_TEST_SUITE_END()

// HDF5 schema: round trips, header-only and hyperslab reads, and every bad-input error (bad files are built with
// the HDF5 C API directly).
#include <hdf5.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "core/error.hpp"
#include "data/hdf5_io.hpp"
#include "raw_h5_file.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::random_dataset;
using bfs::test::TempDir;

namespace {

using RawFile = bfs::test::RawH5File;

std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * 0.5f;
  return v;
}

bool same_bytes(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}
bool same_bytes(const Vector& a, const Vector& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

/// make(name, fill): the path of a new file `name` in `dir`, its datasets written by fill(RawFile&).
auto file_maker(TempDir& dir) {
  return [&dir](const std::string& name, auto&& fill) {
    const std::string path = dir.file(name);
    {
      RawFile raw(path);
      fill(raw);
    }
    return path;
  };
}

Dataset paneled(Index n = 37, Index p = 6) {
  Dataset d = random_dataset(n, p);
  d.period_offsets = {0, 10, 25, n};
  d.period_labels = {201001, 201002, 201003};
  d.truth = {1, 4};
  d.has_truth = true;
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hdf5)

BOOST_AUTO_TEST_CASE(round_trip_plain) {
  TempDir dir;
  const std::string path = dir.file("plain.h5");
  Dataset d = random_dataset(37, 6);
  write_hdf5(d, path);
  BOOST_TEST(!std::filesystem::exists(path + ".tmp"));
  Dataset r = read_hdf5(path);
  BOOST_TEST(same_bytes(r.X, d.X));
  BOOST_TEST(same_bytes(r.y, d.y));
  BOOST_TEST(r.feature_names == d.feature_names, boost::test_tools::per_element());
  BOOST_TEST(r.period_offsets.empty());
  BOOST_TEST(r.period_labels.empty());
  BOOST_TEST(!r.has_truth);
  BOOST_TEST(r.origin == path);
  // Overwriting an existing file works and replaces it.
  Dataset d2 = random_dataset(5, 2, 99);
  write_hdf5(d2, path);
  BOOST_TEST(read_hdf5_header(path).rows == 5);
}

BOOST_AUTO_TEST_CASE(round_trip_with_periods_and_truth) {
  TempDir dir;
  const std::string path = dir.file("panel.h5");
  Dataset d = paneled();
  write_hdf5(d, path);
  Dataset r = read_hdf5(path);
  BOOST_TEST(same_bytes(r.X, d.X));
  BOOST_TEST(same_bytes(r.y, d.y));
  BOOST_TEST(r.period_offsets == d.period_offsets, boost::test_tools::per_element());
  BOOST_TEST(r.period_labels == d.period_labels, boost::test_tools::per_element());
  BOOST_TEST(r.truth == d.truth, boost::test_tools::per_element());
  BOOST_TEST(r.has_truth);
  // Known truth that happens to be empty survives as "known and empty".
  d.truth.clear();
  write_hdf5(d, path);
  Hdf5Header h = read_hdf5_header(path);
  BOOST_TEST(h.has_truth);
  BOOST_TEST(h.truth.empty());
}

BOOST_AUTO_TEST_CASE(header_only_and_period_hyperslab) {
  TempDir dir;
  const std::string path = dir.file("panel.h5");
  Dataset d = paneled();
  write_hdf5(d, path);
  Hdf5Header h = read_hdf5_header(path);
  BOOST_TEST(h.rows == 37);
  BOOST_TEST(h.cols == 6);
  BOOST_TEST(h.feature_names == d.feature_names, boost::test_tools::per_element());
  BOOST_TEST(h.period_offsets == d.period_offsets, boost::test_tools::per_element());
  BOOST_TEST(h.period_labels == d.period_labels, boost::test_tools::per_element());
  Dataset part = read_hdf5_rows(path, h, 10, 15);
  BOOST_TEST(same_bytes(part.X, Matrix(d.X.middleRows(10, 15))));
  BOOST_TEST(same_bytes(part.y, Vector(d.y.segment(10, 15))));
  BOOST_TEST(part.period_offsets.empty());
  BOOST_TEST(part.feature_names == d.feature_names, boost::test_tools::per_element());
  BOOST_TEST(part.truth == d.truth, boost::test_tools::per_element());
  expect_error<InputError>([&] { read_hdf5_rows(path, h, 30, 8); }, "outside [0, 37)");
}

BOOST_AUTO_TEST_CASE(x_is_chunked_by_rows_with_capped_chunk_bytes) {
  TempDir dir;
  const std::string path = dir.file("wide.h5");
  write_hdf5(random_dataset(600, 2000), path);
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t x = H5Dopen2(f, "X", H5P_DEFAULT);
  hid_t dcpl = H5Dget_create_plist(x);
  BOOST_TEST(H5Pget_layout(dcpl) == H5D_CHUNKED);
  hsize_t chunk[2] = {0, 0};
  H5Pget_chunk(dcpl, 2, chunk);
  BOOST_TEST(chunk[1] == 2000u);
  BOOST_TEST(chunk[0] * 2000 * 4 <= (4u << 20));
  BOOST_TEST(chunk[0] == (4u << 20) / (2000 * 4));
  hid_t type = H5Dget_type(x);
  BOOST_TEST(H5Tequal(type, H5T_IEEE_F32LE) > 0);
  H5Tclose(type);
  H5Pclose(dcpl);
  H5Dclose(x);
  H5Fclose(f);
}

BOOST_AUTO_TEST_CASE(fixed_length_names_and_period_only_files_are_read) {
  TempDir dir;
  const std::string path = dir.file("fixed.h5");
  {
    RawFile raw(path);
    raw.add_x({4, 2}, ramp(8));
    raw.add_y({1, 2, 3, 4});
    raw.add_fixed_strings("feature_names", {"alpha", "be"}, 8);
    raw.add_i32("period", {5, 5, 9, 9});  // offsets and labels derived from the sorted /period
  }
  Dataset r = read_hdf5(path);
  BOOST_TEST(r.feature_names == std::vector<std::string>({"alpha", "be"}), boost::test_tools::per_element());
  BOOST_TEST(r.period_offsets == std::vector<std::int64_t>({0, 2, 4}), boost::test_tools::per_element());
  BOOST_TEST(r.period_labels == std::vector<std::int32_t>({5, 9}), boost::test_tools::per_element());
  BOOST_TEST(r.X(3, 1) == 3.5f);
}

BOOST_AUTO_TEST_CASE(bad_files_are_named) {
  TempDir dir;
  const std::string missing = dir.file("x.h5");
  expect_error<InputError>([&] { read_hdf5_header(missing); }, "cannot open HDF5 file '" + missing + "': no such file");
  const std::string text = dir.write("text.h5", "not hdf5\n");
  expect_error<InputError>([&] { read_hdf5_header(text); }, "not an HDF5 file");
  const auto make = file_maker(dir);
  const std::vector<double> y4 = {1, 2, 3, 4};
  std::string p = make("nox.h5", [&](RawFile& r) { r.add_y(y4); });
  expect_error<InputError>([&] { read_hdf5_header(p); }, p + ": dataset /X is missing");
  p = make("noy.h5", [&](RawFile& r) { r.add_x({4, 2}, ramp(8)); });
  expect_error<InputError>([&] { read_hdf5_header(p); }, p + ": dataset /y is missing");
  p = make("x1d.h5", [&](RawFile& r) {
    r.add_x({8}, ramp(8));
    r.add_y(y4);
  });
  expect_error<InputError>([&] { read_hdf5_header(p); }, p + ": /X must be 2-D");
  p = make("ylen.h5", [&](RawFile& r) {
    r.add_x({100, 1}, ramp(100));
    r.add_y(std::vector<double>(99, 0.0));
  });
  expect_error<InputError>([&] { read_hdf5_header(p); }, p + ": /y has 99 rows but /X has 100");
  p = make("names.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_fixed_strings("feature_names", {"a", "b", "c"}, 4);
  });
  expect_error<InputError>([&] { read_hdf5_header(p); }, "/feature_names has 3 entries but /X has 2 columns");
  p = make("p0.h5", [&](RawFile& r) {
    r.add_x({4, 0}, std::vector<float>{});
    r.add_y(y4);
  });
  expect_error<InputError>([&] { read_hdf5_header(p); }, p + ": p = 0 (no feature columns)");
}

BOOST_AUTO_TEST_CASE(bad_period_offsets_and_truth_are_named) {
  TempDir dir;
  const auto make = file_maker(dir);
  const std::vector<double> y4 = {1, 2, 3, 4};
  std::string p = make("offsets.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i64("period_offsets", {0, 3, 2, 4});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); }, "/period_offsets not increasing at entry 2");
  p = make("offsets_end.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i64("period_offsets", {0, 3});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); }, "/period_offsets ends at 3 but /X has 4 rows");
  p = make("truth.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i32("truth", {0, 2});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); }, "/truth index 2 out of range [0, 2)");
  // A repeated /truth index would be counted twice in power and Hamming distance: the header refuses it, so a
  // panel read period by period (which never meets validate_dataset) refuses it too.
  p = make("truth_repeat.h5", [&](RawFile& r) {
    r.add_x({4, 3}, ramp(12));
    r.add_y(y4);
    r.add_i32("truth", {1, 1});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); }, p + ": /truth lists feature index 1 more than once");
}

BOOST_AUTO_TEST_CASE(overlong_datasets_are_refused) {
  TempDir dir;
  const auto make = file_maker(dir);
  const std::vector<double> y4 = {1, 2, 3, 4};
  // Lengths are bounded by /X's shape before a 1-D dataset is allocated (a corrupt shape cannot claim memory).
  std::string p = make("truth_long.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i32("truth", {0, 1, 0});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); },
                           p + ": /truth has 3 entries, more than 2 (at most one per column of /X)");
  p = make("period_long.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i32("period", {1, 1, 2, 2, 3});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); },
                           p + ": /period has 5 entries, more than 4 (one per row of /X)");
  p = make("labels_long.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i64("period_offsets", {0, 2, 4});
    r.add_i32("period_labels", {7, 8, 9});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); },
                           p + ": /period_labels has 3 entries, more than 2 (one per period)");
}

BOOST_AUTO_TEST_CASE(period_datasets_must_agree) {
  TempDir dir;
  const auto make = file_maker(dir);
  const std::vector<double> y4 = {1, 2, 3, 4};
  // /period and /period_offsets must describe the same periods.
  std::string p = make("period_flat.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i32("period", {0, 0, 0, 0});
    r.add_i64("period_offsets", {0, 1, 2, 4});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); },
                           p + ": /period and /period_offsets disagree: /period_offsets starts period 1 at row 1 but "
                               "/period is 0 on both sides of it");
  p = make("period_split.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i32("period", {5, 6, 7, 7});
    r.add_i64("period_offsets", {0, 2, 4});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); },
                           p + ": /period and /period_offsets disagree: /period changes from 5 to 6 at row 1, inside "
                               "period 0 of /period_offsets (rows 0 to 1)");
  p = make("period_labels.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i32("period", {5, 5, 7, 7});
    r.add_i64("period_offsets", {0, 2, 4});
    r.add_i32("period_labels", {5, 8});
  });
  expect_error<InputError>([&] { read_hdf5_header(p); },
                           p + ": /period and /period_labels disagree: period 1 is labelled 8 but /period is 7");
  p = make("period_agree.h5", [&](RawFile& r) {
    r.add_x({4, 2}, ramp(8));
    r.add_y(y4);
    r.add_i32("period", {5, 5, 7, 7});
    r.add_i64("period_offsets", {0, 2, 4});
    r.add_i32("period_labels", {5, 7});
  });
  BOOST_TEST(read_hdf5_header(p).period_labels == std::vector<std::int32_t>({5, 7}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(nonfinite_values_are_rejected_with_their_position) {
  TempDir dir;
  std::vector<float> x = ramp(8);
  x[5] = std::numeric_limits<float>::quiet_NaN();  // row 2, column 2: a missing cell, counted
  const std::string px = dir.file("nanx.h5");
  {
    RawFile raw(px);
    raw.add_x({4, 2}, x);
    raw.add_y({1, 2, 3, 4});
  }
  const Dataset with_missing = read_hdf5(px);
  BOOST_TEST(std::isnan(with_missing.X(2, 1)));
  BOOST_TEST(with_missing.missing == std::vector<std::int64_t>({0, 1}), boost::test_tools::per_element());
  BOOST_TEST(with_missing.layout.one_column_each());
  expect_error<InputError>(
      [&] {
        read_hdf5(px, TableRules{10, 64, true});
      },
      px + ": column 'x2' has 1 missing value and data.missing = \"error\"");

  x[5] = std::numeric_limits<float>::infinity();
  const Hdf5Header h = read_hdf5_header(px);
  const std::string pinf_rows = dir.file("infrows.h5");
  {
    RawFile raw(pinf_rows);
    raw.add_x({4, 2}, x);
    raw.add_y({1, 2, 3, 4});
  }
  BOOST_CHECK_NO_THROW(read_hdf5_rows(pinf_rows, h, 0, 2));  // only the rows read are checked
  expect_error<InputError>([&] { read_hdf5_rows(pinf_rows, h, 1, 3); }, "X has +Inf at row 2");

  const std::string pinf = dir.file("infx.h5");
  {
    RawFile raw(pinf);
    raw.add_x({4, 2}, x);
    raw.add_y({1, 2, 3, 4});
  }
  expect_error<InputError>([&] { read_hdf5(pinf); }, "X has +Inf at row 2, column 'x2'");

  const std::string py = dir.file("nany.h5");
  {
    RawFile raw(py);
    raw.add_x({4, 2}, ramp(8));
    raw.add_y({1, 2, -std::numeric_limits<double>::infinity(), std::nan("")});
  }
  expect_error<InputError>([&] { read_hdf5(py); }, py + ": y has -Inf at row 2");
}

BOOST_AUTO_TEST_CASE(writing_bad_data_leaves_no_file) {
  TempDir dir;
  const std::string path = dir.file("bad.h5");
  Dataset d = random_dataset(5, 2);
  d.X(0, 0) = std::numeric_limits<float>::infinity();
  expect_error<InputError>([&] { write_hdf5(d, path); }, "X has +Inf at row 0");
  BOOST_TEST(!std::filesystem::exists(path));
  BOOST_TEST(!std::filesystem::exists(path + ".tmp"));
  expect_error<InputError>([&] { write_hdf5(random_dataset(5, 2), dir.file("no/such/dir/x.h5")); }, "x.h5");
}

BOOST_AUTO_TEST_SUITE_END()

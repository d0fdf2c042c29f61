// Binary labels at the data boundary (data/labels.hpp): which pairs are kept or mapped, every error's message, and
// the same rules through the real readers: CSV, HDF5 offline, HDF5 online panels (validated over all rows at open),
// the simulated source, and make_data_source. Regression targets must pass through bit for bit.
#include <hdf5.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "data/csv_reader.hpp"
#include "data/hdf5_io.hpp"
#include "data/labels.hpp"
#include "data/source.hpp"
#include "run/data_sources.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::random_dataset;
using bfs::test::TempDir;

namespace {

Vector vec(std::vector<double> v) {
  return Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size()));
}

std::vector<double> values_of(const Vector& y) {
  return {y.data(), y.data() + y.size()};
}

const LabelSpec kBinary{Task::Binary, std::nullopt};

/// Maps y as a binary target named "x.csv"; returns the mapped values.
std::vector<double> mapped(std::vector<double> y, std::optional<double> positive = std::nullopt) {
  Vector v = vec(std::move(y));
  map_labels(v, LabelSpec{Task::Binary, positive}, "x.csv");
  return values_of(v);
}

/// Expects an InputError from mapping y whose message holds every fragment.
void expect_label_error(std::vector<double> y, std::optional<double> positive, const std::vector<std::string>& parts) {
  for (const auto& part : parts) {
    expect_error<InputError>([&] { mapped(y, positive); }, part);
  }
}

/// A CSV of n rows with a feature column and the target column `y` holding `y`.
std::string write_csv(const TempDir& dir, const std::string& name, const std::vector<double>& y) {
  std::string text = "a,y\n";
  for (std::size_t i = 0; i < y.size(); ++i) text += std::to_string(i) + "," + std::to_string(y[i]) + "\n";
  return dir.write(name, text);
}

/// An HDF5 panel with the given y; periods cut at `offsets`.
std::string write_panel(const TempDir& dir, const std::string& name, const std::vector<double>& y,
                        std::vector<std::int64_t> offsets) {
  Dataset d = random_dataset(static_cast<Index>(y.size()), 3);
  d.y = vec(y);
  d.period_offsets = std::move(offsets);
  const std::string path = dir.file(name);
  write_hdf5(d, path);
  return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(labels)

BOOST_AUTO_TEST_CASE(zero_one_is_kept) {
  BOOST_TEST(mapped({0, 1, 1, 0}) == std::vector<double>({0, 1, 1, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(minus_one_one_maps_to_zero_one) {
  BOOST_TEST(mapped({-1, 1, 1, -1}) == std::vector<double>({0, 1, 1, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(positive_label_picks_class_one) {
  BOOST_TEST(mapped({2, 5, 5, 2}, 5.0) == std::vector<double>({0, 1, 1, 0}), boost::test_tools::per_element());
  BOOST_TEST(mapped({2, 5, 5, 2}, 2.0) == std::vector<double>({1, 0, 0, 1}), boost::test_tools::per_element());
  // It also overrides the {0,1} default when the user says 0 is the positive class.
  BOOST_TEST(mapped({0, 1}, 0.0) == std::vector<double>({1, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(regression_leaves_y_untouched) {
  const std::vector<double> y = {2.5, -1.0, 1e-300, 7.0, 7.0};
  Vector v = vec(y);
  map_labels(v, LabelSpec{}, "x.csv");
  BOOST_TEST(std::memcmp(v.data(), y.data(), sizeof(double) * y.size()) == 0);
}

BOOST_AUTO_TEST_CASE(errors_name_the_task_the_file_the_count_and_the_values) {
  expect_label_error({0, 1, 2, 1}, std::nullopt,
                     {"data.task = \"binary\": y in 'x.csv' has 3 distinct values (0, 1, 2); binary targets need "
                      "exactly two"});
  expect_label_error({4, 3, 2, 1, 0}, std::nullopt, {"data.task", "'x.csv'", "5 distinct values (0, 1, 2, ...)"});
  expect_label_error({7, 7, 7}, std::nullopt, {"data.task = \"binary\"", "'x.csv'", "1 distinct value (7)"});
  expect_label_error({2, 5, 2}, 3.0,
                     {"data.task = \"binary\"", "data.positive_label = 3", "'x.csv'", "2 distinct values", "(2, 5)"});
  expect_label_error({2, 5, 2}, std::nullopt,
                     {"data.task = \"binary\"", "'x.csv'", "2 distinct values (2, 5)", "set data.positive_label"});
  // Values are printed exactly, so labels that differ late are told apart.
  expect_label_error({0.1234567, 0.1234568}, std::nullopt, {"(0.1234567, 0.1234568)"});
  // NaN stays a NaN error (it is not a class).
  expect_label_error({0, 1, std::nan(""), 1}, std::nullopt, {"x.csv: y has NaN at row 2"});
}

BOOST_AUTO_TEST_CASE(validate_returns_the_mapping) {
  const std::vector<double> y = {5, 2, 5};
  const BinaryLabels l = validate_binary_labels(y, 2.0, "d");
  BOOST_TEST(l.positive == 2.0);
  BOOST_TEST(l.negative == 5.0);
}

BOOST_AUTO_TEST_CASE(csv_through_make_data_source) {
  TempDir dir;
  DataConfig c;
  c.source = SourceKind::Csv;
  c.target = "y";
  c.task = Task::Binary;
  c.path = write_csv(dir, "pm.csv", {-1, 1, 1, -1, 1});
  auto source = make_data_source(c, 1, false);
  BOOST_TEST(values_of(source->load_period(0).y) == std::vector<double>({0, 1, 1, 0, 1}),
             boost::test_tools::per_element());

  c.path = write_csv(dir, "three.csv", {0, 1, 2, 1});
  expect_error<InputError>([&] { make_data_source(c, 1, false); }, "y in '" + c.path + "' has 3 distinct values");
  c.path = write_csv(dir, "pair.csv", {2, 5, 5});
  expect_error<InputError>([&] { make_data_source(c, 1, false); }, "set data.positive_label");
  c.positive_label = 5.0;
  BOOST_TEST(values_of(make_data_source(c, 1, true)->load_period(0).y) == std::vector<double>({0, 1, 1}),
             boost::test_tools::per_element());

  // Regression: y exactly as the reader gives it.
  c.task = Task::Regression;
  c.positive_label.reset();
  c.path = write_csv(dir, "reg.csv", {0.25, 3, -7.5});
  const Vector direct = read_csv(c.path, "y").y;
  const Vector through = make_data_source(c, 1, false)->load_period(0).y;
  BOOST_TEST(std::memcmp(direct.data(), through.data(), sizeof(double) * 3) == 0);
}

BOOST_AUTO_TEST_CASE(hdf5_offline_maps_with_positive_label) {
  TempDir dir;
  DataConfig c;
  c.source = SourceKind::Hdf5;
  c.task = Task::Binary;
  c.positive_label = 2.0;
  c.path = write_panel(dir, "d.h5", {2, 5, 5, 2, 2, 5}, {});
  BOOST_TEST(values_of(make_data_source(c, 1, false)->load_period(0).y) == std::vector<double>({1, 0, 0, 1, 1, 0}),
             boost::test_tools::per_element());
  c.positive_label = 4.0;
  expect_error<InputError>([&] { make_data_source(c, 1, false); }, "data.positive_label = 4 is not one of");
}

BOOST_AUTO_TEST_CASE(hdf5_panel_is_validated_over_all_rows_at_open) {
  TempDir dir;
  // Period 0 holds one class only; over all rows there are two, so the panel is fine and period 0 maps to 0s.
  const std::string ok = write_panel(dir, "ok.h5", {-1, -1, -1, -1, 1, -1, 1}, {0, 4, 7});
  auto source = make_hdf5_source(ok, true, 0, 1, kBinary);
  BOOST_TEST(source->num_periods() == 2);
  BOOST_TEST(values_of(source->load_period(0).y) == std::vector<double>({0, 0, 0, 0}),
             boost::test_tools::per_element());
  BOOST_TEST(values_of(source->load_period(1).y) == std::vector<double>({1, 0, 1}), boost::test_tools::per_element());

  // A third value in the last period fails when the source opens, before any period is loaded.
  const std::string bad = write_panel(dir, "bad.h5", {0, 1, 0, 1, 0, 1, 3}, {0, 2, 4, 7});
  expect_error<InputError>([&] { make_hdf5_source(bad, true, 0, 1, kBinary); },
                           "y in '" + bad + "' has 3 distinct values (0, 1, 3)");
  // Regression opens it and returns y untouched.
  BOOST_TEST(make_hdf5_source(bad, true, 0, 1)->load_period(2).y[2] == 3.0);
}

BOOST_AUTO_TEST_CASE(hdf5_nan_in_y_drops_the_row) {
  TempDir dir;
  const std::string path = write_panel(dir, "nan.h5", {0, 1, 0, 1, 0, 1}, {0, 3, 6});
  const Hdf5Header before = read_hdf5_header(path);
  {
    // write_hdf5 refuses NaN, so it goes into /y through the C API afterwards.
    const std::vector<double> y = {0, 1, 0, 1, std::nan(""), 1};
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t dset = H5Dopen2(file, "y", H5P_DEFAULT);
    BOOST_REQUIRE(H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, y.data()) >= 0);
    H5Dclose(dset);
    H5Fclose(file);
  }
  // A missing target, not a third class: the row is dropped (tests/unit/data/test_hdf5_targets.cpp).
  auto source = make_hdf5_source(path, true, 0, 1, kBinary);
  BOOST_TEST(source->rows_without_target() == 1);
  const Dataset second = source->load_period(1);
  BOOST_TEST(second.rows() == 2);
  BOOST_TEST(second.y[0] == 1.0);
  BOOST_TEST(second.y[1] == 1.0);
  // A header read before the NaN was written does not drop the row: its read refuses the NaN.
  expect_error<InputError>([&] { read_hdf5_rows(path, before, 3, 3); }, path + ": y has NaN at row 4");
}

BOOST_AUTO_TEST_CASE(simulated_source_through_make_data_source) {
  DataConfig c;
  c.dgp = Dgp::Friedman1;
  c.n = 200;
  c.p = 8;
  c.periods = 2;
  c.task = Task::Binary;
  auto source = make_data_source(c, 4, true);
  for (int k = 0; k < 2; ++k) {
    const Vector y = source->load_period(k).y;
    BOOST_TEST((y.array() == 0.0 || y.array() == 1.0).all());
  }
  c.positive_label = 1.0;
  expect_error<ConfigError>([&] { make_data_source(c, 4, true); }, "data.positive_label is not used");
  // A batch too small to hold both classes fails with the labels' message, naming the batch.
  c.positive_label.reset();
  c.n = 2;
  c.periods = 1;
  bool one_class_seen = false;
  for (std::uint64_t seed = 1; seed < 40 && !one_class_seen; ++seed) {
    try {
      make_data_source(c, seed, false)->load_period(0);
    } catch (const InputError& e) {
      one_class_seen = true;
      BOOST_TEST(std::string(e.what()).find("'simulate:friedman1 batch 0' has 1 distinct value") != std::string::npos);
    }
  }
  BOOST_TEST(one_class_seen);
}

BOOST_AUTO_TEST_SUITE_END()

// Contextual-bandit logs: CSV parsing (categorical codes in sorted label order, missing
// cells, data.arms), CSV and HDF5 round trips through the writers, column blocks, staged writes, and every bad input
// of the specification that concerns data (bad HDF5 files are built with the HDF5 C API directly).
#include <hdf5.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "core/error.hpp"
#include "data/logged_data.hpp"
#include "raw_h5_file.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::TempDir;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// A CSV spec: arm and reward columns "arm" and "reward" unless named.
LoggedCsvSpec csv_spec(std::vector<std::string> features = {}, std::vector<std::string> categorical = {},
                       std::vector<std::string> arms = {}, std::string arm = "arm", std::string reward = "reward") {
  LoggedCsvSpec spec;
  spec.arm = std::move(arm);
  spec.reward = std::move(reward);
  spec.features = std::move(features);
  spec.categorical = std::move(categorical);
  spec.arms = std::move(arms);
  return spec;
}

/// Bitwise equality (NaN == NaN).
bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  // memcmp of an empty vector's data() (possibly null) is undefined: compare sizes first.
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

void expect_same_log(const LoggedSource& a, const LoggedSource& b) {
  const LoggedHeader &x = a.header(), &y = b.header();
  BOOST_TEST(x.rows == y.rows);
  BOOST_TEST(x.cols == y.cols);
  BOOST_TEST(x.feature_names == y.feature_names, boost::test_tools::per_element());
  BOOST_TEST(x.categorical == y.categorical, boost::test_tools::per_element());
  BOOST_TEST(x.category_labels.size() == y.category_labels.size());
  for (std::size_t j = 0; j < x.category_labels.size() && j < y.category_labels.size(); ++j)
    BOOST_TEST(x.category_labels[j] == y.category_labels[j], boost::test_tools::per_element());
  BOOST_TEST(x.arm_labels == y.arm_labels, boost::test_tools::per_element());
  BOOST_TEST(x.arm == y.arm, boost::test_tools::per_element());
  BOOST_TEST(x.reward == y.reward, boost::test_tools::per_element());
  BOOST_TEST(same_floats(a.columns(0, x.cols), b.columns(0, y.cols)));
}

/// A small log with a text categorical, a numeric categorical, NaNs, truth and correlational features.
LoggedHeader small_header(Index rows, Index cols) {
  LoggedHeader h;
  h.origin = "memory";
  h.rows = rows;
  h.cols = cols;
  h.feature_names = default_feature_names(cols);
  h.categorical.assign(static_cast<std::size_t>(cols), 0);
  h.category_labels.resize(static_cast<std::size_t>(cols));
  h.arm_labels = {"ctl", "treat, \"B\""};
  for (Index i = 0; i < rows; ++i) {
    h.arm.push_back(static_cast<std::int32_t>(i % 2));
    h.reward.push_back(static_cast<std::uint8_t>((i / 2) % 2));
  }
  return h;
}

std::unique_ptr<LoggedSource> small_log(Index rows, Index cols) {
  LoggedHeader h = small_header(rows, cols);
  h.categorical[1] = 1;
  h.category_labels[1] = {"blue", "green", "red"};
  h.truth = {0, 2};
  h.has_truth = true;
  h.correlational = {static_cast<FeatureId>(cols - 1)};
  Rng rng(7);
  std::vector<float> x(static_cast<std::size_t>(rows * cols));
  for (Index j = 0; j < cols; ++j) {
    for (Index i = 0; i < rows; ++i) {
      float& v = x[static_cast<std::size_t>(j * rows + i)];
      v = j == 1 ? static_cast<float>(rng.uniform_int(3)) : static_cast<float>(rng.normal());
      if ((i + j) % 11 == 0) v = kNaN;
    }
  }
  return make_logged_memory(std::move(h), std::move(x));
}

using RawLog = bfs::test::RawH5File;

/// A raw log: X [rows, cols] row-major, /arm, /arm_labels, /reward; `skip` leaves one of them out.
std::string raw_log(const TempDir& dir, const std::string& name, hsize_t rows, hsize_t cols, std::vector<float> x,
                    const std::vector<std::int32_t>& arm, const std::vector<std::string>& labels,
                    const std::vector<double>& reward, const std::string& skip = "") {
  const std::string path = dir.file(name);
  RawLog log(path);
  if (x.empty()) x.assign(rows * cols, 0.5f);
  log.add("X", {rows, cols}, x, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT);
  if (skip != "arm") log.add("arm", {arm.size()}, arm, H5T_STD_I32LE, H5T_NATIVE_INT32);
  if (skip != "arm_labels") log.strings("arm_labels", labels);
  if (skip != "reward") log.add("reward", {reward.size()}, reward, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
  return path;
}

const std::vector<std::int32_t> kArms4 = {0, 1, 0, 1};
const std::vector<double> kRewards4 = {0, 1, 1, 0};

}  // namespace

BOOST_AUTO_TEST_SUITE(logged_data)

BOOST_AUTO_TEST_CASE(csv_codes_categorical_columns_in_sorted_label_order) {
  TempDir dir;
  const std::string path = dir.write("log.csv",
                                     "color,size,level,arm,reward\n"
                                     "red,1.5,10,B,1\n"
                                     "blue,,2,A,0\n"
                                     "\"green\",NaN,1,B,0\n"
                                     ",-2,10,A,1\n"
                                     "red,3,,A,1.0\n");
  const auto log = open_logged_csv(path, csv_spec({}, {"level"}));
  const LoggedHeader& h = log->header();
  BOOST_TEST(h.origin == path);
  BOOST_TEST(h.rows == 5);
  BOOST_TEST(h.cols == 3);
  BOOST_TEST(h.feature_names == std::vector<std::string>({"color", "size", "level"}), boost::test_tools::per_element());
  BOOST_TEST(h.categorical == std::vector<std::uint8_t>({1, 0, 1}), boost::test_tools::per_element());
  BOOST_TEST(h.category_labels[0] == std::vector<std::string>({"blue", "green", "red"}),
             boost::test_tools::per_element());
  BOOST_TEST(h.category_labels[1].empty());
  // A numeric column named in data.categorical: its values in numeric order ("2" before "10").
  BOOST_TEST(h.category_labels[2] == std::vector<std::string>({"1", "2", "10"}), boost::test_tools::per_element());
  BOOST_TEST(h.arm_labels == std::vector<std::string>({"A", "B"}), boost::test_tools::per_element());
  BOOST_TEST(h.arm == std::vector<std::int32_t>({1, 0, 1, 0, 0}), boost::test_tools::per_element());
  BOOST_TEST(h.reward == std::vector<std::uint8_t>({1, 0, 0, 1, 1}), boost::test_tools::per_element());
  const std::vector<float> x = log->columns(0, 3);
  const std::vector<float> want = {2, 0, 1, kNaN, 2, 1.5f, kNaN, kNaN, -2, 3, 2, 1, 0, 2, kNaN};
  BOOST_TEST(same_floats(x, want));
  BOOST_TEST(same_floats(log->columns(1, 1), std::vector<float>(want.begin() + 5, want.begin() + 10)));
  BOOST_TEST(!h.has_truth);
}

BOOST_AUTO_TEST_CASE(csv_feature_subset_and_declared_arm_order) {
  TempDir dir;
  const std::string path = dir.write("log.csv", "id,x,arm,y,reward\nr1,1,2,5,0\nr2,2,10,6,1\nr3,3,2,7,1\n");
  const auto log = open_logged_csv(path, csv_spec({"y", "x"}));
  BOOST_TEST(log->header().feature_names == std::vector<std::string>({"y", "x"}), boost::test_tools::per_element());
  BOOST_TEST(log->header().categorical == std::vector<std::uint8_t>({0, 0}), boost::test_tools::per_element());
  // Numeric arm labels sort numerically by default ...
  BOOST_TEST(log->header().arm_labels == std::vector<std::string>({"2", "10"}), boost::test_tools::per_element());
  BOOST_TEST(log->header().arm == std::vector<std::int32_t>({0, 1, 0}), boost::test_tools::per_element());
  // ... and data.arms gives the order (its first arm is the default control).
  const auto declared = open_logged_csv(path, csv_spec({}, {}, {"10", "2"}));
  BOOST_TEST(declared->header().arm_labels == std::vector<std::string>({"10", "2"}), boost::test_tools::per_element());
  BOOST_TEST(declared->header().arm == std::vector<std::int32_t>({1, 0, 1}), boost::test_tools::per_element());
  // Without data.features every other column is a feature; the text column "id" is categorical.
  BOOST_TEST(declared->header().feature_names == std::vector<std::string>({"id", "x", "y"}),
             boost::test_tools::per_element());
  BOOST_TEST(declared->header().categorical == std::vector<std::uint8_t>({1, 0, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_csv_row_is_located_by_its_file_and_1_based_line) {
  TempDir dir;
  // Line 1 the header, rows 0 and 1 on lines 2 and 3, two blank lines, rows 2 and 3 on lines 6 and 7.
  const std::string path = dir.write("log.csv", "x,arm,reward\n1,a,0\n2,b,1\n\n  \n3,a,1\n4,b,0\n");
  const auto log = open_logged_csv(path, csv_spec());
  BOOST_TEST(row_location(log->header(), 0) == path + ": line 2");
  BOOST_TEST(row_location(log->header(), 1) == path + ": line 3");
  BOOST_TEST(row_location(log->header(), 2) == path + ": line 6");
  BOOST_TEST(row_location(log->header(), 3) == path + ": line 7");
  // A log that is no CSV file has no lines: its rows are named as such.
  LoggedHeader memory = log->header();
  memory.origin = "simulate cmab-hte (seed 1)";
  memory.line_anchors.clear();
  BOOST_TEST(row_location(memory, 3) == "simulate cmab-hte (seed 1): row 3 (0-based)");
}

BOOST_AUTO_TEST_CASE(csv_round_trip_through_the_writer) {
  TempDir dir;
  const auto log = small_log(40, 5);
  const std::string path = dir.file("out.csv");
  write_logged_csv(path, *log);
  BOOST_TEST(!std::filesystem::exists(path + ".tmp"));
  const auto back = open_logged_csv(path, csv_spec());
  expect_same_log(*log, *back);
  BOOST_TEST(back->header().arm_labels[1] == "treat, \"B\"");  // quoted and un-escaped
}

BOOST_AUTO_TEST_CASE(hdf5_round_trip_with_categories_truth_and_chunks) {
  TempDir dir;
  const auto log = small_log(100, 70);  // two column blocks: 64 + 6
  const std::string path = dir.file("log.h5");
  write_logged_hdf5(path, *log);
  BOOST_TEST(!std::filesystem::exists(path + ".tmp"));
  const auto back = open_logged_hdf5(path, {});
  expect_same_log(*log, *back);
  BOOST_TEST(back->header().origin == path);
  BOOST_TEST(back->header().has_truth);
  BOOST_TEST(back->header().truth == std::vector<FeatureId>({0, 2}), boost::test_tools::per_element());
  BOOST_TEST(back->header().correlational == std::vector<FeatureId>({69}), boost::test_tools::per_element());
  for (const auto& [first, count] : {std::pair<Index, Index>{0, 1}, {3, 64}, {63, 7}, {69, 1}, {10, 0}}) {
    const auto all = log->columns(0, 70);
    const std::vector<float> slice(all.begin() + first * 100, all.begin() + (first + count) * 100);
    BOOST_TEST(same_floats(back->columns(first, count), slice));
  }
  // The layout: /X chunked min(65536, n) × min(64, p); the labels as CSR strings + offsets.
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t x = H5Dopen2(f, "X", H5P_DEFAULT);
  hid_t dcpl = H5Dget_create_plist(x);
  hsize_t chunk[2] = {0, 0};
  BOOST_TEST(H5Pget_chunk(dcpl, 2, chunk) == 2);
  BOOST_TEST(chunk[0] == 100u);
  BOOST_TEST(chunk[1] == 64u);
  std::vector<std::int64_t> offsets(71);
  hid_t off = H5Dopen2(f, "category_offsets", H5P_DEFAULT);
  BOOST_TEST(H5Dread(off, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, offsets.data()) >= 0);
  BOOST_TEST(offsets[0] == 0);
  BOOST_TEST(offsets[1] == 0);
  BOOST_TEST(offsets[2] == 3);
  BOOST_TEST(offsets[70] == 3);
  BOOST_TEST(H5Lexists(f, "categorical", H5P_DEFAULT) > 0);
  BOOST_TEST(H5Aexists(f, "correlational") > 0);
  H5Dclose(off);
  H5Pclose(dcpl);
  H5Dclose(x);
  H5Fclose(f);
}

BOOST_AUTO_TEST_CASE(hdf5_data_arms_reorder_the_codes) {
  TempDir dir;
  const std::string path = raw_log(dir, "a.h5", 4, 2, {}, {0, 1, 0, 1}, {"x", "y", "unused"}, kRewards4);
  // Without data.arms every label of /arm_labels must have rows.
  expect_error<InputError>([&] { open_logged_hdf5(path, {}); }, path + ": arm 'unused' has no rows");
  const auto log = open_logged_hdf5(path, {"y", "x"});  // an unused label outside data.arms is dropped
  BOOST_TEST(log->header().arm_labels == std::vector<std::string>({"y", "x"}), boost::test_tools::per_element());
  BOOST_TEST(log->header().arm == std::vector<std::int32_t>({1, 0, 1, 0}), boost::test_tools::per_element());
  BOOST_TEST(log->header().feature_names == std::vector<std::string>({"x1", "x2"}), boost::test_tools::per_element());
  BOOST_TEST(log->header().categorical == std::vector<std::uint8_t>({0, 0}), boost::test_tools::per_element());
  expect_error<InputError>([&] { open_logged_hdf5(path, {"x"}); },
                           path + ": /arm row 1: arm 'y' is not in data.arms ('x')");
  expect_error<InputError>(
      [&] {
        open_logged_hdf5(path, {"x", "y", "unused"});
      },
      path + ": arm 'unused' is declared in data.arms but has no rows in /arm");
  expect_error<InputError>([&] { open_logged_hdf5(path, {"x", "y", "x"}); }, "data.arms lists 'x' twice");
}

BOOST_AUTO_TEST_CASE(writers_stage_and_leave_nothing_on_failure) {
  TempDir dir;
  // A source whose X cannot be read: the writer fails after creating the tmp file.
  class Failing final : public LoggedSource {
   public:
    Failing() : header_(small_header(6, 3)) {}
    const LoggedHeader& header() const override { return header_; }
    std::vector<float> columns(Index, Index) const override { throw InputError("broken source"); }

   private:
    LoggedHeader header_;
  } failing;
  for (const std::string name : {"f.h5", "f.csv"}) {
    const std::string path = dir.file(name);
    auto write = [&] { name == "f.h5" ? write_logged_hdf5(path, failing) : write_logged_csv(path, failing); };
    expect_error<Error>(write, "cannot write '" + path + "': broken source");
    BOOST_TEST(!std::filesystem::exists(path));
    BOOST_TEST(!std::filesystem::exists(path + ".tmp"));
  }
  // An existing file is replaced only by a complete one.
  const std::string path = dir.file("keep.h5");
  const auto log = small_log(10, 3);
  write_logged_hdf5(path, *log);
  expect_error<Error>([&] { write_logged_hdf5(path, failing); }, "cannot write '" + path + "': broken source");
  expect_same_log(*log, *open_logged_hdf5(path, {}));
  expect_error<Error>([&] { write_logged_hdf5(dir.file("no/such/dir/x.h5"), *log); }, "x.h5");
  BOOST_TEST(!std::filesystem::exists(dir.file("no/such/dir/x.h5.tmp")));
}

BOOST_AUTO_TEST_CASE(csv_bad_inputs_name_the_file_line_column_and_value) {
  TempDir dir;
  const LoggedCsvSpec spec = csv_spec();
  auto csv = [&](const std::string& name, const std::string& text) { return dir.write(name, text); };
  auto fails = [&](const std::string& path, const std::string& needle, const LoggedCsvSpec& s) {
    expect_error<InputError>([&] { open_logged_csv(path, s); }, needle);
  };
  const std::string good = csv("good.csv", "x,arm,reward\n1,A,0\n2,B,1\n");
  fails(good, good + ": no column 'action' in the header (data.arm)", csv_spec({}, {}, {}, "action"));
  fails(good, good + ": no column 'r' in the header (data.reward)", csv_spec({}, {}, {}, "arm", "r"));
  fails(good, good + ": line 3, column 'arm': arm 'B' is not in data.arms ('A', 'C')", csv_spec({}, {}, {"A", "C"}));
  fails(good, good + ": arm 'C' is declared in data.arms but has no rows in column 'arm'",
        csv_spec({}, {}, {"A", "B", "C"}));
  fails(good, "data.arms lists one arm ('A')", csv_spec({}, {}, {"A"}));
  fails(good, "data.categorical names 'z', not a feature column", csv_spec({}, {"z"}));
  const std::string one = csv("one.csv", "x,arm,reward\n1,A,0\n2,A,1\n");
  fails(one, one + ": column 'arm' holds one arm ('A'); a log needs at least 2 arms", spec);
  const std::string missing = csv("missing.csv", "x,arm,reward\n1,A,0\n2,B,\n");
  fails(missing, missing + ": line 3, column 'reward': the reward is missing", spec);
  const std::string half = csv("half.csv", "x,arm,reward\n1,A,0\n2,B,0.5\n");
  fails(half, half + ": line 3, column 'reward': reward '0.5' is not 0 or 1", spec);
  const std::string text = csv("text.csv", "x,arm,reward\n1,A,yes\n2,B,0\n");
  fails(text, text + ": line 2, column 'reward': reward 'yes' is not 0 or 1", spec);
  const std::string inf = csv("inf.csv", "x,arm,reward\n1,A,0\n-inf,B,1\n");
  fails(inf, inf + ": line 3, column 'x': '-inf' is Inf", spec);
  const std::string huge = csv("huge.csv", "x,arm,reward\n1,A,0\n1e300,B,1\n");
  fails(huge, huge + ": line 3, column 'x': '1e300' is outside the float range of X", spec);
  const std::string single = csv("single.csv", "x,arm,reward\n1,A,0\n");
  fails(single, single + ": n = 1 data row; a log needs at least 2", spec);
  const std::string empty = csv("empty.csv", "x,arm,reward\n");
  fails(empty, empty + ": n = 0 data rows", spec);
  const std::string no_features = csv("nof.csv", "arm,reward\nA,0\nB,1\n");
  fails(no_features, no_features + ": p = 0 (no feature columns besides the arm and the reward)", spec);
  const std::string ragged = csv("ragged.csv", "x,arm,reward\n1,A,0\n2,B\n");
  fails(ragged, ragged + ": line 3 has 2 cells but the header has 3", spec);
  const std::string no_arm = csv("noarm.csv", "x,arm,reward\n1,A,0\n2,,1\n");
  fails(no_arm, no_arm + ": line 3, column 'arm': the arm is missing", spec);
  fails(good, "data.features lists the arm column 'arm'", csv_spec({"arm"}));
  expect_error<InputError>([&] { open_logged_csv(dir.file("absent.csv"), spec); }, "absent.csv': no such file");
}

BOOST_AUTO_TEST_CASE(hdf5_bad_inputs_name_the_file_dataset_row_and_value) {
  TempDir dir;
  const std::vector<std::string> ab = {"A", "B"};
  auto fails = [&](const std::string& path, const std::string& needle) {
    expect_error<InputError>([&] { open_logged_hdf5(path, {}); }, needle);
  };
  for (const std::string skip : {"arm", "arm_labels", "reward"}) {
    const std::string path = raw_log(dir, "skip_" + skip + ".h5", 4, 2, {}, kArms4, ab, kRewards4, skip);
    fails(path, path + ": dataset /" + skip + " is missing");
  }
  const std::string outside = raw_log(dir, "outside.h5", 4, 2, {}, {0, 1, 2, 1}, ab, kRewards4);
  fails(outside, outside + ": /arm row 2 is 2, outside /arm_labels (2 labels: codes 0 to 1)");
  const std::string negative = raw_log(dir, "negative.h5", 4, 2, {}, {0, -1, 0, 1}, ab, kRewards4);
  fails(negative, negative + ": /arm row 1 is -1, outside /arm_labels");
  const std::string one = raw_log(dir, "one.h5", 4, 2, {}, {0, 0, 0, 0}, {"A"}, kRewards4);
  fails(one, one + ": 1 arm ('A'); a log needs at least 2 arms");
  const std::string idle = raw_log(dir, "idle.h5", 4, 2, {}, {0, 0, 0, 0}, ab, kRewards4);
  fails(idle, idle + ": arm 'B' has no rows");
  const std::string two = raw_log(dir, "two.h5", 4, 2, {}, kArms4, ab, {0, 1, 2, 0});
  fails(two, two + ": /reward row 2 is 2, not 0 or 1");
  const std::string nan = raw_log(dir, "nan.h5", 4, 2, {}, kArms4, ab, {0, std::nan(""), 1, 0});
  fails(nan, nan + ": /reward row 1 is missing (NaN)");
  const std::string short_reward = raw_log(dir, "short.h5", 4, 2, {}, kArms4, ab, {0, 1, 1});
  fails(short_reward, short_reward + ": /reward has 3 entries but /X has 4 rows");
  const std::string n1 = raw_log(dir, "n1.h5", 1, 2, {}, {0}, ab, {1});
  fails(n1, n1 + ": n = 1 rows in /X; a log needs at least 2");
  const std::string p0 = raw_log(dir, "p0.h5", 4, 0, {}, kArms4, ab, kRewards4);
  fails(p0, p0 + ": p = 0");
  // Inf in X is found when its column block is read, naming the column and the row.
  std::vector<float> x(8, 0.25f);
  x[2 * 2 + 0] = std::numeric_limits<float>::infinity();  // row 2, column 0 (row-major [4, 2])
  x[1 * 2 + 1] = kNaN;                                    // row 1, column 1: missing, not an error
  const std::string inf = raw_log(dir, "inf.h5", 4, 2, x, kArms4, ab, kRewards4);
  const auto log = open_logged_hdf5(inf, {});
  BOOST_TEST(std::isnan(log->columns(1, 1)[1]));
  expect_error<InputError>([&] { log->columns(0, 2); }, inf + ": column 'x1' (feature 1), row 2: inf is not allowed");
  expect_error<InputError>([&] { open_logged_hdf5(dir.file("absent.h5"), {}); }, "absent.h5': no such file");
}

BOOST_AUTO_TEST_CASE(memory_logs_are_checked_like_files) {
  LoggedHeader h = small_header(4, 1);
  h.categorical[0] = 1;
  h.category_labels[0] = {"a", "b"};
  expect_error<InputError>(
      [&] {
        make_logged_memory(h, {0, 1, 2, 1});
      },
      "memory: column 'x1' (feature 1), row 2: 2 is not a category code");
  expect_error<InputError>([&] { make_logged_memory(h, {0, 1, 0.5f, 1}); }, "row 2: 0.5 is not a category code");
  LoggedHeader bad = small_header(4, 1);
  bad.reward[3] = 2;
  expect_error<InputError>([&] { make_logged_memory(bad, {0, 1, 0, 1}); }, "memory: row 3: reward 2 is not 0 or 1");
  LoggedHeader repeated = small_header(4, 1);
  repeated.arm_labels = {"a", "a"};
  expect_error<InputError>([&] { make_logged_memory(repeated, {0, 1, 0, 1}); }, "the arm labels repeat a label");
}

BOOST_AUTO_TEST_SUITE_END()

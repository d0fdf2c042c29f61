// Real tables: missing cells (pandas' NA tokens, quoted ones, data.na_values), missing targets, categorical columns
// (levels, pooling, "missing" as a level, max_levels), data.exclude, text labels, data.missing = "error", and the same
// rules for HDF5 files and panels (levels fixed over every row), noise columns and knockoffs on a layout.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "config/job_config.hpp"
#include "core/error.hpp"
#include "data/csv_reader.hpp"
#include "data/hdf5_io.hpp"
#include "data/knockoffs.hpp"
#include "data/source.hpp"
#include "raw_h5_file.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::TempDir;

namespace {

using Levels = std::vector<std::string>;

CsvOptions with_min_count(std::int64_t count) {
  CsvOptions options;
  options.rules.min_level_count = count;
  return options;
}

/// Row i of feature f's columns.
std::vector<float> cells(const Dataset& d, Index i, FeatureId f) {
  std::vector<float> out;
  for (Index c = d.layout.column_begin(f); c < d.layout.column_end(f); ++c) out.push_back(d.X(i, c));
  return out;
}

/// "g,x,y" rows: g takes `labels` in turn, x = y = the row.
std::string grouped_csv(const std::vector<std::string>& labels) {
  std::string text = "g,x,y\n";
  for (std::size_t i = 0; i < labels.size(); ++i)
    text += labels[i] + "," + std::to_string(i) + "," + std::to_string(i % 7) + "\n";
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tables)

BOOST_AUTO_TEST_CASE(the_default_na_values_are_pandas_tokens_and_data_configs_default) {
  BOOST_TEST(default_na_values() == DataConfig{}.na_values, boost::test_tools::per_element());
  BOOST_TEST(CsvOptions{}.na_values == DataConfig{}.na_values, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(na_tokens_quoted_or_not_and_the_empty_cell_are_missing) {
  TempDir dir;
  const std::string path =
      dir.write("na.csv", "a,b,y\n1,NA,1\n2,\"NA\",2\n3,,3\n4,nan,4\n5, N/A ,5\n6,6,6\n7,NULL,7\n8,\"\",8\n");
  const Dataset d = read_csv(path, "y");
  BOOST_TEST(d.layout.one_column_each());  // b stays numeric: every other cell is a number
  BOOST_TEST(d.missing == std::vector<std::int64_t>({0, 7}), boost::test_tools::per_element());
  for (Index i : {0, 1, 2, 3, 4, 6, 7}) BOOST_TEST(std::isnan(d.X(i, 1)));
  BOOST_TEST(d.X(5, 1) == 6.0f);
  BOOST_TEST(d.rows_without_target == 0);
}

BOOST_AUTO_TEST_CASE(na_values_replace_the_default_list) {
  TempDir dir;
  const std::string path = dir.write("own.csv", "a,b,y\n1,-999,1\n2,3,2\n3,4,3\n");
  CsvOptions options;
  options.na_values = {"-999"};
  const Dataset d = read_csv(path, "y", options);
  BOOST_TEST(std::isnan(d.X(0, 1)));
  BOOST_TEST(d.missing[1] == 1);
  // "NA" is no longer missing: b holds text and becomes categorical (with "-999" still a missing level).
  const std::string na = dir.write("na_text.csv", "b,y\n-999,1\nNA,2\nNA,3\n");
  options.rules.min_level_count = 1;
  const Dataset t = read_csv(na, "y", options);
  BOOST_TEST(t.layout.levels[0] == Levels({"NA", "missing"}), boost::test_tools::per_element());
  BOOST_TEST(cells(t, 0, 0) == std::vector<float>({0, 1}), boost::test_tools::per_element());
  BOOST_TEST(t.missing[0] == 1);
}

BOOST_AUTO_TEST_CASE(a_row_without_a_target_is_dropped_and_counted) {
  TempDir dir;
  const std::string path = dir.write("y.csv", "x,y\n1,1\n2,\n3,NA\n4,4\n5,5\n");
  const Dataset d = read_csv(path, "y");
  BOOST_TEST(d.rows() == 3);
  BOOST_TEST(d.rows_without_target == 2);
  BOOST_TEST(d.X(1, 0) == 4.0f);
  const auto source = make_memory_source(d, false, 0, 1);
  BOOST_TEST(source->rows_without_target() == 2);
  BOOST_TEST(source->describe().find("2 rows without a target dropped") != std::string::npos);
  const std::string none = dir.write("none.csv", "x,y\n1,\n2,NA\n");
  expect_error<InputError>([&] { read_csv(none, "y"); }, none + ": no data rows with a target");
  CsvOptions refuse;
  refuse.rules.refuse_missing = true;
  expect_error<InputError>([&] { read_csv(path, "y", refuse); },
                           path + ": column 'y' has 2 missing values and data.missing = \"error\"");
}

BOOST_AUTO_TEST_CASE(a_text_column_is_one_feature_of_sorted_levels_with_rare_ones_pooled) {
  TempDir dir;
  std::vector<std::string> g;
  for (int i = 0; i < 10; ++i) g.insert(g.end(), {"b", "a"});
  g.insert(g.end(), {"z", "y", "z", "", "NA"});
  const std::string path = dir.write("g.csv", grouped_csv(g));
  const Dataset d = read_csv(path, "y");  // min_level_count 10: y and z pool into "other"
  BOOST_TEST(d.feature_names == Levels({"g", "x"}), boost::test_tools::per_element());
  BOOST_TEST(d.features() == 2);
  BOOST_TEST(d.cols() == 5);
  BOOST_TEST(d.layout.offsets == std::vector<Index>({0, 4, 5}), boost::test_tools::per_element());
  BOOST_TEST(d.layout.levels[0] == Levels({"a", "b", "other", "missing"}), boost::test_tools::per_element());
  BOOST_TEST(d.layout.levels[1].empty());
  BOOST_TEST(cells(d, 0, 0) == std::vector<float>({0, 1, 0, 0}), boost::test_tools::per_element());
  BOOST_TEST(cells(d, 1, 0) == std::vector<float>({1, 0, 0, 0}), boost::test_tools::per_element());
  BOOST_TEST(cells(d, 21, 0) == std::vector<float>({0, 0, 1, 0}), boost::test_tools::per_element());
  BOOST_TEST(cells(d, 23, 0) == std::vector<float>({0, 0, 0, 1}), boost::test_tools::per_element());
  BOOST_TEST(cells(d, 24, 0) == std::vector<float>({0, 0, 0, 1}), boost::test_tools::per_element());
  BOOST_TEST(d.X(24, 4) == 24.0f);
  BOOST_TEST(d.missing == std::vector<std::int64_t>({2, 0}), boost::test_tools::per_element());
  // The missing level is never pooled, whatever its count; the other levels are, below the count.
  const Dataset strict = read_csv(path, "y", with_min_count(11));
  BOOST_TEST(strict.layout.levels[0] == Levels({"other", "missing"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(numeric_codes_named_categorical_sort_by_value) {
  TempDir dir;
  const std::string path = dir.write("codes.csv", grouped_csv({"10", "2", "2.0", "10", "3"}));
  CsvOptions options = with_min_count(1);
  options.categorical = {"g"};
  const Dataset d = read_csv(path, "y", options);
  BOOST_TEST(d.layout.levels[0] == Levels({"2", "3", "10"}), boost::test_tools::per_element());
  BOOST_TEST(cells(d, 2, 0) == std::vector<float>({1, 0, 0}), boost::test_tools::per_element());  // 2.0 is 2
  BOOST_TEST(cells(d, 0, 0) == std::vector<float>({0, 0, 1}), boost::test_tools::per_element());
  options.categorical = {"nope"};
  expect_error<InputError>([&] { read_csv(path, "y", options); },
                           "data.categorical names 'nope', not a feature column");
}

BOOST_AUTO_TEST_CASE(too_many_levels_name_the_column_and_the_way_out) {
  TempDir dir;
  std::vector<std::string> ids;
  for (int i = 0; i < 100; ++i) ids.push_back("id" + std::to_string(i));
  const std::string path = dir.write("ids.csv", grouped_csv(ids));
  expect_error<InputError>([&] { read_csv(path, "y"); },
                           path +
                               ": column 'g' has 100 distinct values, none in 10 rows or more (an id or a date?), "
                               "more than data.max_levels = 64; leave it out with data.exclude = [\"g\"] or raise "
                               "data.max_levels (it is categorical since 'id0' at line 2 is not a number)");
  CsvOptions options = with_min_count(1);
  options.rules.max_levels = 2;
  const std::string three = dir.write("three.csv", grouped_csv({"a", "b", "c", "a"}));
  expect_error<InputError>([&] { read_csv(three, "y", options); },
                           "column 'g' has 3 levels (3 distinct values; those in fewer than 1 rows pooled into "
                           "\"other\"), more than data.max_levels = 2");
  options.exclude = {"g"};
  BOOST_TEST(read_csv(path, "y", options).feature_names == Levels({"x"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(exclude_drops_columns_and_names_an_unknown_one) {
  TempDir dir;
  const std::string path = dir.write("ex.csv", "date,a,b,y\n2020-01-01,1,2,3\n2020-01-02,4,5,7\n");
  CsvOptions options;
  options.exclude = {"date", "b"};
  const Dataset d = read_csv(path, "y", options);
  BOOST_TEST(d.feature_names == Levels({"a"}), boost::test_tools::per_element());
  BOOST_TEST(d.layout.one_column_each());
  options.exclude = {"zz"};
  expect_error<InputError>([&] { read_csv(path, "y", options); },
                           path + ": no column 'zz' in the header (data.exclude)");
  options.exclude = {"y"};
  expect_error<InputError>([&] { read_csv(path, "y", options); }, "data.exclude lists the target column 'y'");
  options.exclude = {"a"};
  options.features = {"a"};
  expect_error<InputError>([&] { read_csv(path, "y", options); }, "data.features and data.exclude both list 'a'");
}

BOOST_AUTO_TEST_CASE(text_labels_need_a_positive_label_among_their_two_values) {
  TempDir dir;
  const std::string path = dir.write("lab.csv", "x,y\n1,up\n2,down\n3,\"up\"\n4,NA\n");
  CsvOptions options;
  options.labels = {Task::Binary, ClassLabel{std::string("up")}};
  const Dataset d = read_csv(path, "y", options);
  BOOST_TEST(d.rows() == 3);
  BOOST_TEST(d.y[0] == 1.0);
  BOOST_TEST(d.y[1] == 0.0);
  BOOST_TEST(d.y[2] == 1.0);
  options.labels.positive_label.reset();
  expect_error<InputError>([&] { read_csv(path, "y", options); },
                           "y in '" + path +
                               "' has 2 distinct text values (\"down\", \"up\"); set "
                               "data.positive_label to the one that is class 1");
  options.labels.positive_label = std::string("sideways");
  expect_error<InputError>([&] { read_csv(path, "y", options); },
                           "data.positive_label = \"sideways\" is not one of the 2 distinct values of y in '" + path +
                               "' (\"down\", \"up\")");
  const std::string three = dir.write("three.csv", "x,y\n1,up\n2,down\n3,flat\n");
  expect_error<InputError>([&] { read_csv(three, "y", options); },
                           "has 3 distinct values (\"down\", \"flat\", \"up\")");
  // A text positive_label that reads as a number picks a numeric class; one that does not is not present.
  const std::string numeric = dir.write("num.csv", "x,y\n1,2\n2,5\n3,2\n");
  options.labels.positive_label = std::string("5");
  BOOST_TEST(read_csv(numeric, "y", options).y[1] == 1.0);
  options.labels.positive_label = std::string("up");
  expect_error<InputError>([&] { read_csv(numeric, "y", options); },
                           "data.positive_label = \"up\" is not one of the 2 distinct values of y");
}

BOOST_AUTO_TEST_CASE(data_missing_error_names_the_file_column_and_count) {
  TempDir dir;
  const std::string path = dir.write("m.csv", "a,b,y\n1,,1\n2,NA,2\n3,3,3\n");
  CsvOptions options;
  options.rules.refuse_missing = true;
  expect_error<InputError>([&] { read_csv(path, "y", options); },
                           path + ": column 'b' has 2 missing values and data.missing = \"error\"; fill them in");
  const auto source = [&](const TableRules& rules) {
    return make_memory_source(read_csv(path, "y"), false, 0, 1, {}, rules);
  };
  BOOST_CHECK_NO_THROW(source({}));
  expect_error<InputError>([&] { source(TableRules{10, 64, true}); }, "column 'b' has 2 missing values");
}

BOOST_AUTO_TEST_CASE(a_complete_numeric_table_reads_as_before) {
  TempDir dir;
  const std::string path = dir.write("plain.csv", "a,b,y\n1.5,2,3\n-4,5e-1,6\n");
  const Dataset d = read_csv(path, "y");
  BOOST_TEST(d.layout.one_column_each());
  BOOST_TEST(d.layout.levels.empty());
  BOOST_TEST(d.missing == std::vector<std::int64_t>({0, 0}), boost::test_tools::per_element());
  BOOST_TEST(d.X(0, 0) == 1.5f);
  BOOST_TEST(d.X(1, 1) == 0.5f);
}

BOOST_AUTO_TEST_CASE(noise_columns_extend_the_layout_and_knockoffs_refuse_a_categorical_feature) {
  TempDir dir;
  std::vector<std::string> g;
  for (int i = 0; i < 12; ++i) g.push_back(i % 2 == 0 ? "p" : "q");
  const std::string path = dir.write("g.csv", grouped_csv(g));
  const Dataset d = read_csv(path, "y", with_min_count(1));
  auto source = make_memory_source(d, false, 2, 7);
  BOOST_TEST(source->num_features() == 4);
  BOOST_TEST(source->layout().offsets == std::vector<Index>({0, 2, 3, 4, 5}), boost::test_tools::per_element());
  BOOST_TEST(source->missing() == std::vector<std::int64_t>({0, 0, 0, 0}), boost::test_tools::per_element());
  const Dataset period = source->load_period(0);
  BOOST_TEST(period.cols() == 5);
  BOOST_TEST(period.features() == 4);
  BOOST_TEST(period.feature_names.back() == "noise2");
  BOOST_CHECK_NO_THROW(validate_dataset(period));
  expect_error<ConfigError>([&] { with_gaussian_knockoffs(make_memory_source(d, false, 0, 7), 0, 7); },
                            "data.knockoffs: column 'g' of " + path);
  expect_error<ConfigError>([&] { with_gaussian_knockoffs(make_memory_source(d, false, 0, 7), 0, 7); },
                            "is categorical, and Gaussian knockoffs model numeric columns only");
}

BOOST_AUTO_TEST_CASE(a_layout_that_does_not_fit_x_is_refused) {
  Dataset d = test::random_dataset(4, 3);
  d.origin = "t";
  d.feature_names = {"g", "x"};
  d.layout.offsets = {0, 2, 3};
  d.layout.levels = {{"a", "b"}, {}};
  BOOST_CHECK_NO_THROW(validate_dataset(d));
  d.layout.offsets = {0, 2, 2};
  expect_error<InputError>([&] { validate_dataset(d); }, "offsets");
  d.layout.offsets = {0, 1, 3};
  expect_error<InputError>([&] { validate_dataset(d); }, "level names");
  d.layout.offsets = {0, 2, 3};
  d.missing = {1};
  expect_error<InputError>([&] { validate_dataset(d); }, "1 missing counts for 2 features");
}

BOOST_AUTO_TEST_CASE(hdf5_nan_is_missing_and_flagged_columns_expand_by_their_labels) {
  TempDir dir;
  const std::string path = dir.file("cat.h5");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  {
    test::RawH5File raw(path);
    // column 0: codes of {"lo", "hi"} (NaN missing); column 1: numbers with a NaN; column 2: codes without labels.
    raw.add_x({5, 3}, {1, 0.5f, 7, 0, nan, 3, nan, 2, 7, 1, 4, 3, 0, 5, 3});
    raw.add_y({1, 2, 3, 4, 5});
    raw.add_i32("categorical", {1, 0, 1});
    raw.add_fixed_strings("category_labels", {"lo", "hi"}, 2);
    raw.add_i64("category_offsets", {0, 2, 2, 2});
  }
  const Dataset d = read_hdf5(path, TableRules{1, 64, false});
  BOOST_TEST(d.features() == 3);
  BOOST_TEST(d.layout.levels[0] == Levels({"hi", "lo", "missing"}), boost::test_tools::per_element());
  BOOST_TEST(d.layout.levels[2] == Levels({"3", "7"}), boost::test_tools::per_element());
  BOOST_TEST(cells(d, 0, 0) == std::vector<float>({1, 0, 0}), boost::test_tools::per_element());  // code 1 = "hi"
  BOOST_TEST(cells(d, 2, 0) == std::vector<float>({0, 0, 1}), boost::test_tools::per_element());
  BOOST_TEST(std::isnan(cells(d, 1, 1)[0]));
  BOOST_TEST(d.missing == std::vector<std::int64_t>({1, 1, 0}), boost::test_tools::per_element());
  // Written back, the layout reads as the same columns (levels become labels; "missing" becomes NaN again).
  const std::string copy = dir.file("copy.h5");
  write_hdf5(d, copy);
  const Dataset again = read_hdf5(copy, TableRules{1, 64, false});
  BOOST_TEST(again.layout.offsets == d.layout.offsets, boost::test_tools::per_element());
  BOOST_TEST(again.layout.levels == d.layout.levels);
  BOOST_TEST(again.missing == d.missing, boost::test_tools::per_element());
  // A value of a flagged column that is not a code is refused, naming the row and column.
  const std::string bad = dir.file("bad.h5");
  {
    test::RawH5File raw(bad);
    raw.add_x({2, 1}, {0, 2.5f});
    raw.add_y({1, 2});
    raw.add_i32("categorical", {1});
  }
  expect_error<InputError>([&] { read_hdf5(bad); },
                           bad + ": /X has 2.5 at row 1, column 'x1', which /categorical flags");
}

BOOST_AUTO_TEST_CASE(a_panels_levels_come_from_every_period) {
  TempDir dir;
  const std::string path = dir.file("panel.h5");
  {
    test::RawH5File raw(path);
    // Level code 2 ("c") appears only in the last period.
    raw.add_x({6, 2}, {0, 1, 1, 2, 0, 3, 1, 4, 2, 5, 0, 6});
    raw.add_y({1, 2, 3, 4, 5, 6});
    raw.add_i32("period", {1, 1, 2, 2, 3, 3});
    raw.add_i32("categorical", {1, 0});
    raw.add_fixed_strings("category_labels", {"a", "b", "c"}, 1);
    raw.add_i64("category_offsets", {0, 3, 3});
  }
  const auto source = make_hdf5_source(path, true, 1, 3, {}, TableRules{1, 64, false});
  BOOST_TEST(source->num_periods() == 3);
  BOOST_TEST(source->num_features() == 3);
  BOOST_TEST(source->layout().offsets == std::vector<Index>({0, 3, 4, 5}), boost::test_tools::per_element());
  const Dataset first = source->load_period(0);
  BOOST_TEST(first.cols() == 5);
  BOOST_TEST(first.layout.levels[0] == Levels({"a", "b", "c"}), boost::test_tools::per_element());
  BOOST_TEST(cells(first, 1, 0) == std::vector<float>({0, 1, 0}), boost::test_tools::per_element());
  const Dataset last = source->load_period(2);
  BOOST_TEST(cells(last, 0, 0) == std::vector<float>({0, 0, 1}), boost::test_tools::per_element());
  BOOST_TEST(source->missing() == std::vector<std::int64_t>({0, 0, 0}), boost::test_tools::per_element());
  // A float /period (where a NaN could mark a missing period) is refused: every row needs its period.
  const std::string float_period = dir.file("float_period.h5");
  {
    test::RawH5File raw(float_period);
    raw.add_x({2, 1}, {1, 2});
    raw.add_y({1, 2});
    raw.add("period", {2}, std::vector<double>{1, std::nan("")}, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE);
  }
  expect_error<InputError>([&] { make_hdf5_source(float_period, true, 0, 3); }, "/period must hold integers");
}

BOOST_AUTO_TEST_SUITE_END()

// CSV reader: parsing (quotes, CRLF, subsets, unused text columns), a round trip, and every error.
#include <boost/test/unit_test.hpp>
#include <charconv>
#include <cstring>

#include "core/error.hpp"
#include "data/csv_reader.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::random_dataset;
using bfs::test::TempDir;

BOOST_AUTO_TEST_SUITE(csv)

BOOST_AUTO_TEST_CASE(parses_header_target_and_cells) {
  TempDir dir;
  const std::string path = dir.write("a.csv", "\"a\", \"b c\",\"price\"\r\n1,2.5,3\r\n +4 ,-5e-1,\"6\"\r\n\r\n");
  Dataset d = read_csv(path, "price");
  BOOST_TEST(d.rows() == 2);
  BOOST_TEST(d.cols() == 2);
  BOOST_TEST(d.feature_names == std::vector<std::string>({"a", "b c"}), boost::test_tools::per_element());
  BOOST_TEST(d.X(0, 1) == 2.5f);
  BOOST_TEST(d.X(1, 0) == 4.0f);
  BOOST_TEST(d.X(1, 1) == -0.5f);
  BOOST_TEST(d.y[0] == 3.0);
  BOOST_TEST(d.y[1] == 6.0);
  BOOST_TEST(d.origin == path);
  BOOST_TEST(!d.has_truth);
  // A UTF-8 byte-order mark does not stick to the first column's name.
  const Dataset bom = read_csv(dir.write("bom.csv", "\xEF\xBB\xBFx,y\n1,2\n"), "y");
  BOOST_TEST(bom.feature_names == std::vector<std::string>({"x"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(feature_subset_keeps_the_requested_order_and_skips_other_columns) {
  TempDir dir;
  const std::string path = dir.write("s.csv", "id,a,b,c,y\nfoo,1,2,3,10\nbar,4,5,6,20\n");
  Dataset d = read_csv(path, "y", {"c", "a"});
  BOOST_TEST(d.feature_names == std::vector<std::string>({"c", "a"}), boost::test_tools::per_element());
  BOOST_TEST(d.X(0, 0) == 3.0f);
  BOOST_TEST(d.X(1, 1) == 4.0f);
  BOOST_TEST(d.y[1] == 20.0);
  // Without a subset the text column is a categorical feature (its two labels, seen once each, pool into "other").
  const Dataset all = read_csv(path, "y");
  BOOST_TEST(all.feature_names == std::vector<std::string>({"id", "a", "b", "c"}), boost::test_tools::per_element());
  BOOST_TEST(all.layout.is_categorical(0));
  BOOST_TEST(all.layout.levels[0] == std::vector<std::string>({"other"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(round_trip_is_exact) {
  TempDir dir;
  Dataset d = random_dataset(50, 4);
  std::string text = "x1,x2,target,x3,x4\n";
  char buf[64];
  auto put = [&](double v, bool last) {
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    text.append(buf, r.ptr);
    text += last ? "\n" : ",";
  };
  for (Index i = 0; i < d.rows(); ++i) {
    put(d.X(i, 0), false);
    put(d.X(i, 1), false);
    put(d.y[i], false);
    put(d.X(i, 2), false);
    put(d.X(i, 3), true);
  }
  Dataset r = read_csv(dir.write("rt.csv", text), "target");
  BOOST_TEST(r.feature_names == d.feature_names, boost::test_tools::per_element());
  BOOST_TEST(std::memcmp(r.X.data(), d.X.data(), sizeof(float) * d.X.size()) == 0);
  BOOST_TEST(std::memcmp(r.y.data(), d.y.data(), sizeof(double) * d.y.size()) == 0);
}

BOOST_AUTO_TEST_CASE(a_target_outside_the_arithmetic_names_file_column_and_line) {
  TempDir dir;
  // Row 2 (0-based) is on line 5: a blank line comes first.
  std::string p = dir.write("huge.csv", "a,ret\n1,1e300\n2,-2e300\n\n3,5e307\n4,1\n");
  expect_error<InputError>([&] { read_csv(p, "ret"); },
                           p + ", column 'ret': y is too large for the arithmetic: the sum of its squares overflows a "
                               "double (largest |y| = 5e+307 at line 5); divide y by a power of ten");
  p = dir.write("tiny.csv", "a,ret\n1,1e-310\n2,2e-310\n3,0\n");
  expect_error<InputError>([&] { read_csv(p, "ret"); }, p + ", column 'ret': y varies too little for the arithmetic");
}

BOOST_AUTO_TEST_CASE(errors_name_file_line_and_column) {
  TempDir dir;
  const std::string missing = dir.file("none.csv");
  expect_error<InputError>([&] { read_csv(missing, "y"); }, "cannot open CSV file '" + missing + "': no such file");
  std::string p = dir.write("empty.csv", "");
  expect_error<InputError>([&] { read_csv(p, "y"); }, p + ": the file is empty");
  p = dir.write("blank.csv", "\n  \n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, p + ": the file is empty");
  p = dir.write("header.csv", "a,y\n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, p + ": no data rows after the header");
  p = dir.write("data.csv", "a,b\n1,2\n");
  expect_error<InputError>([&] { read_csv(p, "price"); }, p + ": no column 'price' in the header");
  expect_error<InputError>([&] { read_csv(p, "b", {"a", "zz"}); }, "no column 'zz' in the header (data.features)");
  expect_error<InputError>([&] { read_csv(p, "b", {"a", "b"}); }, "data.features lists the target column 'b'");
  expect_error<InputError>([&] { read_csv(p, "b", {"a", "a"}); }, "data.features lists 'a' twice");
  p = dir.write("only_target.csv", "y\n1\n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, "p = 0");
  p = dir.write("dup.csv", "a,a,y\n1,2,3\n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, "duplicate column 'a'");
  p = dir.write("ragged.csv", "a,b,y\n1,2,3\n4,5\n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, p + ": line 3 has 2 cells but the header has 3");
  p = dir.write("text.csv", "a,b,y\n1,2,3\n4,5,abc\n");
  expect_error<InputError>(
      [&] { read_csv(p, "y"); },
      p + ": the target column 'y' holds text ('abc' at line 3); a regression target must be numbers");
  p = dir.write("nan.csv", "a,b,y\n1,NAN,3\n");  // NaN, but not one of pandas' tokens
  expect_error<InputError>([&] { read_csv(p, "y"); },
                           "line 2, column 'b': 'NAN' is NaN but not one of data.na_values; add it there");
  p = dir.write("inf.csv", "a,b,y\n1,2,-inf\n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, "line 2, column 'y': '-inf' is not a finite number");
  p = dir.write("infinity.csv", "a,b,y\n1,Infinity,3\n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, "not a finite number");
  p = dir.write("all_empty.csv", "a,b,y\n1,,3\n1,,3\n");
  expect_error<InputError>(
      [&] { read_csv(p, "y"); },
      p + ": column 'b' is empty: all of its 2 values are missing; leave it out with data.exclude");
  p = dir.write("quote.csv", "a,b,y\n1,\"2,3\n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, "line 2: unterminated quote");
  p = dir.write("big.csv", "a,y\n1e300,1\n");
  expect_error<InputError>([&] { read_csv(p, "y"); }, "outside the float range");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_CASE(a_nul_byte_in_a_cell_is_shown_not_cut) {
  // A NUL inside a cell would end the message at that byte: it is shown as \x00 with the rest.
  test::TempDir dir;
  const std::string path = dir.write("nul.csv", std::string("a,y\n1,2\n3,4x\0z\n", 15));
  expect_error<InputError>([&] { read_csv(path, "y"); },
                           path + ": the target column 'y' holds text ('4x\\x00z' at line 3)");
}

BOOST_AUTO_TEST_CASE(a_control_byte_in_a_feature_name_is_refused) {
  // HDF5 keeps names as C strings: a NUL would cut the name in result.h5's /feature_names (fuzzing).
  test::TempDir dir;
  const std::string path = dir.write("nul_name.csv", std::string("a\0b,c,y\n1,2,3\n", 14));
  expect_error<InputError>([&] { read_csv(path, "y"); },
                           path + ": the name of column 1 in the header ('a\\x00b') holds a control character");
  const std::string tab = dir.write("tab_name.csv", "a\tb,c,y\n1,2,3\n");
  expect_error<InputError>([&] { read_csv(tab, "y"); }, "('a\\x09b') holds a control character");
  // A column that is not read (not a feature, not the target) may keep its odd name.
  BOOST_TEST(read_csv(path, "y", {"c"}).cols() == 1);
}

// In-memory tables with categorical columns (api::ArraysView::categorical): Data::from takes the CSV reader's path
// after its parse, so a table attached in memory has the features, layout and missing counts its CSV file has.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "api/banditfs.hpp"
#include "core/error.hpp"
#include "data/csv_reader.hpp"

using namespace bfs;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// 24 rows: x (numbers, row 3 missing), colour (codes of {red, green, blue}, row 5 missing), y.
struct Table {
  std::vector<float> X;
  std::vector<double> y;
  std::vector<std::string> labels{"red", "green", "blue"};
  std::string csv;
};

Table table() {
  Table t;
  t.csv = "x,colour,y\n";
  for (int i = 0; i < 24; ++i) {
    const float x = i == 3 ? kNaN : 0.25f * static_cast<float>(i);
    const float code = i == 5 ? kNaN : static_cast<float>(i % 3);
    t.X.insert(t.X.end(), {x, code});
    t.y.push_back(static_cast<double>(i % 5));
    t.csv += (i == 3 ? std::string() : std::to_string(x)) + "," +
             (i == 5 ? std::string() : t.labels[static_cast<std::size_t>(i % 3)]) + "," + std::to_string(i % 5) + "\n";
  }
  return t;
}

api::ArraysView view_of(const Table& t) {
  api::ArraysView view;
  view.X = t.X.data();
  view.rows = 24;
  view.cols = 2;
  view.y = t.y.data();
  view.feature_names = {"x", "colour"};
  view.categorical = {0, 1};
  view.category_labels = {{}, t.labels};
  view.origin = "table";
  return view;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_categorical_column_in_memory_is_coded_as_its_csv_column) {
  const Table t = table();
  const auto path = std::filesystem::temp_directory_path() / "banditfs_api_table.csv";
  std::ofstream(path) << t.csv;
  CsvOptions options;
  options.rules.min_level_count = 5;
  const Dataset csv = read_csv(path.string(), "y", options);
  std::filesystem::remove(path);
  const api::Data data = api::Data::from(view_of(t), options.rules);
  const Dataset& memory = data.dataset();
  BOOST_TEST(memory.features() == 2);
  BOOST_TEST(memory.cols() == csv.cols());  // x + blue, green, red, missing
  BOOST_TEST(memory.layout.offsets == csv.layout.offsets);
  BOOST_TEST(memory.layout.levels == csv.layout.levels);
  BOOST_TEST(memory.missing == csv.missing);
  for (Index i = 0; i < memory.rows(); ++i)
    for (Index j = 0; j < memory.cols(); ++j) {
      const float a = memory.X(i, j), b = csv.X(i, j);
      BOOST_TEST((a == b || (std::isnan(a) && std::isnan(b))), "row " << i << " column " << j);
    }
}

BOOST_AUTO_TEST_CASE(bad_codes_an_empty_column_and_refused_missing_cells_are_input_errors) {
  Table t = table();
  t.X[2 * 7 + 1] = 3.0f;  // row 7: no label has code 3
  auto message = [&](const api::ArraysView& view, const TableRules& rules) {
    try {
      api::Data::from(view, rules);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message(view_of(t), {}).find("table: categorical column 'colour' has 3 at row 7") == 0);
  t = table();
  for (int i = 0; i < 24; ++i) t.X[static_cast<std::size_t>(2 * i)] = kNaN;
  BOOST_TEST(message(view_of(t), {}).find("column 'x' is empty: all of its 24 values are missing") !=
             std::string::npos);
  t = table();
  TableRules refuse;
  refuse.refuse_missing = true;
  BOOST_TEST(message(view_of(t), refuse).find("column 'x' has 1 missing value and data.missing = \"error\"") !=
             std::string::npos);
}

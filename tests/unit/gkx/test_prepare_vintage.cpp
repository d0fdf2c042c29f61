// prepare-gkx: the datashare file's 94 names, another vintage, CRSP's missing-return codes, the memory
// budget option and the panel writer's temp file. Tiny CSVs in a temp dir (prepare_fixture.hpp).
#include "prepare_fixture.hpp"

using namespace bfs;
using namespace bfs::gkx;
using namespace bfs::gkx::test_support;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(prepare)

// The list is the public datashare file's 94 (ipo and salerev were wrong; salerec and secured were missing).
BOOST_AUTO_TEST_CASE(standard_names_are_the_datashare_files_94) {
  const std::set<std::string> datashare = {"mvel1",
                                           "beta",
                                           "betasq",
                                           "chmom",
                                           "dolvol",
                                           "idiovol",
                                           "indmom",
                                           "mom1m",
                                           "mom6m",
                                           "mom12m",
                                           "mom36m",
                                           "pricedelay",
                                           "turn",
                                           "absacc",
                                           "acc",
                                           "age",
                                           "agr",
                                           "bm",
                                           "bm_ia",
                                           "cashdebt",
                                           "cashpr",
                                           "cfp",
                                           "cfp_ia",
                                           "chatoia",
                                           "chcsho",
                                           "chempia",
                                           "chinv",
                                           "chpmia",
                                           "convind",
                                           "currat",
                                           "depr",
                                           "divi",
                                           "divo",
                                           "dy",
                                           "egr",
                                           "ep",
                                           "gma",
                                           "grcapx",
                                           "grltnoa",
                                           "herf",
                                           "hire",
                                           "invest",
                                           "lev",
                                           "lgr",
                                           "mve_ia",
                                           "operprof",
                                           "orgcap",
                                           "pchcapx_ia",
                                           "pchcurrat",
                                           "pchdepr",
                                           "pchgm_pchsale",
                                           "pchquick",
                                           "pchsale_pchinvt",
                                           "pchsale_pchrect",
                                           "pchsale_pchxsga",
                                           "pchsaleinv",
                                           "pctacc",
                                           "ps",
                                           "quick",
                                           "rd",
                                           "rd_mve",
                                           "rd_sale",
                                           "realestate",
                                           "roic",
                                           "salecash",
                                           "saleinv",
                                           "salerec",
                                           "secured",
                                           "securedind",
                                           "sgr",
                                           "sin",
                                           "sp",
                                           "tang",
                                           "tb",
                                           "aeavol",
                                           "cash",
                                           "chtx",
                                           "cinvest",
                                           "ear",
                                           "nincr",
                                           "roaq",
                                           "roavol",
                                           "roeq",
                                           "rsup",
                                           "stdacc",
                                           "stdcf",
                                           "ms",
                                           "baspread",
                                           "ill",
                                           "maxret",
                                           "retvol",
                                           "std_dolvol",
                                           "std_turn",
                                           "zerotrade"};
  BOOST_TEST(datashare.size() == 94u);
  const std::set<std::string> ours(kCharacteristics.begin(), kCharacteristics.end());
  BOOST_TEST(ours.size() == 94u);  // no duplicates
  BOOST_TEST((ours == datashare));
  // Each corrected name sits where the wrong one was, so earlier panels keep their column positions.
  BOOST_TEST(kCharacteristics[42] == "secured");
  BOOST_TEST(kCharacteristics[81] == "salerec");
}

namespace {
/// Appends columns to every line of a CSV: `header` to the first, `cell(line_index)` to the others (1-based).
void append_columns(const std::string& path, const std::string& header, const std::function<std::string(int)>& cell) {
  std::ifstream in(path);
  std::ostringstream out;
  int k = 0;
  for (std::string line; std::getline(in, line); ++k) out << line << "," << (k == 0 ? header : cell(k)) << "\n";
  in.close();
  std::ofstream(path, std::ios::binary) << out.str();
}
std::int64_t read_int_attribute(const std::string& path, const char* name) {
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  std::int64_t v = -1;
  H5Aread(a, H5T_NATIVE_INT64, &v);
  H5Aclose(a);
  H5Fclose(f);
  return v;
}
}  // namespace

// Another vintage (a standard name missing, a new numeric column, a text column) is prepared; the
// differences are warned about, reported and written to the panel's attributes; --strict refuses it.
BOOST_AUTO_TEST_CASE(another_vintage_is_used_and_its_differences_reported) {
  Fixture fx;
  PrepareOptions o = fx.options();
  o.characteristics = write_gkx(fx.dir, {{"10", "20100129", "1"}, {"11", "20100129", "2"}, {"12", "20100129", "3"}},
                                "mom12m", "vintage.csv");
  append_columns(o.characteristics, "newchar,ticker,SHROUT", [](int k) {
    return std::to_string(4 - k) + ",ABC" + std::to_string(k) + ",100";  // newchar falls as the others rise
  });
  std::vector<std::string> warnings;
  o.on_warning = [&](const std::string& w) { warnings.push_back(w); };
  const PrepareReport rep = prepare_gkx(o);
  BOOST_TEST(rep.characteristics == 94u);  // 93 standard + newchar
  BOOST_TEST(rep.missing_standard == std::vector<std::string>({"mom12m"}), boost::test_tools::per_element());
  BOOST_TEST(rep.extra_columns == std::vector<std::string>({"newchar"}), boost::test_tools::per_element());
  BOOST_TEST(rep.ignored_columns == std::vector<std::string>({"ticker (not numeric)"}),
             boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(warnings.size() == 2u);
  BOOST_TEST(warnings[0].find("vintage.csv") != std::string::npos);
  BOOST_TEST(warnings[0].find("1 missing (mom12m)") != std::string::npos, warnings[0]);
  BOOST_TEST(warnings[0].find("(newchar)") != std::string::npos, warnings[0]);
  BOOST_TEST(warnings[1].find("ticker") != std::string::npos, warnings[1]);
  const Dataset d = read_hdf5(o.out);
  BOOST_TEST(d.cols() == 94 + 1);
  BOOST_TEST(d.feature_names[92] == "zerotrade");  // the standard ones in their order, mom12m left out
  BOOST_TEST(d.feature_names[93] == "newchar");    // then the others in header order
  BOOST_TEST(d.feature_names[94] == "sic2_28");
  BOOST_TEST(std::count(d.feature_names.begin(), d.feature_names.end(), "mom12m") == 0);
  BOOST_TEST(d.X(0, 93) == 0.5f);  // permno 10 has the largest newchar of three: rank 3 → 2·3/4 − 1
  BOOST_TEST(d.X(2, 93) == -0.5f);
  BOOST_TEST(read_string_attribute(o.out, "prepare.characteristics_missing") == "mom12m");
  BOOST_TEST(read_string_attribute(o.out, "prepare.characteristics_extra") == "newchar");
  BOOST_TEST(read_string_attribute(o.out, "prepare.columns_ignored") == "ticker (not numeric)");
  BOOST_TEST(read_int_attribute(o.out, "prepare.characteristic_count") == 94);
  std::ostringstream text;
  print_report(o, rep, text);
  BOOST_TEST(text.str().find("1 of the 94 standard characteristics missing (mom12m)") != std::string::npos, text.str());

  // --strict: refused, naming the file and the column; no panel.
  o.strict = true;
  o.out = fx.dir.file("strict.h5");
  expect_input_error([&] { prepare_gkx(o); }, {"vintage.csv", "'mom12m'", "missing", "--strict"});
  BOOST_TEST(!fs::exists(o.out));
  BOOST_TEST(!fs::exists(o.out + ".tmp"));
  // --strict on a complete file with an extra column: the 94 only, the extra one not used.
  o.characteristics = write_gkx(fx.dir, {{"10", "20100129", "1"}, {"11", "20100129", "2"}}, "", "complete.csv");
  append_columns(o.characteristics, "newchar", [](int k) { return std::to_string(k); });
  warnings.clear();
  const PrepareReport strict = prepare_gkx(o);
  BOOST_TEST(strict.characteristics == 94u);
  BOOST_TEST(strict.ignored_columns == std::vector<std::string>({"newchar"}), boost::test_tools::per_element());
  BOOST_TEST(read_hdf5(o.out).feature_names[93] == "zerotrade");
  // A duplicated column name and a file without any characteristic are refused.
  o.strict = false;
  o.out = fx.dir.file("dup.h5");
  o.characteristics = write_gkx(fx.dir, {{"10", "20100129", "1"}}, "", "dupcol.csv");
  append_columns(o.characteristics, "BETA", [](int) { return "1"; });
  expect_input_error([&] { prepare_gkx(o); }, {"dupcol.csv", "'BETA'", "twice"});
  o.characteristics = fx.dir.write("none.csv", "permno,DATE,sic2,RET\n10,20100129,28,0.01\n");
  expect_input_error([&] { prepare_gkx(o); }, {"none.csv", "no characteristic column"});
  BOOST_TEST(!fs::exists(o.out));
}

// CRSP's numeric missing-return codes are missing values, not −6 600 % returns; any other return below −1
// is dropped, counted, warned about and recorded in the panel.
BOOST_AUTO_TEST_CASE(crsp_missing_codes_and_returns_below_minus_one) {
  BOOST_TEST(is_crsp_missing_return(-66.0));
  BOOST_TEST(is_crsp_missing_return(-77.0));
  BOOST_TEST(is_crsp_missing_return(-88.0));
  BOOST_TEST(is_crsp_missing_return(-99.0));
  BOOST_TEST(!is_crsp_missing_return(-1.0));
  BOOST_TEST(!is_crsp_missing_return(-0.66));
  TempDir dir;
  PrepareOptions o;
  std::vector<Row> rows;
  for (int k = 0; k < 8; ++k) rows.push_back({std::to_string(10 + k), "20100129", std::to_string(k + 1)});
  o.characteristics = write_gkx(dir, rows);
  o.returns = dir.write("ret.csv",
                        "permno,yyyymm,ret\n10,201001,0.05\n11,201001,-66.0\n12,201001,-77\n13,201001,-88.00\n"
                        "14,201001,-99\n15,201001,-1.5\n16,201001,-1\n17,201001,B\n");
  o.riskfree = dir.write("rf.csv", "yyyymm,rf\n201001,0.001\n");
  o.from = o.to = 201001;
  o.out = dir.file("p.h5");
  std::vector<std::string> warnings;
  o.on_warning = [&](const std::string& w) { warnings.push_back(w); };
  const PrepareReport rep = prepare_gkx(o);
  BOOST_TEST(rep.returns_crsp_codes == 5);       // −66, −77, −88, −99 and the letter B
  BOOST_TEST(rep.returns_below_minus_one == 1);  // −1.5
  BOOST_TEST(rep.dropped_no_return == 5);
  BOOST_TEST(rep.dropped_bad_return == 1);
  BOOST_TEST(rep.rows_written == 2);  // 0.05 and −1 (a total loss is a valid return)
  const Dataset d = read_hdf5(o.out);
  BOOST_TEST(d.y[0] == 0.05 - 0.001, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(d.y[1] == -1.0 - 0.001, boost::test_tools::tolerance(1e-12));
  for (Index i = 0; i < d.rows(); ++i) BOOST_TEST(d.y[i] >= -1.0 - 0.001 - 1e-12);
  BOOST_TEST_REQUIRE(warnings.size() == 1u);
  BOOST_TEST(warnings[0].find("ret.csv") != std::string::npos, warnings[0]);
  BOOST_TEST(warnings[0].find("1 return(s) below -1") != std::string::npos, warnings[0]);
  BOOST_TEST(warnings[0].find("line 7") != std::string::npos, warnings[0]);
  BOOST_TEST(read_int_attribute(o.out, "prepare.returns_crsp_missing_codes") == 5);
  BOOST_TEST(read_int_attribute(o.out, "prepare.returns_below_minus_one") == 1);
  BOOST_TEST(read_int_attribute(o.out, "prepare.dropped_return_below_minus_one") == 1);
  std::ostringstream text;
  print_report(o, rep, text);
  BOOST_TEST(text.str().find("1 dropped (return below -1)") != std::string::npos, text.str());
  // The same through the RET column of the characteristics file.
  PrepareOptions from_ret = o;
  rows[1].ret = "-66.0";
  rows[2].ret = "-3";
  rows[0].ret = "0.02";
  from_ret.characteristics = write_gkx(dir, {rows[0], rows[1], rows[2]}, "", "withret.csv");
  from_ret.returns.clear();
  from_ret.out = dir.file("q.h5");
  const PrepareReport r2 = prepare_gkx(from_ret);
  BOOST_TEST(r2.returns_crsp_codes == 1);
  BOOST_TEST(r2.returns_below_minus_one == 1);
  BOOST_TEST(r2.rows_written == 1);
}

// The memory budget option is checked and named (no 309-digit range bound).
BOOST_AUTO_TEST_CASE(memory_budget_option_checks) {
  BOOST_TEST(memory_budget_bytes(256, "--memory-mb") == std::size_t{256} << 20);
  BOOST_TEST(memory_budget_bytes(1, "--memory-mb") == std::size_t{1} << 20);
  for (double bad :
       {0.0, -5.0, 0.5, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 1e300}) {
    try {
      memory_budget_bytes(bad, "prepare-gkx: --memory-mb");
      BOOST_ERROR("accepted " << bad);
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      BOOST_TEST(what.find("prepare-gkx: --memory-mb must be") != std::string::npos, what);
      BOOST_TEST(what.size() < 120u, what);
    }
  }
}

BOOST_AUTO_TEST_CASE(panel_writer_removes_its_tmp_file_when_not_finished) {
  TempDir dir;
  const std::string path = dir.file("w.h5");
  {
    Hdf5PanelWriter w(path, {"a", "b"});
    const std::vector<float> x = {1, 2, 3, 4};
    const std::vector<double> y = {0.5, 0.25};
    w.append_period(7, x.data(), y.data(), 2);
    BOOST_TEST(fs::exists(path + ".tmp"));
  }
  BOOST_TEST(!fs::exists(path + ".tmp"));
  BOOST_TEST(!fs::exists(path));
  Hdf5PanelWriter w(path, {"a", "b"});
  expect_input_error([&] { w.finish(); }, {"w.h5", "no rows"});
}

BOOST_AUTO_TEST_SUITE_END()

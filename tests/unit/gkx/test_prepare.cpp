// prepare-gkx: the rank transform (ties, missing, tiny months), the one-hot, the merge and its alignment, the macro
// columns, spilling, and every malformed-input error (file, line, column, value). Tiny CSVs in a temp dir.
#include "prepare_fixture.hpp"

using namespace bfs;
using namespace bfs::gkx;
using namespace bfs::gkx::test_support;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(rank_transform)

BOOST_AUTO_TEST_CASE(ties_share_the_average_rank_and_missing_is_zero) {
  const std::vector<float> v = {3.0f, 1.0f, 2.0f, 2.0f, kNaN};
  std::vector<float> out(v.size());
  rank_to_unit_interval(v, out);
  // N = 4 non-missing; ranks 4, 1, 2.5, 2.5 → 2r/(N+1) − 1.
  BOOST_TEST(out[0] == 2.0f * 4 / 5 - 1, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(out[1] == 2.0f * 1 / 5 - 1, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(out[2] == 0.0f);
  BOOST_TEST(out[3] == 0.0f);
  BOOST_TEST(out[4] == 0.0f);
}

BOOST_AUTO_TEST_CASE(output_is_symmetric_inside_minus_one_one) {
  std::vector<float> v = {10, -3, 7, 0.5f, 8, 2};
  std::vector<float> out(v.size());
  rank_to_unit_interval(v, out);
  float sum = 0;
  for (float o : out) {
    BOOST_TEST(o > -1.0f);
    BOOST_TEST(o < 1.0f);
    sum += o;
  }
  BOOST_TEST(sum == 0.0f, boost::test_tools::tolerance(1e-5f));
  BOOST_TEST(out[1] == 2.0f / 7 - 1, boost::test_tools::tolerance(1e-6f));   // smallest: rank 1
  BOOST_TEST(out[0] == 12.0f / 7 - 1, boost::test_tools::tolerance(1e-6f));  // largest: rank 6
}

BOOST_AUTO_TEST_CASE(tiny_months_give_zero_and_two_values_give_plus_minus_a_third) {
  std::vector<float> none, out0;
  rank_to_unit_interval(none, out0);
  std::vector<float> one = {4.0f, kNaN}, out1(2, 9.0f);
  rank_to_unit_interval(one, out1);
  BOOST_TEST(out1[0] == 0.0f);
  BOOST_TEST(out1[1] == 0.0f);
  std::vector<float> all_missing = {kNaN, kNaN}, out2(2, 9.0f);
  rank_to_unit_interval(all_missing, out2);
  BOOST_TEST(out2[0] == 0.0f);
  std::vector<float> two = {5.0f, kNaN, -1.0f};
  rank_to_unit_interval(two, two);  // in place
  BOOST_TEST(two[0] == 1.0f / 3, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(two[1] == 0.0f);
  BOOST_TEST(two[2] == -1.0f / 3, boost::test_tools::tolerance(1e-6f));
  std::vector<float> equal = {2.0f, 2.0f, 2.0f}, out3(3);
  rank_to_unit_interval(equal, out3);
  for (float o : out3) BOOST_TEST(o == 0.0f);
}

BOOST_AUTO_TEST_CASE(one_hot_counts_levels_and_leaves_missing_rows_zero) {
  const std::vector<std::int32_t> codes = {28, kMissingCode, 10, 28, 73};
  const auto levels = distinct_codes(codes);
  BOOST_TEST(levels == std::vector<std::int32_t>({10, 28, 73}), boost::test_tools::per_element());
  std::vector<float> out(codes.size() * 4, 9.0f);
  one_hot(codes, levels, out.data(), 4);  // stride 4: the last column is untouched
  const std::vector<float> expect = {0, 1, 0, 9, 0, 0, 0, 9, 1, 0, 0, 9, 0, 1, 0, 9, 0, 0, 1, 9};
  BOOST_TEST(out == expect, boost::test_tools::per_element());
  BOOST_CHECK_THROW(one_hot(std::vector<std::int32_t>{5}, levels, out.data(), 4), InternalError);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(parsing)

BOOST_AUTO_TEST_CASE(months_dates_and_missing_tokens) {
  const std::string path = "f.csv";
  const CellRef at{path, 7, "DATE"};
  BOOST_TEST(parse_yyyymmdd_month("20100129", at) == 201001);
  BOOST_TEST(parse_any_month("201001", at) == 201001);
  BOOST_TEST(parse_any_month("2010-01-29", at) == 201001);
  BOOST_TEST(parse_any_month("2010-12", at) == 201012);
  BOOST_TEST(parse_any_month("20101231", at) == 201012);
  BOOST_TEST(add_months(201012, 1) == 201101);
  BOOST_TEST(add_months(201101, -1) == 201012);
  BOOST_TEST(months_between(201001, 201912) == 120);
  for (const char* m : {"", "NA", "nan", "NaN", ".", "null"}) BOOST_TEST(is_missing(m));
  BOOST_TEST(!is_missing("0"));
  BOOST_TEST(parse_month_option("2010-01", "--from") == 201001);
  BOOST_TEST(parse_month_option("201912", "--to") == 201912);
  expect_input_error([] { parse_month_option("2010-13", "--from"); }, {"--from", "2010-13"});
  expect_input_error([] { parse_alignment("lagged"); }, {"--align", "lagged"});
  BOOST_TEST((parse_alignment("next-month") == Alignment::NextMonth));
  expect_input_error([&] { parse_yyyymmdd_month("2010-01-29", at); }, {"f.csv:7", "DATE", "2010-01-29", "yyyymmdd"});
  expect_input_error([&] { parse_yyyymmdd_month("20101329", at); }, {"f.csv:7", "20101329", "month 13"});
  expect_input_error([&] { parse_number("1.2.3", at); }, {"f.csv:7", "'DATE'", "'1.2.3'", "not a number"});
  expect_input_error([&] { parse_number("inf", at); }, {"not finite"});
  BOOST_TEST(*parse_number("+2.5e-1", at) == 0.25);
}

BOOST_AUTO_TEST_CASE(line_reader_streams_long_lines_crlf_and_a_missing_final_newline) {
  TempDir dir;
  const std::string big(3u << 20, 'x');  // longer than the 1 MiB buffer
  const std::string path = dir.write("l.txt", "a,b\r\n" + big + "\n\nlast");
  LineReader reader(path);
  std::string_view line;
  BOOST_REQUIRE(reader.next(line));
  BOOST_TEST(line == "a,b");
  BOOST_REQUIRE(reader.next(line));
  BOOST_TEST(line.size() == big.size());
  BOOST_REQUIRE(reader.next(line));
  BOOST_TEST(line.empty());
  BOOST_REQUIRE(reader.next(line));
  BOOST_TEST(line == "last");
  BOOST_TEST(reader.line_number() == 4);
  BOOST_TEST(!reader.next(line));
  std::vector<std::string_view> fields;
  BOOST_TEST(split_fields(" 1 ,\"a,b\",,x", fields));
  BOOST_TEST(fields.size() == 4u);
  BOOST_TEST(fields[1] == "a,b");
  BOOST_TEST(fields[2].empty());
  BOOST_TEST(!split_fields("1,\"a,b", fields));  // an unterminated quote is reported, not read as a field
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(prepare)

BOOST_AUTO_TEST_CASE(panel_layout_ranks_one_hot_and_excess_returns) {
  Fixture fx;
  const PrepareReport rep = prepare_gkx(fx.options());
  BOOST_TEST(rep.lines_read == 8);
  BOOST_TEST(rep.rows_outside_range == 1);
  BOOST_TEST(rep.rows_in_range == 7);
  BOOST_TEST(rep.dropped_no_return == 2);  // 13 has no return row, 11 in 2010-02 has the missing code "C"
  BOOST_TEST(rep.rows_written == 5);
  BOOST_TEST(rep.sic2_missing == 1);
  BOOST_TEST(rep.sic2_codes == std::vector<std::int32_t>({28, 35}), boost::test_tools::per_element());

  const Dataset d = read_hdf5(fx.options().out);
  BOOST_TEST(d.cols() == 94 + 2);
  BOOST_TEST(d.feature_names[0] == "absacc");
  BOOST_TEST(d.feature_names[93] == "zerotrade");
  BOOST_TEST(d.feature_names[94] == "sic2_28");
  BOOST_TEST(d.feature_names[95] == "sic2_35");
  BOOST_TEST(d.period_offsets == std::vector<std::int64_t>({0, 3, 4, 5}), boost::test_tools::per_element());
  BOOST_TEST(d.period_labels == std::vector<std::int32_t>({201001, 201002, 201003}), boost::test_tools::per_element());
  // 2010-01: rows sorted by permno 10, 11, 12 (the file had 12 first); y = ret − rf(201001).
  BOOST_TEST(d.y[0] == 0.05 - 0.001, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(d.y[1] == -0.02 - 0.001, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(d.y[2] == 0.10 - 0.001, boost::test_tools::tolerance(1e-12));
  // Values 1, 2, 3 → ranks 1, 2, 3 → −0.5, 0, 0.5.
  const std::size_t acc = column_of(d, "acc"), mom12m = column_of(d, "mom12m"), beta = column_of(d, "beta");
  BOOST_TEST(d.X(0, acc) == -0.5f);
  BOOST_TEST(d.X(1, acc) == 0.0f);
  BOOST_TEST(d.X(2, acc) == 0.5f);
  // mom12m missing for permno 10 ("" ) and beta missing ("NA"): 0, the others ranked among N = 2.
  BOOST_TEST(d.X(0, mom12m) == 0.0f);
  BOOST_TEST(d.X(1, mom12m) == -1.0f / 3, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(d.X(2, mom12m) == 1.0f / 3, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(d.X(0, beta) == 0.0f);
  // One-hot: 10 and 11 in 28, 12 in 35; 2010-02 has one stock (10) without sic2 and a single value per column.
  BOOST_TEST(d.X(0, 94) == 1.0f);
  BOOST_TEST(d.X(0, 95) == 0.0f);
  BOOST_TEST(d.X(2, 94) == 0.0f);
  BOOST_TEST(d.X(2, 95) == 1.0f);
  BOOST_TEST(d.X(3, 94) == 0.0f);
  BOOST_TEST(d.X(3, 95) == 0.0f);
  BOOST_TEST(d.X(3, acc) == 0.0f);  // fewer than two values
  BOOST_TEST(d.y[3] == 0.01 - 0.002, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(d.y[4] == 0.03 - 0.003, boost::test_tools::tolerance(1e-12));
  // Missing shares: mom12m and beta are missing in 1 of 5 written rows.
  BOOST_TEST(rep.missing_share[static_cast<std::size_t>(mom12m)] == 0.2, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(rep.missing_share[static_cast<std::size_t>(acc)] == 0.0);
  BOOST_TEST(read_string_attribute(fx.options().out, "prepare.align") == "same-month");
  BOOST_TEST(!fs::exists(fx.options().out + ".tmp"));

  // The panel reader of a run sees one period per month.
  auto source = make_hdf5_source(fx.options().out, true, 0, 0);
  BOOST_TEST(source->num_periods() == 3);
  const Dataset jan = source->load_period(0);
  BOOST_TEST(jan.rows() == 3);
  BOOST_TEST(jan.X(2, acc) == 0.5f);

  std::ostringstream text;
  print_report(fx.options(), rep, text);
  BOOST_TEST(text.str().find("2 dropped (no return)") != std::string::npos);
  BOOST_TEST(text.str().find("mom12m") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(next_month_alignment_pairs_with_the_following_return) {
  Fixture fx;
  PrepareOptions o = fx.options();
  o.align = Alignment::NextMonth;
  const PrepareReport rep = prepare_gkx(o);
  // 2010-01 rows get February returns: 10 → 0.01, 11 → "C" (dropped), 12 → none (dropped).
  // 2010-02 rows get March: 10 → 0.03, 11 → 0.04, 13 → none. 2010-03: 10 → April 0.07.
  BOOST_TEST(rep.dropped_no_return == 3);
  const Dataset d = read_hdf5(o.out);
  BOOST_TEST(d.period_labels == std::vector<std::int32_t>({201001, 201002, 201003}), boost::test_tools::per_element());
  BOOST_TEST(d.period_offsets == std::vector<std::int64_t>({0, 1, 3, 4}), boost::test_tools::per_element());
  BOOST_TEST(d.y[0] == 0.01 - 0.002, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(d.y[1] == 0.03 - 0.003, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(d.y[2] == 0.04 - 0.003, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(d.y[3] == 0.07 - 0.004, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(read_string_attribute(o.out, "prepare.align") == "next-month");
}

BOOST_AUTO_TEST_CASE(returns_from_the_ret_column_and_percent_riskfree) {
  TempDir dir;
  PrepareOptions o;
  o.characteristics = write_gkx(dir, {{"10", "20100129", "1", "28", "0.05"},
                                      {"11", "20100129", "2", "28", "C"},
                                      {"12", "20100129", "3", "28", "-0.01"}});
  o.riskfree = dir.write("F-F.csv", ",Mkt-RF,SMB,HML,RF\n201001,-3.36,0.34,0.43,0.00\n201002,3.40,1.51,3.22,0.01\n");
  o.rf_percent = true;
  o.from = o.to = 201001;
  o.out = dir.file("p.h5");
  const PrepareReport rep = prepare_gkx(o);
  BOOST_TEST(rep.rows_written == 2);
  const Dataset d = read_hdf5(o.out);
  BOOST_TEST(d.y[0] == 0.05);
  BOOST_TEST(d.y[1] == -0.01);
  o.align = Alignment::NextMonth;  // the February RET is not in the file: every row is dropped
  expect_input_error([&] { prepare_gkx(o); }, {"no row with a return"});
}

BOOST_AUTO_TEST_CASE(macro_columns_come_from_the_month_before_the_return) {
  Fixture fx;
  PrepareOptions o = fx.options();
  // Raw Welch–Goyal columns (dp, ep derived; tms = lty − tbl; dfy = BAA − AAA); 201003 lacks b/m.
  o.macro = fx.dir.write("wg.csv",
                         "yyyymm,Index,D12,E12,b/m,tbl,AAA,BAA,lty,ntis,svar\n"
                         "200912,100,2,5,0.3,0.01,0.05,0.06,0.04,0.02,0.001\n"
                         "201001,110,2,5,0.3,0.02,0.05,0.07,0.04,0.02,0.002\n"
                         "201002,120,2,5,0.3,0.03,0.05,0.08,0.04,0.02,0.003\n"
                         "201003,120,2,5,NaN,0.03,0.05,0.08,0.04,0.02,0.003\n");
  prepare_gkx(o);
  const Dataset d = read_hdf5(o.out);
  BOOST_TEST(d.cols() == 94 + 8 + 2);
  BOOST_TEST(d.feature_names[94] == "macro_dp");
  BOOST_TEST(d.feature_names[101] == "macro_svar");
  // Same-month: a 2010-01 row (return of 2010-01) carries the 2009-12 predictors.
  BOOST_TEST(d.X(0, 94) == static_cast<float>(std::log(2.0) - std::log(100.0)), boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(d.X(0, 99) == static_cast<float>(0.04 - 0.01), boost::test_tools::tolerance(1e-6f));   // tms
  BOOST_TEST(d.X(0, 100) == static_cast<float>(0.06 - 0.05), boost::test_tools::tolerance(1e-6f));  // dfy
  BOOST_TEST(d.X(3, 101) == 0.002f);  // the 2010-02 row ← 201001
  BOOST_TEST(d.X(4, 101) == 0.003f);  // the 2010-03 row ← 201002
  // Next-month needs the DATE month's predictors; 201003's are incomplete (b/m missing) → an error naming it.
  o.align = Alignment::NextMonth;
  expect_input_error([&] { prepare_gkx(o); }, {"wg.csv", "201003"});
}

BOOST_AUTO_TEST_CASE(spilling_to_temp_files_gives_the_same_panel) {
  Fixture fx;
  PrepareOptions o = fx.options();
  const PrepareReport in_memory = prepare_gkx(o);
  const Dataset a = read_hdf5(o.out);
  o.memory_budget_bytes = 1;  // every row spills
  o.out = fx.dir.file("spilled.h5");
  const std::size_t before = fx.dir.entries();
  const PrepareReport spilled = prepare_gkx(o);
  BOOST_TEST(in_memory.spilled_bytes == 0);
  BOOST_TEST(spilled.spilled_bytes > 0);
  BOOST_TEST(fx.dir.entries() == before + 1);  // the panel; the spill directory is gone
  const Dataset b = read_hdf5(o.out);
  BOOST_TEST(a.X.isApprox(b.X));
  BOOST_TEST(a.y.isApprox(b.y));
  BOOST_TEST(a.period_offsets == b.period_offsets, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(malformed_characteristics_files_name_file_line_column_and_value) {
  Fixture fx;
  PrepareOptions o = fx.options();
  o.characteristics = write_gkx(fx.dir, {{"10", "20100129"}}, "mom12m", "nomom.csv");
  o.strict = true;  // without --strict a missing characteristic is reported, not refused (below)
  expect_input_error([&] { prepare_gkx(o); }, {"nomom.csv", "'mom12m'", "missing", "--strict"});
  o.strict = false;
  o.characteristics = write_gkx(fx.dir, {{"10", "20100129"}}, "sic2", "nosic.csv");
  expect_input_error([&] { prepare_gkx(o); }, {"nosic.csv", "'sic2'"});
  o.characteristics = write_gkx(fx.dir, {{"10", "20100129"}}, "DATE", "nodate.csv");
  expect_input_error([&] { prepare_gkx(o); }, {"nodate.csv", "'DATE'"});
  o.characteristics = write_gkx(fx.dir, {{"10", "20100129"}, {"11", "20101329"}}, "", "month.csv");
  expect_input_error([&] { prepare_gkx(o); }, {"month.csv:3", "DATE", "20101329", "month 13"});
  o.characteristics = write_gkx(fx.dir, {{"10", "2010-01-29"}}, "", "iso.csv");
  expect_input_error([&] { prepare_gkx(o); }, {"iso.csv:2", "2010-01-29", "yyyymmdd"});
  o.characteristics =
      write_gkx(fx.dir, {{"10", "20100129"}, {"11", "20100129", "1", "28", "", {{"beta", "abc"}}}}, "", "text.csv");
  expect_input_error([&] { prepare_gkx(o); }, {"text.csv:3", "column 'beta'", "'abc'", "not a number"});
  {
    PrepareOptions quoted = o;
    quoted.characteristics = write_gkx(fx.dir, {{"10", "20100129"}}, "", "ok.csv");
    quoted.returns = fx.dir.write("quote.csv", "permno,yyyymm,ret\n10,201001,\"0.01\n");
    expect_input_error([&] { prepare_gkx(quoted); }, {"quote.csv:2", "unterminated quote"});
  }
  o.characteristics = write_gkx(fx.dir, {{"10.5", "20100129"}}, "", "permno.csv");
  expect_input_error([&] { prepare_gkx(o); }, {"permno.csv:2", "'permno'", "10.5", "not an integer"});
  o.characteristics = write_gkx(
      fx.dir, {{"11", "20100129"}, {"10", "20100129"}, {"12", "20100129"}, {"10", "20100129"}}, "", "dup.csv");
  expect_input_error([&] { prepare_gkx(o); }, {"dup.csv", "(10, 201001)", "lines 3 and 5"});
  o.characteristics = write_gkx(fx.dir, {{"10", "20100129"}}, "", "ragged.csv");
  std::ofstream(o.characteristics, std::ios::app) << "11,20100129,1\n";
  expect_input_error([&] { prepare_gkx(o); }, {"ragged.csv:3", "3 fields but the header has 99"});
  o.characteristics = fx.dir.file("absent.csv");
  expect_input_error([&] { prepare_gkx(o); }, {"cannot open", "absent.csv"});
  // No output, no tmp file after any failure.
  BOOST_TEST(!fs::exists(o.out));
  BOOST_TEST(!fs::exists(o.out + ".tmp"));
}

BOOST_AUTO_TEST_CASE(malformed_returns_and_riskfree_files) {
  Fixture fx;
  PrepareOptions o = fx.options();
  o.returns = fx.dir.write("r1.csv", "permno,yyyymm\n10,201001\n");
  expect_input_error([&] { prepare_gkx(o); }, {"r1.csv", "return", "'ret'"});
  o.returns = fx.dir.write("r2.csv", "permno,yyyymm,ret\n10,201001,0.1\n11,201001,x1\n");
  expect_input_error([&] { prepare_gkx(o); }, {"r2.csv:3", "'ret'", "'x1'"});
  o.returns = fx.dir.write("r3.csv", "permno,yyyymm,ret\n10,201001,0.1\n11,201001,0.2\n10,2010-01,0.3\n");
  expect_input_error([&] { prepare_gkx(o); }, {"r3.csv", "(10, 201001)", "lines 2 and 4"});
  o.returns = fx.dir.write("r4.csv", "permno,yyyymm,ret\n10,201013,0.1\n");
  expect_input_error([&] { prepare_gkx(o); }, {"r4.csv:2", "201013", "month 13"});
  o.returns = fx.returns;
  o.riskfree = fx.dir.write("rf1.csv", "yyyymm,rf\n201001,0.001\n201003,0.003\n");
  expect_input_error([&] { prepare_gkx(o); }, {"rf1.csv", "no risk-free rate for 201002", "gkx.csv:5"});
  o.riskfree = fx.dir.write("rf2.csv", "yyyymm,rate\n201001,0.001\n");
  expect_input_error([&] { prepare_gkx(o); }, {"rf2.csv", "risk-free", "'rf'"});
  o.riskfree = fx.dir.write("rf3.csv", "yyyymm,rf\n201001,0.001\n201001,0.002\n");
  expect_input_error([&] { prepare_gkx(o); }, {"rf3.csv", "201001", "lines 2 and 3"});
  BOOST_TEST(!fs::exists(o.out));
}

BOOST_AUTO_TEST_SUITE_END()

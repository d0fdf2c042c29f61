// simulate gkx-like: determinism by seed, the CSV schema, the planted truth, the data's shape (ties,
// binary columns, industry-level columns, correlated pairs, missing shares), and a round trip through prepare-gkx.
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "data/hdf5_io.hpp"
#include "gkx/characteristics.hpp"
#include "gkx/prepare.hpp"
#include "gkx/rank_transform.hpp"
#include "gkx/simulate_gkx.hpp"

using namespace bfs;
using namespace bfs::gkx;
namespace fs = std::filesystem;

namespace {

std::size_t char_column(std::string_view name) {
  for (std::size_t k = 0; k < kCharacteristics.size(); ++k)
    if (kCharacteristics[k] == name) return k;
  BOOST_FAIL("no characteristic " << name);
  return 0;
}

std::vector<GkxMonth> run(const GkxLikeSpec& spec) {
  GkxLikeSimulator sim(spec);
  std::vector<GkxMonth> months;
  GkxMonth m;
  while (sim.next(m)) months.push_back(m);
  return months;
}

std::vector<float> column(const GkxMonth& m, std::string_view name) {
  const std::size_t k = char_column(name), p = kCharacteristics.size();
  std::vector<float> out(m.stocks());
  for (std::size_t i = 0; i < m.stocks(); ++i) out[i] = m.raw[i * p + k];
  return out;
}

double missing_share(const GkxMonth& m, std::string_view name) {
  const auto v = column(m, name);
  return static_cast<double>(std::count_if(v.begin(), v.end(), [](float x) { return std::isnan(x); })) / v.size();
}

// Spearman correlation over rows where both are present (ranks through the prepare-gkx transform).
double rank_corr(const GkxMonth& m, std::string_view a, std::string_view b) {
  std::vector<float> x, y;
  const auto ca = column(m, a), cb = column(m, b);
  for (std::size_t i = 0; i < ca.size(); ++i)
    if (!std::isnan(ca[i]) && !std::isnan(cb[i])) x.push_back(ca[i]), y.push_back(cb[i]);
  rank_to_unit_interval(x, x);
  rank_to_unit_interval(y, y);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sxy += x[i] * y[i], sxx += x[i] * x[i], syy += y[i] * y[i];
  return sxy / std::sqrt(sxx * syy);
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag)
      : path(fs::temp_directory_path() / ("bfs_gkxsim_" + std::to_string(::getpid()) + "_" + tag)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string first_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(simulate_gkx)

BOOST_AUTO_TEST_CASE(same_seed_same_data_other_seed_other_data) {
  const GkxLikeSpec spec{7, 3, 300, 201001, 0.0};
  const auto a = run(spec), b = run(spec);
  GkxLikeSpec other = spec;
  other.seed = 8;
  const auto c = run(other);
  BOOST_REQUIRE(a.size() == 3u);
  for (std::size_t t = 0; t < a.size(); ++t) {
    BOOST_TEST(a[t].permno == b[t].permno, boost::test_tools::per_element());
    BOOST_TEST(std::memcmp(a[t].raw.data(), b[t].raw.data(), a[t].raw.size() * sizeof(float)) == 0);
    BOOST_TEST(std::memcmp(a[t].excess_return.data(), b[t].excess_return.data(),
                           a[t].excess_return.size() * sizeof(double)) == 0);
  }
  BOOST_TEST(std::memcmp(a[0].excess_return.data(), c[0].excess_return.data(),
                         std::min(a[0].stocks(), c[0].stocks()) * sizeof(double)) != 0);
}

BOOST_AUTO_TEST_CASE(months_dates_universe) {
  const auto months = run({1, 14, 400, 201911, 0.0});
  BOOST_REQUIRE(months.size() == 14u);
  BOOST_TEST(months[0].yyyymm == 201911);
  BOOST_TEST(months[1].yyyymm == 201912);
  BOOST_TEST(months[2].yyyymm == 202001);
  BOOST_TEST(months[0].date == 20191129);        // Fri 29 Nov 2019
  BOOST_TEST(last_weekday(202002) == 20200228);  // Fri (29 Feb 2020 is a Saturday)
  BOOST_TEST(last_weekday(201908) == 20190830);  // 31 Aug 2019 is a Saturday
  std::set<std::size_t> sizes;
  for (const auto& m : months) {
    sizes.insert(m.stocks());
    BOOST_TEST(std::is_sorted(m.permno.begin(), m.permno.end()));
    BOOST_TEST((std::adjacent_find(m.permno.begin(), m.permno.end()) == m.permno.end()));
    BOOST_TEST(m.stocks() > 300u);
    BOOST_TEST(m.stocks() < 500u);
    BOOST_TEST(m.rf >= 0.0);
  }
  BOOST_TEST(sizes.size() > 1u);  // the cross-section varies
  // Stocks persist: most permnos of month 0 are still there in month 13 (exits ~0.6% a month).
  std::set<std::int64_t> later(months[13].permno.begin(), months[13].permno.end());
  const auto kept = std::count_if(months[0].permno.begin(), months[0].permno.end(),
                                  [&](std::int64_t p) { return later.count(p) > 0; });
  BOOST_TEST(kept > static_cast<long>(0.85 * months[0].stocks()));
}

BOOST_AUTO_TEST_CASE(planted_truth_names_are_characteristics) {
  const auto strong = planted_features(true), all = planted_features(false);
  BOOST_TEST(strong.size() >= 5u);
  BOOST_TEST(all.size() > strong.size());
  for (const auto& n : all) BOOST_TEST(std::count(kCharacteristics.begin(), kCharacteristics.end(), n) == 1);
  std::set<std::string> forms;
  for (const auto& t : planted_terms()) {
    forms.insert(t.form);
    BOOST_TEST(t.features.size() == (t.form == "interaction" ? 2u : 1u));
  }
  BOOST_TEST(forms.count("interaction") == 1u);
  BOOST_TEST(forms.count("threshold") == 1u);
  // f is zero at the median of everything but the centred threshold term; it moves with a planted feature only.
  std::vector<double> q(kCharacteristics.size(), 0.0);
  const double base = planted_signal(q);
  q[char_column("retvol")] = 0.9;
  BOOST_TEST(planted_signal(q) == base);
  q[char_column("mom1m")] = 0.5;
  BOOST_TEST(planted_signal(q) < base);
}

BOOST_AUTO_TEST_CASE(ties_binaries_industry_columns_correlations_missing) {
  const auto months = run({3, 1, 4000, 201001, 0.0});
  const GkxMonth& m = months[0];
  for (std::string_view name : {"divi", "divo", "convind", "secured", "rd", "securedind", "sin"}) {
    std::set<float> values;
    for (float v : column(m, name))
      if (!std::isnan(v)) values.insert(v);
    BOOST_TEST(values == std::set<float>({0.0f, 1.0f}), name);
  }
  for (std::string_view name : {"ps", "ms", "nincr", "age"}) {
    std::set<float> values;
    for (float v : column(m, name))
      if (!std::isnan(v)) {
        values.insert(v);
        BOOST_TEST(v == std::round(v));
      }
    BOOST_TEST(values.size() > 3u, name);
    BOOST_TEST(values.size() < 70u, name);
  }
  // Industry-level columns: one value per sic2 code.
  std::map<std::int32_t, std::set<float>> by_industry;
  const auto indmom = column(m, "indmom");
  for (std::size_t i = 0; i < m.stocks(); ++i)
    if (m.sic2[i] >= 0) by_industry[m.sic2[i]].insert(indmom[i]);
  for (const auto& [code, values] : by_industry) BOOST_TEST(values.size() == 1u, "sic2 " << code);
  BOOST_TEST(by_industry.size() > 50u);
  // The correlated pairs of the real data.
  BOOST_TEST(rank_corr(m, "baspread", "retvol") > 0.7);
  BOOST_TEST(rank_corr(m, "dolvol", "mvel1") > 0.7);
  BOOST_TEST(rank_corr(m, "beta", "betasq") > 0.9);
  BOOST_TEST(std::abs(rank_corr(m, "mom1m", "bm")) < 0.1);
  // Missing values: none in indmom, a few percent in market data, more in accounting data, most in realestate.
  BOOST_TEST(missing_share(m, "indmom") == 0.0);
  BOOST_TEST(missing_share(m, "mom1m") < 0.03);
  BOOST_TEST(missing_share(m, "bm") > 0.05);
  BOOST_TEST(missing_share(m, "realestate") > 0.4);
  BOOST_TEST(missing_share(m, "realestate") < 0.8);
}

// A planted feature must be identifiable: if another characteristic had (nearly) the same within-month ranks, no
// model-agnostic importance could tell the two apart and the truth would be unrecoverable by design. This is what
// happened when beta carried the interaction (betasq = beta² ranks like beta for the ~97% of stocks with beta > 0).
BOOST_AUTO_TEST_CASE(planted_features_have_no_monotone_twin) {
  const auto months = run({11, 1, 4000, 201001, 0.0});
  const GkxMonth& m = months[0];
  for (const std::string& planted : planted_features(false))
    for (std::string_view other : kCharacteristics) {
      if (other == planted) continue;
      BOOST_TEST(std::abs(rank_corr(m, planted, other)) < 0.9, planted << " vs " << other);
    }
  // The check can fail: it flags the known twin pair.
  BOOST_TEST(std::abs(rank_corr(m, "beta", "betasq")) >= 0.9);
}

BOOST_AUTO_TEST_CASE(truth_json_parses_and_keeps_every_digit) {
  TempDir dir("t");
  const GkxLikeSpec spec{4, 1, 60, 201001, 1.25e-7};  // a scale that six fixed decimals would print as 0.000000
  simulate_gkx_like(spec, dir.path);
  std::ifstream in(dir.path / "truth.json");
  const auto j = nlohmann::json::parse(in);
  BOOST_TEST(j.at("signal_scale").get<double>() == 1.25e-7);
  BOOST_TEST(j.at("seed").get<int>() == 4);
  BOOST_TEST(j.at("planted").get<std::vector<std::string>>() == planted_features(false),
             boost::test_tools::per_element());
  BOOST_TEST(j.at("terms").size() == planted_terms().size());
  BOOST_TEST(j.at("terms")[0].at("coefficient").get<double>() == planted_terms()[0].coefficient);
}

BOOST_AUTO_TEST_CASE(csv_schema_and_prepare_gkx_round_trip) {
  TempDir dir("a");
  const GkxLikeSpec spec{5, 3, 120, 201001, 0.0};
  const GkxLikeReport rep = simulate_gkx_like(spec, dir.path);
  BOOST_TEST(rep.rows > 300);
  for (const char* f : {"characteristics.csv", "returns.csv", "riskfree.csv", "truth.json"})
    BOOST_TEST(fs::exists(dir.path / f), f);
  BOOST_TEST(first_line(dir.path / "returns.csv") == "permno,yyyymm,ret");
  BOOST_TEST(first_line(dir.path / "riskfree.csv") == "yyyymm,rf");
  std::vector<std::string> header;
  {
    std::stringstream ss(first_line(dir.path / "characteristics.csv"));
    for (std::string f; std::getline(ss, f, ',');) header.push_back(f);
  }
  BOOST_TEST(header.size() == 2u + 94u + 4u);
  BOOST_TEST(header[0] == "permno");
  BOOST_TEST(header[1] == "DATE");
  for (std::string_view c : kCharacteristics) BOOST_TEST(std::count(header.begin(), header.end(), c) == 1, c);
  BOOST_TEST(std::count(header.begin(), header.end(), "sic2") == 1);
  std::ifstream truth(dir.path / "truth.json");
  const std::string json((std::istreambuf_iterator<char>(truth)), std::istreambuf_iterator<char>());
  for (const auto& n : planted_features(false)) BOOST_TEST(json.find('"' + n + '"') != std::string::npos, n);
  BOOST_TEST(json.find("\"seed\": 5") != std::string::npos);

  // Same seed, same bytes.
  TempDir again("b");
  fs::remove_all(again.path);  // simulate_gkx_like creates missing directories
  simulate_gkx_like(spec, again.path / "x");
  std::ifstream a(dir.path / "characteristics.csv"), b(again.path / "x" / "characteristics.csv");
  BOOST_TEST(
      (std::string(std::istreambuf_iterator<char>(a), {}) == std::string(std::istreambuf_iterator<char>(b), {})));

  // prepare-gkx reads it: 3 months, rows = the stock-months with a return, 94 characteristics + sic2 dummies.
  PrepareOptions o;
  o.characteristics = (dir.path / "characteristics.csv").string();
  o.returns = (dir.path / "returns.csv").string();
  o.riskfree = (dir.path / "riskfree.csv").string();
  o.out = (dir.path / "panel.h5").string();
  o.from = 201001;
  o.to = 201003;
  const PrepareReport prep = prepare_gkx(o);
  BOOST_TEST(prep.rows_in_range == rep.rows);
  BOOST_TEST(prep.rows_written <= rep.returns);
  BOOST_TEST(prep.rows_written > rep.rows * 9 / 10);
  const Dataset d = read_hdf5(o.out);
  BOOST_TEST(d.num_periods() == 3);
  BOOST_TEST(d.cols() > 94 + 10);
  for (Index i = 0; i < d.rows(); ++i) BOOST_TEST_REQUIRE(std::isfinite(d.y[i]));
}

// The names were corrected (ipo → secured, salerev → salerec, each in the old one's place) without changing
// a single simulated value: the CSV bodies are pinned to the bytes written before the change (FNV-1a 64 of
// everything after the header line of characteristics.csv, and of the whole returns.csv; seed 5, 3 months, 120
// stocks).
BOOST_AUTO_TEST_CASE(renamed_characteristics_leave_the_simulated_values_unchanged) {
  TempDir dir("pin");
  simulate_gkx_like({5, 3, 120, 201001, 0.0}, dir.path);
  const auto fnv = [](const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
    return h;
  };
  const auto slurp = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string chars = slurp(dir.path / "characteristics.csv");
  const std::string header = chars.substr(0, chars.find('\n'));
  BOOST_TEST(fnv(chars.substr(header.size() + 1)) == 0xf149f1d0e77cbb35ULL);
  BOOST_TEST(fnv(slurp(dir.path / "returns.csv")) == 0xbee30ebaca6a5f6fULL);
  BOOST_TEST(header.find(",secured,") != std::string::npos);
  BOOST_TEST(header.find(",salerec,") != std::string::npos);
  BOOST_TEST(header.find("ipo") == std::string::npos);
  BOOST_TEST(header.find("salerev") == std::string::npos);
}

template <class F>
void expect_config_error(F&& f, std::initializer_list<std::string> needles) {
  try {
    f();
    BOOST_ERROR("no exception thrown");
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    BOOST_TEST_INFO("message: " << what);
    for (const auto& needle : needles) BOOST_TEST(what.find(needle) != std::string::npos, "missing: " << needle);
    BOOST_TEST(what.size() < 300u, "a short message: " << what);  // no 309-digit bound
  }
}

// Every bad size or non-finite value is refused up front, naming the option, and nothing is written.
BOOST_AUTO_TEST_CASE(bad_options_are_refused_before_anything_is_written) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  expect_config_error([&] { validate_gkx_like(3, 100, 201001, nan); }, {"--signal-scale", "finite", "nan"});
  expect_config_error([&] { validate_gkx_like(3, 100, 201001, inf); }, {"--signal-scale", "finite"});
  expect_config_error([&] { validate_gkx_like(3, 100, 201001, -inf); }, {"--signal-scale", "finite"});
  // A finite scale whose signal (and so returns.csv) would not be finite, or whose squares would overflow.
  expect_config_error([&] { validate_gkx_like(3, 100, 201001, 1e308); }, {"--signal-scale 1e+308 is too large"});
  expect_config_error([&] { validate_gkx_like(3, 100, 201001, -1e150); }, {"--signal-scale -1e+150 is too large"});
  BOOST_CHECK_NO_THROW(validate_gkx_like(3, 100, 201001, 1e6));
  expect_config_error([&] { validate_gkx_like(0, 100, 201001, 0.0); }, {"--months must be at least 1"});
  expect_config_error([&] { validate_gkx_like(3, 9, 201001, 0.0); }, {"--stocks must be at least 10"});
  expect_config_error([&] { validate_gkx_like(100000, 100, 201001, 0.0); }, {"--months must be at most 95880"});
  expect_config_error([&] { validate_gkx_like(3, 100, 201013, 0.0); }, {"--from", "201013"});
  // Memory: named option, the need and the limit; 1 MiB is too little for 10 000 stocks, plenty for 100.
  expect_config_error([&] { validate_gkx_like(3, 10000, 201001, 0.0, std::uint64_t{1} << 20); },
                      {"--stocks 10000", "would need about", "MiB", "limit of 1.0 MiB"});
  validate_gkx_like(3, 100, 201001, 0.0, std::uint64_t{1} << 20);
  expect_config_error([&] { validate_gkx_like(3, 99999999999, 201001, 0.0); }, {"--stocks 99999999999", "would need"});
  BOOST_TEST(gkx_like_memory_bytes(5000) > 5000.0 * 94 * 4);    // at least one month of raw values
  BOOST_TEST(gkx_like_memory_bytes(5000) < 5000.0 * 8 * 1024);  // and not absurdly more
  // The simulator and the writer check too, and the writer creates nothing on a refusal.
  TempDir dir("bad");
  fs::remove_all(dir.path);
  expect_config_error([&] { simulate_gkx_like({1, 2, 100, 201001, nan}, dir.path / "out"); }, {"--signal-scale"});
  expect_config_error([&] { GkxLikeSimulator({1, 0, 100, 201001, 0.0}); }, {"--months"});
  BOOST_TEST(!fs::exists(dir.path / "out"));
}

BOOST_AUTO_TEST_SUITE_END()

// The CSV / JSON writer of `simulate gkx-like`: streams month by month, row by row (memory O(one month)).
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "gkx/characteristics.hpp"
#include "gkx/detail/simulate_gkx_table.hpp"
#include "gkx/simulate_gkx.hpp"

namespace bfs::gkx {

namespace {

namespace fs = std::filesystem;

/// A FILE* with a 1 MiB text buffer; throws InputError naming the file on any failure.
class CsvOut {
 public:
  explicit CsvOut(fs::path path)
      : path_(std::move(path)), staged_(path_.string() + ".tmp"), file_(std::fopen(staged_.c_str(), "wb")) {
    if (file_ == nullptr) throw InputError("simulate gkx-like: cannot create '" + staged_.string() + "'");
    buffer_.reserve(kFlushAt + 4096);
  }
  /// An uncommitted file (a failed run) is removed: the previous files under the final names stay as they were.
  ~CsvOut() {
    if (file_ != nullptr) std::fclose(file_);
    if (!committed_) {
      std::error_code ignored;
      fs::remove(staged_, ignored);
    }
  }
  CsvOut(const CsvOut&) = delete;
  CsvOut& operator=(const CsvOut&) = delete;

  void text(std::string_view s) { buffer_.append(s); }
  void ch(char c) { buffer_.push_back(c); }
  void integer(std::int64_t v) {
    char tmp[24];
    buffer_.append(tmp, static_cast<std::size_t>(std::to_chars(tmp, tmp + sizeof tmp, v).ptr - tmp));
  }
  /// A number with `digits` significant digits; NaN = an empty field (GKX's missing value).
  void number(double v, int digits = 6) {
    if (std::isnan(v)) return;
    char tmp[40];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::general, digits);
    buffer_.append(tmp, static_cast<std::size_t>(r.ptr - tmp));
  }
  void end_row() {
    buffer_.push_back('\n');
    if (buffer_.size() >= kFlushAt) flush();
  }
  std::int64_t close() {
    flush();
    const bool bad = std::fclose(file_) != 0;
    file_ = nullptr;
    if (bad) throw InputError("simulate gkx-like: cannot write '" + staged_.string() + "'");
    return written_;
  }
  /// Renames the closed file to its final name. Called for every file only once all of them are written, so a
  /// failed run never leaves a new file beside an old one.
  void commit() {
    std::error_code ec;
    fs::rename(staged_, path_, ec);
    if (ec)
      throw InputError("simulate gkx-like: cannot rename '" + staged_.string() + "' to '" + path_.string() +
                       "': " + ec.message());
    committed_ = true;
  }

 private:
  static constexpr std::size_t kFlushAt = std::size_t{1} << 20;
  void flush() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
      throw InputError("simulate gkx-like: cannot write '" + staged_.string() + "' (disk full?)");
    written_ += static_cast<std::int64_t>(buffer_.size());
    buffer_.clear();
  }
  fs::path path_;
  fs::path staged_;  // path_ + ".tmp" until commit()
  std::FILE* file_;
  bool committed_ = false;
  std::string buffer_;
  std::int64_t written_ = 0;
};

void write_truth(CsvOut& out, const GkxLikeSpec& spec, double scale, const GkxLikeReport& report) {
  nlohmann::ordered_json j;
  j["generator"] = "banditfs simulate gkx-like";
  j["seed"] = spec.seed;
  j["months"] = spec.months;
  j["stocks"] = spec.stocks;
  j["first_month"] = spec.first_month;
  j["signal_scale"] = scale;
  j["strong"] = planted_features(true);
  j["planted"] = planted_features(false);
  j["response"] =
      "y = ret - rf of the DATE month (characteristics are already lagged, as in the published GKX file) = m_t + "
      "signal_scale * f(q) + sigma_i * eps; m_t a market return common to the month; eps Student-t(5) scaled to unit "
      "variance; sigma_i = 0.14 * exp(0.25 F_vol - 0.0625) with F_vol the latent volatility factor behind "
      "retvol/idiovol/baspread/maxret; total returns floored at -0.99";
  j["quantile"] =
      "q_j = 2 Phi(z_j) - 1, the population quantile of characteristic j in its month (z_j its latent standard "
      "normal); the per-month rank transform to [-1,1] recovers it up to O(1/sqrt(N)); the signal uses q before "
      "values are blanked as missing (prepare-gkx maps a missing value to 0)";
  j["f"] = "sum of the terms below";
  j["terms"] = nlohmann::ordered_json::array();
  for (const PlantedTerm& t : planted_terms())
    j["terms"].push_back({{"form", t.form},
                          {"features", t.features},
                          {"coefficient", t.coefficient},
                          {"threshold", t.threshold},
                          {"strong", t.strong},
                          {"formula", t.formula}});
  j["signal_share"] = report.signal_share;
  j["rows"] = report.rows;
  j["files"] = {{"characteristics", "characteristics.csv"}, {"returns", "returns.csv"}, {"riskfree", "riskfree.csv"}};
  out.text(j.dump(2) + "\n");
  out.close();
}

}  // namespace

GkxLikeReport simulate_gkx_like(const GkxLikeSpec& spec, const fs::path& dir) {
  const auto start = std::chrono::steady_clock::now();
  GkxLikeSimulator sim(spec);  // checks the spec before anything is written
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("simulate gkx-like: cannot create directory '" + dir.string() + "': " + ec.message());

  using detail::kSimTable;
  std::array<std::size_t, kSimTable.size()> column{};  // table order → kCharacteristics index
  for (std::size_t r = 0; r < kSimTable.size(); ++r) column[r] = characteristic_index(kSimTable[r].name);
  const std::size_t mvel1 = characteristic_index("mvel1");

  CsvOut chars(dir / "characteristics.csv"), rets(dir / "returns.csv"), rf(dir / "riskfree.csv");
  // GKX-like column order (market data first, as in datashare.csv) — readers must go by name.
  chars.text("permno,DATE");
  for (const auto& c : kSimTable) {
    chars.ch(',');
    chars.text(c.name);
  }
  chars.text(",sic2,RET,prc,SHROUT");
  chars.end_row();
  rets.text("permno,yyyymm,ret");
  rets.end_row();
  rf.text("yyyymm,rf");
  rf.end_row();

  GkxLikeReport report;
  report.min_stocks = std::numeric_limits<std::int64_t>::max();
  double sum_signal2 = 0, sum_resid2 = 0;  // pooled, per-month centred variances
  GkxMonth m;
  const std::size_t p = kCharacteristics.size();
  while (sim.next(m)) {
    const auto n = static_cast<std::int64_t>(m.stocks());
    report.min_stocks = std::min(report.min_stocks, n);
    report.max_stocks = std::max(report.max_stocks, n);
    rf.integer(m.yyyymm);
    rf.ch(',');
    rf.number(m.rf, 4);
    rf.end_row();
    double mean_y = 0, mean_s = 0;
    std::int64_t count = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (std::isnan(m.excess_return[i])) continue;
      mean_y += m.excess_return[i];
      mean_s += m.signal[i];
      ++count;
    }
    mean_y /= std::max<std::int64_t>(count, 1);
    mean_s /= std::max<std::int64_t>(count, 1);
    for (std::int64_t i = 0; i < n; ++i) {
      const float* row = m.raw.data() + static_cast<std::size_t>(i) * p;
      const double y = m.excess_return[i];
      const double ret = std::isnan(y) ? y : y + m.rf;
      chars.integer(m.permno[i]);
      chars.ch(',');
      chars.integer(m.date);
      for (std::size_t r = 0; r < kSimTable.size(); ++r) {
        chars.ch(',');
        chars.number(row[column[r]]);
      }
      chars.ch(',');
      if (m.sic2[i] >= 0) chars.integer(m.sic2[i]);
      chars.ch(',');
      chars.number(ret);
      const double size = row[mvel1];
      const double prc = std::isnan(size) ? size : std::exp(3.0 + 0.3 * (std::log(size) - 12.5));
      chars.ch(',');
      chars.number(prc, 5);
      chars.ch(',');
      chars.number(std::isnan(size) ? size : std::round(size / prc), 8);
      chars.end_row();
      ++report.rows;
      if (m.return_listed[i]) {
        rets.integer(m.permno[i]);
        rets.ch(',');
        rets.integer(m.yyyymm);
        rets.ch(',');
        rets.number(ret);
        rets.end_row();
        ++report.returns;
      }
      if (!std::isnan(y)) {
        const double ds = m.signal[i] - mean_s;
        sum_signal2 += ds * ds;
        sum_resid2 += (y - mean_y) * (y - mean_y);
      }
    }
  }
  report.bytes = chars.close() + rets.close() + rf.close();
  report.signal_share = sum_resid2 > 0 ? sum_signal2 / sum_resid2 : 0.0;
  CsvOut truth(dir / "truth.json");
  write_truth(truth, spec, signal_scale_of(spec), report);
  for (CsvOut* file : {&chars, &rets, &rf, &truth}) file->commit();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace bfs::gkx

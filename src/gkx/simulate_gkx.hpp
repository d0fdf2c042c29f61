#pragma once
// `banditfs simulate gkx-like`: a full-scale stand-in for the Gu–Kelly–Xiu (2020) panel with a known,
// planted signal, written as GKX-style CSVs so that `prepare-gkx` is exercised end to end.
//
// Each month t a universe of ~`stocks` firms (entry and exit, so the count varies) carries the 94 characteristics
// of `kCharacteristics` in raw units, drawn from a latent Gaussian factor model (detail/simulate_gkx_table.hpp):
// skewed ratios, binary and integer columns with heavy ties, industry-level columns, highly correlated pairs
// (baspread/retvol, idiovol/retvol, maxret/retvol, dolvol/mvel1, beta/betasq, ...) and coverage-driven missing
// values; plus a two-digit SIC code. The excess return of month t (paired with the characteristics dated t, as in
// the published, already-lagged GKX file) is
//     y = m_t + s · f(q) + σ_i · ε,   ε ~ Student-t(5) scaled to unit variance,
// where q_j = 2Φ(z_j) − 1 ∈ (−1, 1) is the population quantile of characteristic j within its month — what the
// per-month rank transform of prepare-gkx recovers up to O(1/√N) — and f is the planted signal of planted_terms():
// a handful of characteristics, one interaction and one threshold effect. m_t is a market return common to the
// month (no cross-sectional information). Everything is drawn from bfs::Rng streams of the seed.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bfs::gkx {

/// What `simulate gkx-like` generates.
struct GkxLikeSpec {
  std::uint64_t seed = 1;
  int months = 120;
  int stocks = 5000;                  ///< average cross-section size (the count varies ±~6% over time)
  std::int32_t first_month = 201001;  ///< yyyymm of the first DATE
  double signal_scale = 0.0;          ///< s; 0 = the calibrated default kDefaultSignalScale
};

/// The calibrated signal scale s (monthly return units per unit of f); see docs/empirical-study.md.
inline constexpr double kDefaultSignalScale = 0.025;
/// The largest planted signal (a monthly excess return) a --signal-scale may produce: far past any return, and far
/// enough below the largest double that a panel's returns, their squares and the sums of those stay finite.
inline constexpr double kMaxPlantedSignal = 1e100;
/// The scale a spec asks for: spec.signal_scale, or kDefaultSignalScale when it is 0.
inline double signal_scale_of(const GkxLikeSpec& spec) {
  return spec.signal_scale == 0.0 ? kDefaultSignalScale : spec.signal_scale;
}

/// The checks of what `simulate gkx-like` is asked for, before anything is allocated or written (ConfigError naming
/// the option): --months at least 1 and ending by 9999-12, --stocks at least 10 and its memory (gkx_like_memory_bytes)
/// within `memory_limit` bytes (0 = this machine's physical memory), --from a yyyymm month, --signal-scale finite and
/// its planted signal at most kMaxPlantedSignal.
void validate_gkx_like(std::int64_t months, std::int64_t stocks, std::int32_t first_month, double signal_scale,
                       std::uint64_t memory_limit = 0);
/// About the peak memory of the generator for `stocks` stocks a month (the universe's latent state and one month).
double gkx_like_memory_bytes(std::int64_t stocks);
/// This machine's physical memory in bytes (0 when unknown).
std::uint64_t physical_memory_bytes();

/// One additive term of the planted signal f, in quantile units q ∈ (−1, 1).
struct PlantedTerm {
  std::string form;                   ///< "linear" | "threshold" | "interaction"
  std::vector<std::string> features;  ///< characteristic names (two for an interaction)
  double coefficient = 0.0;           ///< multiplies the term (before the scale s)
  double threshold = 0.0;             ///< threshold terms: q > threshold
  bool strong = true;                 ///< a strong predictor (expected above 0.5 inclusion) or a weak one
  std::string formula;                ///< human-readable
};

/// The planted terms, in order: f(q) = Σ coefficient · term(q).
const std::vector<PlantedTerm>& planted_terms();
/// Distinct characteristic names in the planted terms (strong first), optionally only the strong ones.
std::vector<std::string> planted_features(bool strong_only);
/// f(q) for one stock given its 94 quantiles in kCharacteristics order (NaN never occurs: the truth uses q before
/// values are blanked as missing).
double planted_signal(std::span<const double> q);

/// One month of the simulation (what the CSV writer streams out).
struct GkxMonth {
  std::int32_t yyyymm = 0;
  std::int32_t date = 0;                    ///< yyyymmdd, the month's last weekday
  double rf = 0.0;                          ///< risk-free rate of the month (decimal)
  std::vector<std::int64_t> permno;         ///< sorted ascending
  std::vector<std::int32_t> sic2;           ///< −1 = missing
  std::vector<float> raw;                   ///< [stocks × 94] in kCharacteristics order; NaN = missing
  std::vector<double> signal;               ///< s · f(q) per stock
  std::vector<double> excess_return;        ///< y per stock; NaN = no return (row absent or field empty)
  std::vector<std::uint8_t> return_listed;  ///< 0 = no row in returns.csv for this stock-month
  std::size_t stocks() const { return permno.size(); }
};

/// The month-by-month generator; memory is O(stocks · 94).
class GkxLikeSimulator {
 public:
  explicit GkxLikeSimulator(const GkxLikeSpec& spec);
  ~GkxLikeSimulator();
  GkxLikeSimulator(const GkxLikeSimulator&) = delete;
  GkxLikeSimulator& operator=(const GkxLikeSimulator&) = delete;
  /// Fills the next month; false after spec.months months.
  bool next(GkxMonth& month);

 private:
  struct State;
  State* state_;
};

/// What simulate_gkx_like wrote.
struct GkxLikeReport {
  std::int64_t rows = 0;
  std::int64_t returns = 0;
  std::int64_t min_stocks = 0, max_stocks = 0;
  std::int64_t bytes = 0;
  double seconds = 0.0;
  double signal_share = 0.0;  ///< Var(s·f) / Var(y − m_t), pooled over the months (the population R²)
};

/// Writes DIR/characteristics.csv (permno, DATE, the 94 characteristics in raw units, sic2, and extra columns
/// RET, prc, SHROUT that readers must ignore or may use), DIR/returns.csv (permno,yyyymm,ret), DIR/riskfree.csv
/// (yyyymm,rf) and DIR/truth.json (the planted terms, the seed, the spec). Streams row by row.
GkxLikeReport simulate_gkx_like(const GkxLikeSpec& spec, const std::filesystem::path& dir);

/// Last weekday (Mon–Fri) of a month, as yyyymmdd.
std::int32_t last_weekday(std::int32_t yyyymm);

}  // namespace bfs::gkx

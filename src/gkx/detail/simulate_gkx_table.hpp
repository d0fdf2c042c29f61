#pragma once
// The 94 characteristics of `simulate gkx-like`: how each one's raw value is made from a latent standard normal z.
// Not calibrated to CRSP/Compustat moments beyond orders of magnitude; the point is the *shape* of the real data:
// skewed positive ratios, heavy-tailed growth rates, binary and integer columns with heavy ties, zero-inflated
// columns, industry-level columns (constant within sic2 and month), a handful of highly correlated pairs through
// shared latent factors, and coverage-driven missing values.
//
// z_j = a·F_{f1} + b·F_{f2} + sqrt(1 − a² − b²)·e_j, with stock-level factors F (AR(1) over months) and an
// idiosyncratic AR(1) term e_j, so every z_j is N(0, 1) marginally within a month.
#include <array>
#include <string_view>

namespace bfs::gkx::detail {

/// Latent factors shared by characteristics (stock level, persistent over months).
enum class Factor : unsigned char {
  None,
  Size,
  Vol,
  Mom,
  Value,
  Prof,
  Invest,
  Liq,
  Accr,
  Lever,
  BsLiq,
  ChBs,
  Rd,
  Count
};
inline constexpr int kFactorCount = static_cast<int>(Factor::Count);

/// How the raw value is made from z (p1, p2, p3 are the kind's parameters).
enum class Kind : unsigned char {
  Normal,        ///< p1 + p2·z
  LogNormal,     ///< exp(p1 + p2·z)  (positive, right-skewed)
  Sinh,          ///< p1 + p2·sinh(p3·z)/p3  (heavy tails on both sides)
  Bounded,       ///< p1 + (p2 − p1)·Φ(z)^p3  (inside [p1, p2])
  Binary,        ///< 1 when Φ(z) > 1 − p1 else 0  (share p1 of ones)
  Integer,       ///< clamp(round(p1 + p2·z), 0, p3)
  CountLog,      ///< clamp(round(exp(p1 + p2·z)), 1, p3)  (e.g. age in years)
  ZeroInflated,  ///< 0 when Φ(z) < p1, else exp(p2 + p3·(z − Φ⁻¹(p1)))·… (a continuous positive tail)
  SquareOfBeta,  ///< beta², from the same z as beta (betasq)
};

/// Which data set a characteristic comes from; decides the shared missing-value pattern.
enum class Coverage : unsigned char {
  Market,     ///< CRSP: only cell-level missing
  Annual,     ///< Compustat annual: missing for every stock without annual coverage
  Quarterly,  ///< Compustat quarterly: missing for every stock without quarterly coverage
  Industry,   ///< one value per sic2 industry and month (all stocks of the industry share it)
};

struct CharSpec {
  std::string_view name;
  Kind kind;
  Coverage coverage;
  Factor f1;
  float a;
  Factor f2;
  float b;
  float persistence;  ///< monthly AR(1) coefficient of the idiosyncratic latent term
  float missing;      ///< extra cell-level missing share (on top of the coverage pattern)
  float p1, p2, p3;
};

using F = Factor;
using K = Kind;
using C = Coverage;

// clang-format off
inline constexpr std::array<CharSpec, 94> kSimTable = {{
    // ---- market-based (CRSP), monthly or daily data
    {"mvel1",      K::LogNormal, C::Market, F::Size,   0.95f, F::None,  0.0f,  0.99f, 0.005f, 12.5f, 2.0f, 0},
    {"dolvol",     K::Normal,    C::Market, F::Size,   0.85f, F::Liq,   0.35f, 0.95f, 0.01f,  11.0f, 2.8f, 0},
    {"turn",       K::LogNormal, C::Market, F::Liq,    0.85f, F::Vol,   0.20f, 0.90f, 0.01f,  -0.3f, 0.8f, 0},
    {"std_turn",   K::LogNormal, C::Market, F::Liq,    0.80f, F::Vol,   0.25f, 0.70f, 0.01f,   0.7f, 1.0f, 0},
    {"std_dolvol", K::Normal,    C::Market, F::Size,  -0.45f, F::Vol,   0.30f, 0.70f, 0.01f,   0.9f, 0.3f, 0},
    {"ill",        K::LogNormal, C::Market, F::Size,  -0.80f, F::Liq,  -0.30f, 0.90f, 0.02f, -15.0f, 2.5f, 0},
    {"zerotrade",  K::ZeroInflated, C::Market, F::Liq, -0.70f, F::Size, -0.30f, 0.90f, 0.01f, 0.45f, -1.0f, 1.3f},
    {"baspread",   K::LogNormal, C::Market, F::Vol,    0.80f, F::Size, -0.20f, 0.80f, 0.01f,  -4.2f, 0.8f, 0},
    {"retvol",     K::LogNormal, C::Market, F::Vol,    0.95f, F::None,  0.0f,  0.80f, 0.01f,  -3.7f, 0.5f, 0},
    {"idiovol",    K::LogNormal, C::Market, F::Vol,    0.85f, F::None,  0.0f,  0.90f, 0.05f,  -3.0f, 0.5f, 0},
    {"maxret",     K::LogNormal, C::Market, F::Vol,    0.85f, F::None,  0.0f,  0.30f, 0.01f,  -2.8f, 0.6f, 0},
    {"beta",       K::Normal,    C::Market, F::Vol,    0.30f, F::Size,  0.20f, 0.95f, 0.05f,   1.0f, 0.55f, 0},
    {"betasq",     K::SquareOfBeta, C::Market, F::None, 0.0f, F::None,  0.0f,  0.95f, 0.05f,   0, 0, 0},
    {"pricedelay", K::Sinh,      C::Market, F::Size,  -0.20f, F::None,  0.0f,  0.60f, 0.05f,   0.1f, 0.3f, 0.8f},
    {"mom1m",      K::Sinh,      C::Market, F::Mom,    0.15f, F::None,  0.0f,  0.00f, 0.01f,  0.01f, 0.12f, 0.5f},
    {"mom6m",      K::Sinh,      C::Market, F::Mom,    0.85f, F::None,  0.0f,  0.80f, 0.03f,  0.05f, 0.30f, 0.5f},
    {"mom12m",     K::Sinh,      C::Market, F::Mom,    0.85f, F::None,  0.0f,  0.90f, 0.05f,  0.10f, 0.45f, 0.5f},
    {"mom36m",     K::Sinh,      C::Market, F::Mom,    0.40f, F::None,  0.0f,  0.97f, 0.12f,  0.30f, 0.70f, 0.5f},
    {"chmom",      K::Normal,    C::Market, F::Mom,    0.30f, F::None,  0.0f,  0.50f, 0.05f,  0.0f, 0.40f, 0},
    {"dy",         K::ZeroInflated, C::Market, F::Value, 0.40f, F::Vol, -0.30f, 0.97f, 0.02f, 0.55f, -4.0f, 0.6f},
    {"indmom",     K::Sinh,      C::Industry, F::None, 0.0f,  F::None,  0.0f,  0.90f, 0.0f,   0.10f, 0.25f, 0.4f},
    {"herf",       K::Bounded,   C::Industry, F::None, 0.0f,  F::None,  0.0f,  0.99f, 0.02f,  0.02f, 0.60f, 2.0f},
    // ---- binary and integer-valued (heavy ties)
    {"convind",    K::Binary,    C::Annual, F::Lever,  0.30f, F::None,  0.0f,  0.99f, 0.0f,   0.15f, 0, 0},
    {"divi",       K::Binary,    C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.30f, 0.0f,   0.03f, 0, 0},
    {"divo",       K::Binary,    C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.30f, 0.0f,   0.03f, 0, 0},
    // secured (secured debt / total debt) is drawn as a 0/1 share with 4% ones: it keeps the draw of the
    // `ipo` row it replaced, so that the simulated data (and the study on them) do not depend on the name.
    {"secured",    K::Binary,    C::Market, F::Size,  -0.20f, F::None,  0.0f,  0.95f, 0.0f,   0.04f, 0, 0},
    {"rd",         K::Binary,    C::Annual, F::Rd,     0.30f, F::None,  0.0f,  0.50f, 0.0f,   0.12f, 0, 0},
    {"securedind", K::Binary,    C::Annual, F::Lever,  0.40f, F::None,  0.0f,  0.99f, 0.0f,   0.45f, 0, 0},
    {"sin",        K::Binary,    C::Annual, F::None,   0.0f,  F::None,  0.0f,  1.00f, 0.0f,   0.01f, 0, 0},
    {"ps",         K::Integer,   C::Annual, F::Prof,   0.50f, F::None,  0.0f,  0.95f, 0.05f,  4.5f, 1.7f, 9},
    {"ms",         K::Integer,   C::Quarterly, F::Prof, 0.50f, F::None, 0.0f,  0.95f, 0.05f,  3.5f, 1.8f, 8},
    {"nincr",      K::Integer,   C::Quarterly, F::Prof, 0.30f, F::None, 0.0f,  0.80f, 0.02f,  0.3f, 1.8f, 8},
    {"age",        K::CountLog,  C::Annual, F::Size,   0.40f, F::None,  0.0f,  1.00f, 0.0f,   2.6f, 0.7f, 66},
    // ---- valuation
    {"bm",         K::LogNormal, C::Annual, F::Value,  0.85f, F::None,  0.0f,  0.97f, 0.03f,  -0.5f, 0.8f, 0},
    {"sp",         K::LogNormal, C::Annual, F::Value,  0.70f, F::Size, -0.20f, 0.97f, 0.02f,  -0.2f, 1.2f, 0},
    {"ep",         K::Sinh,      C::Annual, F::Value,  0.60f, F::Prof,  0.50f, 0.97f, 0.02f,  0.03f, 0.10f, 1.0f},
    {"cfp",        K::Sinh,      C::Annual, F::Value,  0.60f, F::Prof,  0.45f, 0.97f, 0.05f,  0.06f, 0.12f, 1.0f},
    {"bm_ia",      K::Sinh,      C::Annual, F::Value,  0.70f, F::None,  0.0f,  0.97f, 0.03f,  0.0f, 0.50f, 0.7f},
    {"cfp_ia",     K::Sinh,      C::Annual, F::Value,  0.45f, F::Prof,  0.30f, 0.97f, 0.05f,  0.0f, 0.30f, 1.0f},
    {"mve_ia",     K::Sinh,      C::Annual, F::Size,   0.70f, F::None,  0.0f,  0.99f, 0.01f,  0.0f, 1.5f, 0.8f},
    // ---- profitability and earnings
    {"roaq",       K::Sinh,      C::Quarterly, F::Prof, 0.90f, F::None, 0.0f,  0.95f, 0.03f,  0.005f, 0.04f, 1.2f},
    {"roeq",       K::Sinh,      C::Quarterly, F::Prof, 0.85f, F::None, 0.0f,  0.95f, 0.05f,  0.015f, 0.08f, 1.2f},
    {"roavol",     K::LogNormal, C::Quarterly, F::Vol,  0.50f, F::Prof, -0.30f, 0.97f, 0.05f, -4.0f, 0.9f, 0},
    {"roic",       K::Sinh,      C::Annual, F::Prof,   0.70f, F::None,  0.0f,  0.97f, 0.03f,  0.05f, 0.15f, 1.2f},
    {"operprof",   K::Sinh,      C::Annual, F::Prof,   0.60f, F::None,  0.0f,  0.97f, 0.05f,  0.20f, 0.30f, 1.0f},
    {"gma",        K::Normal,    C::Annual, F::Prof,   0.40f, F::None,  0.0f,  0.98f, 0.03f,  0.30f, 0.25f, 0},
    {"chtx",       K::Sinh,      C::Quarterly, F::Prof, 0.20f, F::None, 0.0f,  0.60f, 0.05f,  0.0f, 0.005f, 1.2f},
    {"cinvest",    K::Sinh,      C::Quarterly, F::Invest, 0.20f, F::None, 0.0f, 0.60f, 0.08f, 0.0f, 0.05f, 1.2f},
    {"rsup",       K::Sinh,      C::Quarterly, F::Prof, 0.20f, F::None, 0.0f,  0.60f, 0.03f,  0.01f, 0.05f, 1.0f},
    {"ear",        K::Sinh,      C::Quarterly, F::None, 0.0f, F::None,  0.0f,  0.30f, 0.05f,  0.0f, 0.06f, 0.7f},
    {"aeavol",     K::Sinh,      C::Quarterly, F::Liq,  0.20f, F::None, 0.0f,  0.30f, 0.05f,  1.0f, 1.2f, 0.6f},
    {"stdacc",     K::LogNormal, C::Quarterly, F::Vol,  0.40f, F::Accr, 0.20f, 0.97f, 0.15f, -3.0f, 0.8f, 0},
    {"stdcf",      K::LogNormal, C::Quarterly, F::Vol,  0.40f, F::None, 0.0f,  0.97f, 0.15f, -2.5f, 1.0f, 0},
    // ---- investment and growth
    {"agr",        K::Sinh,      C::Annual, F::Invest, 0.80f, F::None,  0.0f,  0.90f, 0.03f,  0.08f, 0.25f, 1.0f},
    {"invest",     K::Sinh,      C::Annual, F::Invest, 0.60f, F::None,  0.0f,  0.90f, 0.08f,  0.05f, 0.15f, 1.0f},
    {"egr",        K::Sinh,      C::Annual, F::Invest, 0.50f, F::None,  0.0f,  0.90f, 0.05f,  0.08f, 0.30f, 1.0f},
    {"lgr",        K::Sinh,      C::Annual, F::Invest, 0.60f, F::Lever, 0.20f, 0.90f, 0.05f,  0.10f, 0.40f, 1.0f},
    {"sgr",        K::Sinh,      C::Annual, F::Invest, 0.60f, F::None,  0.0f,  0.90f, 0.04f,  0.10f, 0.35f, 1.0f},
    {"grcapx",     K::Sinh,      C::Annual, F::Invest, 0.40f, F::None,  0.0f,  0.85f, 0.15f,  0.20f, 0.80f, 1.0f},
    {"grltnoa",    K::Sinh,      C::Annual, F::Invest, 0.40f, F::None,  0.0f,  0.85f, 0.10f,  0.05f, 0.20f, 1.0f},
    {"hire",       K::Sinh,      C::Annual, F::Invest, 0.50f, F::None,  0.0f,  0.90f, 0.08f,  0.03f, 0.15f, 1.0f},
    {"chcsho",     K::Sinh,      C::Annual, F::Invest, 0.30f, F::None,  0.0f,  0.90f, 0.03f,  0.02f, 0.10f, 1.2f},
    {"chinv",      K::Sinh,      C::Annual, F::Invest, 0.40f, F::Accr,  0.30f, 0.90f, 0.05f,  0.0f, 0.03f, 1.2f},
    {"pchcapx_ia", K::Sinh,      C::Annual, F::Invest, 0.30f, F::None,  0.0f,  0.85f, 0.15f,  0.0f, 1.0f, 1.0f},
    {"chempia",    K::Sinh,      C::Annual, F::Invest, 0.30f, F::None,  0.0f,  0.85f, 0.08f,  0.0f, 0.15f, 1.0f},
    {"chatoia",    K::Sinh,      C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.85f, 0.08f,  0.0f, 0.10f, 1.0f},
    {"chpmia",     K::Sinh,      C::Annual, F::Prof,   0.20f, F::None,  0.0f,  0.85f, 0.08f,  0.0f, 0.20f, 1.2f},
    // ---- accruals
    {"acc",        K::Sinh,      C::Annual, F::Accr,   0.80f, F::None,  0.0f,  0.90f, 0.05f, -0.02f, 0.06f, 1.0f},
    {"absacc",     K::LogNormal, C::Annual, F::Accr,   0.60f, F::None,  0.0f,  0.90f, 0.05f,  -2.8f, 0.9f, 0},
    {"pctacc",     K::Sinh,      C::Annual, F::Accr,   0.60f, F::None,  0.0f,  0.90f, 0.05f, -0.5f, 1.0f, 1.2f},
    // ---- changes in ratios (mostly idiosyncratic)
    {"pchcurrat",  K::Sinh,      C::Annual, F::ChBs,   0.92f, F::None,  0.0f,  0.50f, 0.06f,  0.0f, 0.25f, 1.0f},
    {"pchquick",   K::Sinh,      C::Annual, F::ChBs,   0.92f, F::None,  0.0f,  0.50f, 0.07f,  0.0f, 0.30f, 1.0f},
    {"pchdepr",    K::Sinh,      C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.50f, 0.08f,  0.0f, 0.30f, 1.0f},
    {"pchgm_pchsale", K::Sinh,   C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.50f, 0.08f,  0.0f, 0.20f, 1.2f},
    {"pchsale_pchinvt", K::Sinh, C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.50f, 0.25f,  0.0f, 0.30f, 1.0f},
    {"pchsale_pchrect", K::Sinh, C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.50f, 0.10f,  0.0f, 0.25f, 1.0f},
    {"pchsale_pchxsga", K::Sinh, C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.50f, 0.15f,  0.0f, 0.20f, 1.0f},
    {"pchsaleinv", K::Sinh,      C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.50f, 0.25f,  0.0f, 0.30f, 1.0f},
    // ---- balance sheet: liquidity, leverage, composition
    {"currat",     K::LogNormal, C::Annual, F::BsLiq,  0.95f, F::None,  0.0f,  0.95f, 0.08f,   0.7f, 0.7f, 0},
    {"quick",      K::LogNormal, C::Annual, F::BsLiq,  0.95f, F::None,  0.0f,  0.95f, 0.08f,   0.3f, 0.8f, 0},
    {"cash",       K::Bounded,   C::Quarterly, F::BsLiq, 0.60f, F::None, 0.0f, 0.95f, 0.02f,   0.0f, 0.95f, 2.5f},
    {"cashdebt",   K::Sinh,      C::Annual, F::Prof,   0.40f, F::BsLiq, 0.40f, 0.95f, 0.05f,  0.10f, 0.30f, 1.0f},
    {"salecash",   K::LogNormal, C::Annual, F::BsLiq, -0.60f, F::None,  0.0f,  0.95f, 0.03f,   2.5f, 1.3f, 0},
    {"cashpr",     K::Sinh,      C::Annual, F::Lever,  0.30f, F::Value, 0.20f, 0.95f, 0.05f,  0.0f, 2.0f, 1.0f},
    {"lev",        K::LogNormal, C::Annual, F::Lever,  0.85f, F::Value, 0.30f, 0.97f, 0.02f,  -0.8f, 1.2f, 0},
    {"tb",         K::Sinh,      C::Annual, F::Prof,   0.20f, F::None,  0.0f,  0.90f, 0.05f,  0.0f, 0.50f, 1.2f},
    {"depr",       K::LogNormal, C::Annual, F::Invest, -0.20f, F::None, 0.0f,  0.95f, 0.06f,  -1.8f, 0.7f, 0},
    {"tang",       K::Bounded,   C::Annual, F::Lever,  0.40f, F::None,  0.0f,  0.98f, 0.05f,   0.1f, 0.9f, 1.0f},
    {"realestate", K::Bounded,   C::Annual, F::Lever,  0.30f, F::None,  0.0f,  0.98f, 0.55f,   0.0f, 0.8f, 1.5f},
    {"orgcap",     K::Sinh,      C::Annual, F::Prof,  -0.20f, F::None,  0.0f,  0.97f, 0.35f,   0.5f, 0.4f, 1.0f},
    {"rd_mve",     K::LogNormal, C::Annual, F::Rd,     0.85f, F::Size, -0.30f, 0.95f, 0.50f,  -3.0f, 1.1f, 0},
    {"rd_sale",    K::LogNormal, C::Annual, F::Rd,     0.85f, F::None,  0.0f,  0.95f, 0.50f,  -2.5f, 1.5f, 0},
    {"saleinv",    K::LogNormal, C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.95f, 0.30f,   2.0f, 1.2f, 0},
    // salerec (sales / receivables) keeps the draw of the salerev row it replaced.
    {"salerec",    K::LogNormal, C::Annual, F::None,   0.0f,  F::None,  0.0f,  0.95f, 0.25f,   2.5f, 1.0f, 0},
}};
// clang-format on

}  // namespace bfs::gkx::detail

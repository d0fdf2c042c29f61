#pragma once
// The 94 firm characteristics of Gu, Kelly & Xiu (2020), "Empirical Asset Pricing via Machine Learning", RFS 33(5),
// Table A.6 — the columns of their public `datashare.csv` (and of the newer GKX_20201231.csv), by the names used
// there (beside them: permno, DATE and sic2). prepare-gkx reads them by name (other vintages: missing standard names
// and other numeric columns are reported, see prepare.hpp); simulate gkx-like writes them; a panel's characteristic
// columns are in this order.
//
// Order: alphabetical, except `secured`, which sits at position 42. `secured` and `salerec` stand where two names
// the datashare file does not have stood (`ipo` at 42 and `salerev` at 81); each took the other's position, so the
// panels of earlier versions keep their column positions (and `simulate gkx-like` its values: see
// detail/simulate_gkx_table.hpp).
#include <array>
#include <cstddef>
#include <string_view>

namespace bfs::gkx {

inline constexpr std::array<std::string_view, 94> kCharacteristics = {"absacc",
                                                                      "acc",
                                                                      "aeavol",
                                                                      "age",
                                                                      "agr",
                                                                      "baspread",
                                                                      "beta",
                                                                      "betasq",
                                                                      "bm",
                                                                      "bm_ia",
                                                                      "cash",
                                                                      "cashdebt",
                                                                      "cashpr",
                                                                      "cfp",
                                                                      "cfp_ia",
                                                                      "chatoia",
                                                                      "chcsho",
                                                                      "chempia",
                                                                      "chinv",
                                                                      "chmom",
                                                                      "chpmia",
                                                                      "chtx",
                                                                      "cinvest",
                                                                      "convind",
                                                                      "currat",
                                                                      "depr",
                                                                      "divi",
                                                                      "divo",
                                                                      "dolvol",
                                                                      "dy",
                                                                      "ear",
                                                                      "egr",
                                                                      "ep",
                                                                      "gma",
                                                                      "grcapx",
                                                                      "grltnoa",
                                                                      "herf",
                                                                      "hire",
                                                                      "idiovol",
                                                                      "ill",
                                                                      "indmom",
                                                                      "invest",
                                                                      "secured",
                                                                      "lev",
                                                                      "lgr",
                                                                      "maxret",
                                                                      "mom12m",
                                                                      "mom1m",
                                                                      "mom36m",
                                                                      "mom6m",
                                                                      "ms",
                                                                      "mve_ia",
                                                                      "mvel1",
                                                                      "nincr",
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
                                                                      "pricedelay",
                                                                      "ps",
                                                                      "quick",
                                                                      "rd",
                                                                      "rd_mve",
                                                                      "rd_sale",
                                                                      "realestate",
                                                                      "retvol",
                                                                      "roaq",
                                                                      "roavol",
                                                                      "roeq",
                                                                      "roic",
                                                                      "rsup",
                                                                      "salecash",
                                                                      "saleinv",
                                                                      "salerec",
                                                                      "securedind",
                                                                      "sgr",
                                                                      "sin",
                                                                      "sp",
                                                                      "std_dolvol",
                                                                      "std_turn",
                                                                      "stdacc",
                                                                      "stdcf",
                                                                      "tang",
                                                                      "tb",
                                                                      "turn",
                                                                      "zerotrade"};

/// Position of `name` in kCharacteristics; InternalError when it is not a GKX characteristic (a programming error:
/// input files are matched by their headers, not through this).
std::size_t characteristic_index(std::string_view name);

}  // namespace bfs::gkx

// The prepare-gkx summary printed after a run: the rows kept and dropped, the panel's features, and the share of
// missing characteristic values per characteristic and per month.
#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "gkx/characteristics.hpp"
#include "gkx/detail/columns.hpp"
#include "gkx/gkx_csv.hpp"
#include "gkx/prepare.hpp"

namespace bfs::gkx {

using columns::join;

namespace {

constexpr std::size_t kStandard = kCharacteristics.size();

}  // namespace

void print_report(const PrepareOptions& opt, const PrepareReport& r, std::ostream& out) {
  const auto pct = [](double share) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << 100.0 * share << "%";
    return s.str();
  };
  const std::size_t n_chars = r.characteristics;
  out << "prepare-gkx: " << opt.characteristics << " -> " << opt.out << " (" << std::fixed << std::setprecision(1)
      << r.seconds << " s)\n";
  out << "  months        " << month_text(opt.from) << " .. " << month_text(opt.to) << ", align "
      << to_string(opt.align) << ": y = ret - rf of the month "
      << (opt.align == Alignment::SameMonth ? "of DATE" : "after DATE") << "\n";
  out << "  rows          " << r.lines_read << " read, " << r.rows_outside_range << " outside the range, "
      << r.rows_in_range << " in range, " << r.dropped_no_return << " dropped (no return), ";
  if (r.dropped_bad_return > 0) out << r.dropped_bad_return << " dropped (return below -1), ";
  out << r.rows_written << " written\n";
  out << "  returns       " << r.returns_crsp_codes << " CRSP missing codes (-66/-77/-88/-99, letters) and "
      << r.returns_below_minus_one << " values below -1 treated as missing\n";
  std::vector<std::int64_t> stocks;
  for (const auto& m : r.months) stocks.push_back(m.stocks);
  std::sort(stocks.begin(), stocks.end());
  out << "  periods       " << r.months.size() << " months with rows; stocks per month min " << stocks.front()
      << ", median " << stocks[stocks.size() / 2] << ", max " << stocks.back() << "\n";
  const std::size_t n_macro = r.feature_names.size() - n_chars - r.sic2_codes.size();
  out << "  features      " << r.feature_names.size() << " = " << n_chars << " characteristics + " << n_macro
      << " macro + " << r.sic2_codes.size() << " sic2 dummies (" << r.sic2_missing << " rows without sic2)\n";
  if (!r.missing_standard.empty() || !r.extra_columns.empty()) {
    out << "  vintage       " << r.missing_standard.size() << " of the " << kStandard << " standard characteristics "
        << "missing (" << (r.missing_standard.empty() ? "none" : join(r.missing_standard)) << "); "
        << r.extra_columns.size() << " other numeric columns used ("
        << (r.extra_columns.empty() ? "none" : join(r.extra_columns)) << ")\n";
  }
  if (!r.ignored_columns.empty()) out << "  not used      " << join(r.ignored_columns) << "\n";
  double total = 0.0;
  for (double s : r.missing_share) total += s;
  out << "  missing       " << pct(total / static_cast<double>(n_chars))
      << " of all characteristic values (set to 0); per characteristic, highest first:\n";
  std::vector<std::size_t> order(n_chars);
  for (std::size_t k = 0; k < n_chars; ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return r.missing_share[a] > r.missing_share[b]; });
  for (std::size_t i = 0; i < n_chars; ++i) {
    out << (i % 5 == 0 ? "    " : "  ") << std::left << std::setw(16) << r.feature_names[order[i]] << std::right
        << std::setw(6) << pct(r.missing_share[order[i]]) << (i % 5 == 4 || i + 1 == n_chars ? "\n" : "");
  }
  out << "  per month     month stocks missing\n";
  for (std::size_t i = 0; i < r.months.size(); ++i) {
    const auto& m = r.months[i];
    out << (i % 4 == 0 ? "    " : "   ") << month_text(m.yyyymm) << std::setw(7) << m.stocks << std::setw(7)
        << pct(m.missing_share) << (i % 4 == 3 || i + 1 == r.months.size() ? "\n" : "");
  }
  if (r.spilled_bytes > 0) {
    out << "  memory        " << r.spilled_bytes / (1 << 20) << " MiB of rows spilled to temp files (budget "
        << opt.memory_budget_bytes / (1 << 20) << " MiB)\n";
  }
}

}  // namespace bfs::gkx

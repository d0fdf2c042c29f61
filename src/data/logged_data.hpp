#pragma once
// Contextual-bandit logs ([CMAB §2]): per row a context x (p features), the arm served
// and a 0/1 reward. Sources hand out column blocks on demand, so a method holds O(rows × block) of X, never all of
// it (the benchmark log is n = 10⁶, p = 1000: 4 GB).
//
// HDF5 layout (README):
//   /X                  float32 [n, p], chunked min(65536, n) × min(64, p) (a block of 64 columns is cheap to read);
//                       NaN = missing; a categorical column holds codes 0..L-1
//   /arm                int32 [n], codes into /arm_labels
//   /arm_labels         strings [k], k >= 2, every arm with rows
//   /reward             float64 [n], 0 or 1
//   /feature_names      strings [p] (optional: x1..xp)
//   /categorical        int32 [p] of 0/1 flags (optional: none categorical)
//   /category_labels    strings [L_total] (optional) with /category_offsets int64 [p + 1]: column j's labels are
//                       entries [offsets[j], offsets[j+1]) in code order (a CSR layout; a numeric column has none)
//   /truth              int32 (optional): the truly relevant features
//   attribute `correlational` on the file (optional) int32 list: features that predict the reward but not the arm
//   that wins (simulate cmab-hte's x6, x7)
//
// CSV: a header row; the arm and reward columns by name; features = the rest (or LoggedCsvSpec::features).
// Non-numeric columns and those named in `categorical` are categorical, coded in sorted label order (numeric labels
// numerically, text byte-wise). An empty or NaN cell of a feature is missing.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace bfs {

/// Everything of a log but X: small (O(rows + cols)), held by every rank.
struct LoggedHeader {
  std::string origin;  ///< the file, or "simulate cmab-hte (seed S)"
  Index rows = 0, cols = 0;
  std::vector<std::string> feature_names;                 ///< cols
  std::vector<std::uint8_t> categorical;                  ///< cols, 1 = categorical (values are codes 0..L-1)
  std::vector<std::vector<std::string>> category_labels;  ///< cols; labels of a categorical feature's codes
  std::vector<std::string> arm_labels;                    ///< k >= 2
  std::vector<std::int32_t> arm;                          ///< rows, codes into arm_labels
  std::vector<std::uint8_t> reward;                       ///< rows, 0/1
  std::vector<FeatureId> truth;
  bool has_truth = false;
  std::vector<FeatureId> correlational;  ///< simulate cmab-hte only (x6, x7)
  /// A CSV log's (row, 1-based line) pairs, one where rows stop following one line after another (the first row,
  /// and each row after blank lines): what row_location turns into a line number. Empty for other logs.
  std::vector<std::array<std::int64_t, 2>> line_anchors;
};

/// Where row `row` (0-based) of a log is, for a message: "FILE: line L" for a CSV log (the file's 1-based line),
/// "ORIGIN: row R (0-based)" otherwise.
std::string row_location(const LoggedHeader& header, Index row);

/// The [data] keys of a CSV log: arm, reward, features, categorical, arms.
struct LoggedCsvSpec {
  std::string arm, reward;
  std::vector<std::string> features, categorical, arms;
};

/// A log whose header is in memory and whose X is read (or generated) one column block at a time.
class LoggedSource {
 public:
  virtual ~LoggedSource() = default;
  virtual const LoggedHeader& header() const = 0;
  /// Columns [first, first+count) as float, column-major (count blocks of rows values); NaN = missing.
  /// InputError naming the origin, column and row for a value a log may not hold (Inf, a code outside the labels).
  virtual std::vector<float> columns(Index first, Index count) const = 0;
};

/// Reads a CSV log (two streaming passes: column kinds, then values). InputError naming the file, line, column or
/// value for: a missing arm/reward/feature column, an arm outside spec.arms, a declared arm without rows, fewer than
/// 2 arms, a reward missing or not 0/1, Inf or a value outside float range, n < 2, p = 0, ragged rows.
std::unique_ptr<LoggedSource> open_logged_csv(const std::string& path, const LoggedCsvSpec& spec);
/// Opens an HDF5 log (layout above): the header is read and checked now, X column blocks on demand (hyperslabs).
/// `arms` (data.arms), when given, is the arm order (codes are remapped to it); every arm with rows must be in it.
std::unique_ptr<LoggedSource> open_logged_hdf5(const std::string& path, const std::vector<std::string>& arms);
/// Writes the layout above, staged in path.tmp and renamed (the tmp removed on failure). X goes in blocks of 64
/// columns, so memory holds one block (rows × 64 floats), never all of X.
void write_logged_hdf5(const std::string& path, const LoggedSource& source);
/// Writes a CSV log: the features (categorical ones as their labels, missing as an empty cell), then columns `arm`
/// and `reward`; staged in path.tmp and renamed. Holds all of X in memory (CSV is row-major): for small logs.
void write_logged_csv(const std::string& path, const LoggedSource& source);

/// A log held in memory: `x` column-major (cols blocks of rows values). The header is checked
/// (check_logged_header) and so are the values (as columns() of a file would).
std::unique_ptr<LoggedSource> make_logged_memory(LoggedHeader header, std::vector<float> x);

/// Rewards given as numbers (an HDF5 log's /reward, the library API's): each 0 or 1. InputError "<origin>: <what>
/// row i is missing (NaN)" or "... is v, not 0 or 1".
std::vector<std::uint8_t> rewards_of(const std::vector<double>& reward, const std::string& origin,
                                     const std::string& what);
/// The checks every log passes (InputError naming header.origin): n >= 2, p >= 1, consistent sizes, k >= 2 distinct
/// arm labels, arm codes in range, every arm with rows, rewards 0/1, truth and correlational features in range.
void check_logged_header(const LoggedHeader& header);

}  // namespace bfs

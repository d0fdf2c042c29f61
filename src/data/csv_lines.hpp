#pragma once
// Reading CSV text, shared by read_csv (data sets) and prepare-gkx (files of several GB): a streaming line reader
// with 1-based line numbers, and the split of a line into cells at commas outside double quotes.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace bfs {

/// Reads a text file line by line through a 1 MiB buffer (grown only for a longer line; LF or CRLF): memory does
/// not grow with the file.
class LineReader {
 public:
  /// InputError naming the file when it cannot be opened.
  explicit LineReader(std::string path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  /// The next line without its terminator; false at end of file. The view lives until the next call.
  bool next(std::string_view& line);
  /// 1-based number of the line last returned.
  std::int64_t line_number() const { return line_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  std::int64_t line_ = 0;
};

/// `s` without blanks (space, tab) at either end.
std::string_view trim_blanks(std::string_view s);

/// Splits one line at commas outside double quotes into `cells` (cleared first); each cell is trimmed of blanks and
/// keeps its quotes ("" inside quotes is an escaped quote). Returns false on an unterminated quote.
[[nodiscard]] bool split_csv_line(std::string_view line, std::vector<std::string_view>& cells);

/// A cell without its surrounding double quotes, trimmed of blanks inside them ("" escapes are left as they are).
std::string_view strip_quotes(std::string_view cell);

/// A UTF-8 byte-order mark at the start of `line` (a file's first line) removed.
std::string_view strip_byte_order_mark(std::string_view line);
/// `text` for an error message: control bytes (a NUL included, which would end the message) become \xNN.
std::string printable(std::string_view text);
/// Whether `text` holds a control byte (below 0x20; a NUL among them). Such a column name is refused: HDF5 stores
/// names as C strings, so result.h5's or a panel's /feature_names would cut it at a NUL (found by fuzzing).
bool has_control_byte(std::string_view text);

}  // namespace bfs

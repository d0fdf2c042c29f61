#include "data/csv_lines.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace bfs {

LineReader::LineReader(std::string path) : path_(std::move(path)), buffer_(std::size_t{1} << 20) {
  file_ = std::fopen(path_.c_str(), "rb");
  if (file_ == nullptr) {
    throw InputError(detail::concat("cannot open '", path_, "': ", std::strerror(errno)));
  }
}

LineReader::~LineReader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* data = buffer_.data();
    const void* nl = std::memchr(data + begin_, '\n', end_ - begin_);
    if (nl != nullptr) {
      const std::size_t pos = static_cast<const char*>(nl) - data;
      line = std::string_view(data + begin_, pos - begin_);
      begin_ = pos + 1;
      break;
    }
    if (eof_) {
      if (begin_ == end_) return false;
      line = std::string_view(data + begin_, end_ - begin_);
      begin_ = end_;
      break;
    }
    // Move the partial line to the front, grow the buffer only when one line fills it, and refill.
    std::memmove(buffer_.data(), data + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
    const std::size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
    if (got == 0) {
      if (std::ferror(file_)) throw InputError(detail::concat("cannot read '", path_, "': I/O error"));
      eof_ = true;
    }
    end_ += got;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++line_;
  return true;
}

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool split_csv_line(std::string_view line, std::vector<std::string_view>& cells) {
  cells.clear();
  std::size_t start = 0;
  bool in_quotes = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      in_quotes = !in_quotes;  // "" inside quotes toggles twice: an escaped quote
    } else if (c == ',' && !in_quotes) {
      cells.push_back(trim_blanks(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (in_quotes) return false;
  cells.push_back(trim_blanks(line.substr(start)));
  return true;
}

std::string_view strip_quotes(std::string_view cell) {
  if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"')
    return trim_blanks(cell.substr(1, cell.size() - 2));
  return cell;
}

std::string_view strip_byte_order_mark(std::string_view line) {
  if (line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  return line;
}

bool has_control_byte(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; });
}

std::string printable(std::string_view text) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += digits[byte >> 4];
      out += digits[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace bfs

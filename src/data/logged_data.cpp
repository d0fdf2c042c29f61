// Contextual-bandit logs: the header checks every source passes, the in-memory source
// (what the CSV reader returns), the CSV writer and the helpers the readers share. The HDF5 side is in
// logged_data_hdf5.cpp, the CSV reader in logged_data_csv.cpp.
#include "data/logged_data.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <set>

#include "core/error.hpp"
#include "data/csv_lines.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/logged_data_detail.hpp"

namespace bfs {

std::string row_location(const LoggedHeader& header, Index row) {
  const auto& anchors = header.line_anchors;
  const auto after = std::upper_bound(anchors.begin(), anchors.end(), row,
                                      [](Index r, const std::array<std::int64_t, 2>& a) { return r < a[0]; });
  if (after == anchors.begin()) return detail::concat(header.origin, ": row ", row, " (0-based)");
  const auto& anchor = *(after - 1);
  return detail::concat(header.origin, ": line ", anchor[1] + (row - anchor[0]));
}

namespace detail {

void check_logged_values(const LoggedHeader& header, const float* block, Index first, Index count) {
  const Index rows = header.rows;
  for (Index c = 0; c < count; ++c) {
    const Index j = first + c;
    const float* column = block + c * rows;
    const bool categorical = header.categorical[static_cast<std::size_t>(j)] != 0;
    const auto labels = static_cast<double>(header.category_labels[static_cast<std::size_t>(j)].size());
    auto where = [&](Index i) {
      return concat(header.origin, ": column '", printable(header.feature_names[static_cast<std::size_t>(j)]),
                    "' (feature ", j + 1, "), row ", i, ": ");
    };
    for (Index i = 0; i < rows; ++i) {
      const float v = column[i];
      if (std::isnan(v)) continue;
      if (std::isinf(v)) throw InputError(where(i) + concat(v, " is not allowed (a missing value is NaN)"));
      if (categorical && (v < 0.0f || v != std::floor(v) || (labels > 0 && v >= labels))) {
        throw InputError(where(i) + concat(v, " is not a category code (an integer in [0, ",
                                           labels > 0 ? concat(labels) : std::string("L"), "))"));
      }
    }
  }
}

namespace {
bool parse_finite(const std::string& text, double& value) {
  std::string_view s = text;
  if (s.size() > 1 && s.front() == '+') s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(value);
}
}  // namespace

void sort_labels(std::vector<std::string>& labels) {
  std::vector<std::pair<double, std::string>> numbers;
  for (const auto& label : labels) {
    double v = 0;
    if (!parse_finite(label, v)) {
      std::sort(labels.begin(), labels.end());
      return;
    }
    numbers.emplace_back(v, label);
  }
  std::sort(numbers.begin(), numbers.end());  // ties ("1" and "1.0") by text
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = std::move(numbers[i].second);
}

std::string join_labels(const std::vector<std::string>& labels, std::size_t most) {
  std::string text;
  for (std::size_t i = 0; i < labels.size() && i < most; ++i)
    text += (i == 0 ? "'" : ", '") + printable(labels[i]) + "'";
  if (labels.size() > most) text += ", ...";
  return text;
}

}  // namespace detail

namespace {

template <class T>
void check_indices(const LoggedHeader& h, const std::vector<T>& features, const char* what) {
  for (const T t : features) {
    if (t < 0 || t >= h.cols)
      throw InputError(detail::concat(h.origin, ": ", what, " feature ", t, " is outside [0, ", h.cols, ")"));
  }
}

void check_sizes(const LoggedHeader& h) {
  auto expect = [&](std::size_t size, Index want, const char* what) {
    if (static_cast<Index>(size) != want) {
      throw InputError(detail::concat(h.origin, ": ", what, " has ", size, " entries but the log has ", want,
                                      want == h.rows ? " rows" : " features"));
    }
  };
  expect(h.feature_names.size(), h.cols, "feature_names");
  expect(h.categorical.size(), h.cols, "categorical");
  expect(h.category_labels.size(), h.cols, "category_labels");
  expect(h.arm.size(), h.rows, "arm");
  expect(h.reward.size(), h.rows, "reward");
}

void check_arms(const LoggedHeader& h) {
  const auto k = static_cast<std::int32_t>(h.arm_labels.size());
  if (k < 2) {
    throw InputError(detail::concat(h.origin, ": ", k, " arm",
                                    k == 1 ? " (" + detail::join_labels(h.arm_labels) + ")" : "s",
                                    "; a log needs at least 2 arms to compare"));
  }
  std::set<std::string> distinct(h.arm_labels.begin(), h.arm_labels.end());
  if (static_cast<std::int32_t>(distinct.size()) != k)
    throw InputError(
        detail::concat(h.origin, ": the arm labels repeat a label (", detail::join_labels(h.arm_labels), ")"));
  std::vector<std::int64_t> rows_of(static_cast<std::size_t>(k), 0);
  for (std::size_t i = 0; i < h.arm.size(); ++i) {
    const std::int32_t a = h.arm[i];
    if (a < 0 || a >= k)
      throw InputError(detail::concat(h.origin, ": row ", i, ": arm code ", a, " is outside the ", k, " arm labels"));
    ++rows_of[static_cast<std::size_t>(a)];
  }
  for (std::int32_t a = 0; a < k; ++a) {
    if (rows_of[static_cast<std::size_t>(a)] == 0) {
      throw InputError(detail::concat(h.origin, ": arm '", printable(h.arm_labels[static_cast<std::size_t>(a)]),
                                      "' has no rows (every declared arm needs some)"));
    }
  }
}

class MemoryLoggedSource final : public LoggedSource {
 public:
  MemoryLoggedSource(LoggedHeader header, std::vector<float> x) : header_(std::move(header)), x_(std::move(x)) {
    check_logged_header(header_);
    if (x_.size() != static_cast<std::size_t>(header_.rows * header_.cols)) {
      throw InputError(detail::concat(header_.origin, ": X has ", x_.size(), " values but the log is ", header_.rows,
                                      " x ", header_.cols));
    }
    detail::check_logged_values(header_, x_.data(), 0, header_.cols);
  }
  const LoggedHeader& header() const override { return header_; }
  std::vector<float> columns(Index first, Index count) const override {
    BFS_CHECK(first >= 0 && count >= 0 && first + count <= header_.cols, "columns [", first, ", ", first + count,
              ") of ", header_.cols);
    const auto begin = x_.begin() + first * header_.rows;
    return {begin, begin + count * header_.rows};
  }

 private:
  LoggedHeader header_;
  std::vector<float> x_;
};

/// A CSV cell: quoted (with "" escapes) when it would not read back as itself.
std::string csv_cell(const std::string& text) {
  const bool plain = !text.empty() && text.find_first_of(",\"\r\n") == std::string::npos && text.front() != ' ' &&
                     text.front() != '\t' && text.back() != ' ' && text.back() != '\t';
  if (plain) return text;
  std::string out = "\"";
  for (const char c : text) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

void append_float(std::string& line, float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back as the same float
  line.append(buf, r.ptr);
}

void write_csv_file(const std::string& tmp, const LoggedSource& source) {
  const LoggedHeader& h = source.header();
  for (const auto& name : h.feature_names) {
    if (name == "arm" || name == "reward") {
      throw InputError(detail::concat("a feature is named '", name, "', the name of the arm or reward column"));
    }
  }
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(detail::concat("cannot open '", tmp, "'"));
  std::string line;
  for (const auto& name : h.feature_names) line += csv_cell(name) + ",";
  line += "arm,reward\n";
  out << line;
  const std::vector<float> x = source.columns(0, h.cols);
  const auto rows = static_cast<std::size_t>(h.rows);
  for (std::size_t i = 0; i < rows; ++i) {
    line.clear();
    for (std::size_t j = 0; j < static_cast<std::size_t>(h.cols); ++j) {
      const float v = x[j * rows + i];
      const auto& labels = h.category_labels[j];
      if (std::isnan(v)) {
        // an empty cell: missing
      } else if (h.categorical[j] != 0 && static_cast<std::size_t>(v) < labels.size()) {
        line += csv_cell(labels[static_cast<std::size_t>(v)]);
      } else {
        append_float(line, v);
      }
      line += ',';
    }
    line += csv_cell(h.arm_labels[static_cast<std::size_t>(h.arm[i])]);
    line += h.reward[i] != 0 ? ",1\n" : ",0\n";
    out << line;
  }
  out.close();
  if (!out) throw InputError(detail::concat("writing '", tmp, "' failed"));
}

}  // namespace

std::vector<std::uint8_t> rewards_of(const std::vector<double>& reward, const std::string& origin,
                                     const std::string& what) {
  std::vector<std::uint8_t> out(reward.size());
  for (std::size_t i = 0; i < reward.size(); ++i) {
    if (std::isnan(reward[i])) throw InputError(detail::concat(origin, ": ", what, " row ", i, " is missing (NaN)"));
    if (reward[i] != 0.0 && reward[i] != 1.0)
      throw InputError(detail::concat(origin, ": ", what, " row ", i, " is ", reward[i], ", not 0 or 1"));
    out[i] = reward[i] == 1.0 ? 1 : 0;
  }
  return out;
}

void check_logged_header(const LoggedHeader& h) {
  if (h.rows < 2) {
    throw InputError(
        detail::concat(h.origin, ": n = ", h.rows, " row", h.rows == 1 ? "" : "s", "; a log needs at least 2"));
  }
  if (h.cols < 1) throw InputError(detail::concat(h.origin, ": p = 0 (no feature columns)"));
  check_sizes(h);
  check_arms(h);
  for (std::size_t i = 0; i < h.reward.size(); ++i) {
    if (h.reward[i] > 1) {
      throw InputError(detail::concat(h.origin, ": row ", i, ": reward ", int{h.reward[i]}, " is not 0 or 1"));
    }
  }
  if (h.has_truth) check_indices(h, h.truth, "truth");
  check_indices(h, h.correlational, "correlational");
}

std::unique_ptr<LoggedSource> make_logged_memory(LoggedHeader header, std::vector<float> x) {
  return std::make_unique<MemoryLoggedSource>(std::move(header), std::move(x));
}

void write_logged_csv(const std::string& path, const LoggedSource& source) {
  detail::atomic_write(path, [&](const std::string& tmp) { write_csv_file(tmp, source); });
}

}  // namespace bfs

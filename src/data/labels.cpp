// Binary label validation and mapping (see labels.hpp). Values in messages are printed in their shortest exact form
// (std::to_chars) so two labels that differ in the 7th digit do not look alike.
#include "data/labels.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "core/error.hpp"

namespace bfs {

namespace {

std::string format_value(double v) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

/// "(a, b, c)", or "(a, b, c, ...)" when there are more than three: a message needs examples, not the whole target.
std::string list_values(const std::vector<double>& values) {
  std::string out = "(";
  for (std::size_t i = 0; i < values.size() && i < 3; ++i) out += (i == 0 ? "" : ", ") + format_value(values[i]);
  return out + (values.size() > 3 ? ", ...)" : ")");
}

const char* nonfinite_kind(double v) {
  return std::isnan(v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf");
}

}  // namespace

BinaryLabels validate_binary_labels(std::span<const double> y, std::optional<double> positive_label,
                                    const std::string& origin) {
  // Readers already refuse NaN/Inf; checked again because a NaN would count as a class of its own and break sorting.
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!std::isfinite(y[i])) throw InputError(detail::concat(origin, ": y has ", nonfinite_kind(y[i]), " at row ", i));
  }
  std::vector<double> values(y.begin(), y.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const std::string where = detail::concat("data.task = \"binary\": y in '", origin, "'");
  if (values.size() != 2) {
    throw InputError(detail::concat(where, " has ", values.size(),
                                    values.size() == 1 ? " distinct value " : " distinct values ", list_values(values),
                                    "; binary targets need exactly two"));
  }
  const double low = values[0], high = values[1];
  if (positive_label) {
    const double positive = *positive_label;
    if (positive != low && positive != high) {
      throw InputError(detail::concat("data.task = \"binary\": data.positive_label = ", format_value(positive),
                                      " is not one of the 2 distinct values of y in '", origin, "' ",
                                      list_values(values)));
    }
    return {positive == low ? high : low, positive};
  }
  if ((low == 0.0 || low == -1.0) && high == 1.0) return {low, 1.0};
  throw InputError(
      detail::concat(where, " has 2 distinct values ", list_values(values),
                     ", neither {0, 1} nor {-1, 1}; set data.positive_label to the value that is class 1"));
}

void apply_binary_labels(Vector& y, const BinaryLabels& labels) {
  for (Index i = 0; i < y.size(); ++i) y[i] = y[i] == labels.positive ? 1.0 : 0.0;
}

void map_labels(Vector& y, const LabelSpec& spec, const std::string& origin) {
  if (spec.task != Task::Binary) return;
  const BinaryLabels labels = validate_binary_labels(
      std::span<const double>(y.data(), static_cast<std::size_t>(y.size())), spec.positive_label, origin);
  apply_binary_labels(y, labels);
}

}  // namespace bfs

// Binary label validation and mapping (see labels.hpp). Values in messages are printed in their shortest exact form
// (std::to_chars) so two labels that differ in the 7th digit do not look alike.
#include "data/labels.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>
#include <variant>
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

/// The number a positive_label stands for against a numeric y: itself, or the number its text reads as.
std::optional<double> label_number(const ClassLabel& label) {
  if (const double* x = std::get_if<double>(&label)) return *x;
  const std::string& text = std::get<std::string>(label);
  std::string_view digits = text;
  if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::string label_text(const ClassLabel& label) {
  if (const double* x = std::get_if<double>(&label)) return format_value(*x);
  return "\"" + std::get<std::string>(label) + "\"";
}

BinaryLabels validate_binary_labels(std::span<const double> y, const std::optional<ClassLabel>& positive_label,
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
    const std::optional<double> positive = label_number(*positive_label);
    if (!positive || (*positive != low && *positive != high)) {
      throw InputError(detail::concat("data.task = \"binary\": data.positive_label = ", label_text(*positive_label),
                                      " is not one of the 2 distinct values of y in '", origin, "' ",
                                      list_values(values)));
    }
    return {*positive == low ? high : low, *positive};
  }
  if ((low == 0.0 || low == -1.0) && high == 1.0) return {low, 1.0};
  throw InputError(
      detail::concat(where, " has 2 distinct values ", list_values(values),
                     ", neither {0, 1} nor {-1, 1}; set data.positive_label to the value that is class 1"));
}

std::string validate_text_labels(const std::vector<std::string>& values,
                                 const std::optional<ClassLabel>& positive_label, const std::string& origin) {
  std::string listed = "(";  // every value when there are few, else three and "..."
  for (std::size_t i = 0; i < values.size() && i < 3; ++i) listed += (i == 0 ? "" : ", ") + label_text(values[i]);
  listed += values.size() > 3 ? ", ...)" : ")";
  const std::string where = detail::concat("data.task = \"binary\": y in '", origin, "'");
  if (values.size() != 2) {
    throw InputError(detail::concat(where, " has ", values.size(),
                                    values.size() == 1 ? " distinct value " : " distinct values ", listed,
                                    "; binary targets need exactly two"));
  }
  if (!positive_label) {
    throw InputError(detail::concat(
        where, " has 2 distinct text values ", listed,
        "; set data.positive_label to the one that is class 1 (e.g. positive_label = ", label_text(values[1]), ")"));
  }
  std::string wanted = std::holds_alternative<double>(*positive_label) ? format_value(std::get<double>(*positive_label))
                                                                       : std::get<std::string>(*positive_label);
  if (wanted != values[0] && wanted != values[1]) {
    throw InputError(detail::concat("data.task = \"binary\": data.positive_label = ", label_text(*positive_label),
                                    " is not one of the 2 distinct values of y in '", origin, "' ", listed));
  }
  return wanted;
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

#pragma once
// The text encoding shared by the models that serialize as text (lasso, mlp): numbers separated by spaces, doubles
// as hex floats so a round trip through strtod is exact and restored models predict bit-identically.
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "estimators/estimator.hpp"

namespace bfs::detail {

inline void append_double(std::string& out, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", v);
  out += buffer;
  out += ' ';
}

/// Reads one double; InputError naming the estimator and the field when it is missing or malformed.
inline double parse_double(std::istream& in, std::string_view estimator, const char* what) {
  std::string token;
  if (!(in >> token)) throw InputError(concat(estimator, ": serialized model truncated at ", what));
  char* end = nullptr;
  const double v = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || *end != '\0')
    throw InputError(concat(estimator, ": serialized model has bad number '", token, "' for ", what));
  return v;
}

/// Reads one integer in [lo, hi]; InputError naming the estimator and the field otherwise.
inline long long parse_int(std::istream& in, std::string_view estimator, const char* what, long long lo, long long hi) {
  long long v = 0;
  if (!(in >> v) || v < lo || v > hi) throw InputError(concat(estimator, ": serialized model has a bad ", what));
  return v;
}

/// The link a model applies to its margin, as one word ("identity", "logistic").
inline const char* link_name(Link link) {
  return link == Link::Logistic ? "logistic" : "identity";
}

inline Link parse_link(std::istream& in, std::string_view estimator) {
  std::string token;
  in >> token;
  if (token == "identity") return Link::Identity;
  if (token == "logistic") return Link::Logistic;
  throw InputError(concat(estimator, ": serialized model has bad link '", token, "' (identity or logistic)"));
}

}  // namespace bfs::detail

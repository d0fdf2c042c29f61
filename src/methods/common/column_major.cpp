#include "methods/common/column_major.hpp"

#include <cmath>

namespace bfs::methods {

namespace {

/// Replaces the NaN of `column` by the mean of its other values; returns how many there were.
std::size_t impute_mean(double* column, std::size_t rows) {
  std::size_t missing = 0;
  double sum = 0.0;
  for (std::size_t r = 0; r < rows; ++r) {
    if (std::isnan(column[r]))
      ++missing;
    else
      sum += column[r];
  }
  if (missing == 0) return 0;
  const double mean = missing < rows ? sum / static_cast<double>(rows - missing) : 0.0;
  for (std::size_t r = 0; r < rows; ++r)
    if (std::isnan(column[r])) column[r] = mean;
  return missing;
}

}  // namespace

ColumnMajor column_major(const Dataset& data) {
  ColumnMajor x;
  x.rows = static_cast<std::size_t>(data.rows());
  x.cols = static_cast<std::size_t>(data.cols());
  x.values.resize(x.rows * x.cols);
  for (std::size_t j = 0; j < x.cols; ++j) {
    double* column = x.values.data() + j * x.rows;
    for (std::size_t r = 0; r < x.rows; ++r)
      column[r] = static_cast<double>(data.X(static_cast<Index>(r), static_cast<Index>(j)));
    x.imputed += impute_mean(column, x.rows);
  }
  return x;
}

std::size_t standardise(ColumnMajor& x) {
  const std::size_t n = x.rows;
  std::size_t constant = 0;
  for (std::size_t j = 0; j < x.cols; ++j) {
    double* column = x.values.data() + j * n;
    double sum = 0.0;
    for (std::size_t r = 0; r < n; ++r) sum += column[r];
    const double mean = n > 0 ? sum / static_cast<double>(n) : 0.0;
    double squares = 0.0;
    for (std::size_t r = 0; r < n; ++r) squares += (column[r] - mean) * (column[r] - mean);
    const double sd = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0.0;
    if (sd == 0.0) ++constant;
    for (std::size_t r = 0; r < n; ++r) column[r] = sd > 0.0 ? (column[r] - mean) / sd : 0.0;
  }
  return constant;
}

}  // namespace bfs::methods

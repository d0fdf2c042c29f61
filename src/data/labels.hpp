#pragma once
// Binary targets at the data boundary (docs/design.md §3 "Task"). A binary job's y must hold exactly two distinct
// values; they become 0/1 here, once, so estimators, metrics and results only ever see 0/1: {0,1} is kept, {−1,1} maps
// to {0,1}, any other pair needs data.positive_label (that value → 1, the other → 0). Regression leaves y untouched.
// A CSV target column of text labels ("up"/"down") is binary only: its two texts need data.positive_label too, and
// the reader maps them itself (validate_text_labels), since X's float matrix and y's doubles hold no text.
//
// Sources validate over ALL rows of y when they open (an online panel reads /y once: it is small), so every period
// uses one mapping, a period holding a single class is fine, and a bad target fails before any output is written.
// data/ sits beside config/ (docs/architecture.md), so the [data] keys arrive as this small struct, not DataConfig.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/task.hpp"
#include "core/types.hpp"

namespace bfs {

/// What the [data] section says about the target: data.task and data.positive_label.
struct LabelSpec {
  Task task = Task::Regression;
  std::optional<ClassLabel> positive_label;
};

/// The mapping of a validated binary target: `positive` → 1, `negative` → 0.
struct BinaryLabels {
  double negative = 0.0;
  double positive = 1.0;
};

/// Checks that y (every row) is a binary target and returns its mapping. Throws InputError naming data.task,
/// `origin` (the file or source), the number of distinct values and up to three of them for: NaN/Inf in y, one
/// class, more than two values, a positive_label that is not one of the two values, or a pair other than {0,1} /
/// {−1,1} without positive_label.
/// A text positive_label matches a value of y when it reads as that number ("2" is 2).
BinaryLabels validate_binary_labels(std::span<const double> y, const std::optional<ClassLabel>& positive_label,
                                    const std::string& origin);
/// The class-1 text of a binary target column of text labels: `values` are its distinct texts, sorted. InputError
/// naming data.task, `origin` and the values found unless there are exactly two and positive_label names one of
/// them (a number matches the text it is written as: 2 matches "2").
std::string validate_text_labels(const std::vector<std::string>& values,
                                 const std::optional<ClassLabel>& positive_label, const std::string& origin);
/// A label as messages and the canonical dump write it: a number in its shortest exact form, a text in quotes.
std::string label_text(const ClassLabel& label);
/// y[i] ← 1 where y[i] = positive, else 0 (y holds only the validated pair, or a subset of it for one period).
void apply_binary_labels(Vector& y, const BinaryLabels& labels);
/// Binary: validate_binary_labels over all of y, then apply_binary_labels. Regression: y is not touched.
void map_labels(Vector& y, const LabelSpec& spec, const std::string& origin);

}  // namespace bfs

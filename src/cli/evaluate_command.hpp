#pragma once
// `banditfs evaluate`: a result's ranking — or, with --rank-by, the training rows' Gini-RF importance or
// logistic-lasso entry order — judged by a learner on held-out rows: for each size k the learner is fitted on the
// training file's top-k columns and its test error and AUC on the test file are written as CSV
// (size,test_error,test_auc,features). Binary targets.
#include <CLI/CLI.hpp>
#include <functional>

namespace bfs::cli {

/// Registers `evaluate` on `app`; `run` is set to the function that executes it (returns the exit code).
CLI::App* add_evaluate_command(CLI::App& app, std::function<int()>& run);

}  // namespace bfs::cli

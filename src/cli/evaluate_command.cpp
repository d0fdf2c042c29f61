#include "cli/evaluate_command.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/hdf5_io.hpp"
#include "data/labels.hpp"
#include "estimators/estimator.hpp"
#include "estimators/lasso.hpp"
#include "importance/ranking_evaluation.hpp"
#include "output/result_io.hpp"

namespace bfs::cli {
namespace {

struct EvaluateArgs {
  std::string result;   ///< result.h5 whose /rank orders the features, or
  std::string rank_by;  ///< a ranking computed on the training rows ("lasso")
  std::string train;
  std::string test;
  std::string learner = "svm";
  std::vector<std::int32_t> sizes = {1, 2, 5, 20};
  std::optional<double> positive_label;
  std::uint64_t seed = 1;
  int threads = 1;
  std::string out;  ///< empty = stdout
};

Dataset read_binary(const std::string& path, const std::optional<double>& positive_label) {
  Dataset data = read_hdf5(path);
  map_labels(data.y, LabelSpec{Task::Binary, positive_label}, path);
  return data;
}

/// The result's features best first, as columns of `train` (matched by name).
FeatureSet ranking_of(const MethodResult& result, const std::string& result_path, const Dataset& train,
                      const std::string& train_path) {
  std::map<std::string, FeatureId> column;
  for (std::size_t j = 0; j < train.feature_names.size(); ++j)
    column[train.feature_names[j]] = static_cast<FeatureId>(j);
  if (result.rank.size() != result.feature_names.size())
    throw InputError(result_path + ": /rank has " + std::to_string(result.rank.size()) + " entries for " +
                     std::to_string(result.feature_names.size()) + " features");
  FeatureSet ranking(result.rank.size(), -1);
  for (std::size_t f = 0; f < result.rank.size(); ++f) {
    const std::int32_t r = result.rank[f];
    if (r < 1 || static_cast<std::size_t>(r) > ranking.size() || ranking[static_cast<std::size_t>(r - 1)] != -1)
      throw InputError(result_path + ": /rank is not a permutation of 1.." + std::to_string(ranking.size()));
    const auto it = column.find(result.feature_names[f]);
    if (it == column.end())
      throw InputError(
          detail::concat(result_path, ": feature '", result.feature_names[f], "' is not a column of ", train_path));
    ranking[static_cast<std::size_t>(r - 1)] = it->second;
  }
  return ranking;
}

/// Gini-RF ([FUSE §7.1] fn 2): a 1000-tree random-forest classifier with scikit-learn's classifier defaults
/// (⌊√p⌋ columns per split, trees grown until pure), columns by mean decrease in impurity, ties to the lower index.
FeatureSet gini_rf_ranking(const Dataset& train, std::uint64_t seed, int threads) {
  RandomForestParams params;
  params.n_estimators = 1000;
  params.max_depth = 0;
  const double p = static_cast<double>(train.cols());
  params.max_features = std::floor(std::sqrt(p)) / p;
  const auto model =
      make_random_forest(params, Task::Binary)
          ->fit(train.X, train.y, FitOptions{Rng::stream(seed, 0, 0, Purpose::Fit).next_u64(), threads, {}, nullptr});
  const std::vector<double>& mdi = *model->impurity_importance();
  FeatureSet ranking(mdi.size());
  for (std::size_t j = 0; j < ranking.size(); ++j) ranking[j] = static_cast<FeatureId>(j);
  std::stable_sort(ranking.begin(), ranking.end(), [&](FeatureId a, FeatureId b) {
    return mdi[static_cast<std::size_t>(a)] > mdi[static_cast<std::size_t>(b)];
  });
  return ranking;
}

/// --rank-by: the training rows' own rankings.
enum class RankBy { GiniRf, Lasso };
constexpr std::array<std::pair<RankBy, std::string_view>, 2> enum_table(RankBy) {
  return {{{RankBy::GiniRf, "gini-rf"}, {RankBy::Lasso, "lasso"}}};
}

/// The training rows' own ranking: "gini-rf" (above) or "lasso", the order of entry on the logistic lasso's path
/// ([FUSE §7.1]: glmnet; 100 values of λ down to λ_max/10⁴, glmnet's default ratio when rows outnumber columns).
FeatureSet ranking_by(const std::string& name, const Dataset& train, std::uint64_t seed, int threads) {
  const auto method = enum_from_name<RankBy>(name);
  if (!method) throw InputError("--rank-by '" + name + "' is not a ranking (gini-rf or lasso)");
  if (*method == RankBy::GiniRf) return gini_rf_ranking(train, seed, threads);
  LassoParams params;
  params.n_lambdas = 100;
  params.lambda_min_ratio = 1e-4;
  FeatureSet ranking;
  for (const Index j : logistic_lasso_entry_order(params, train.X, train.y))
    ranking.push_back(static_cast<FeatureId>(j));
  return ranking;
}

std::string to_csv(const std::vector<RankingScore>& scores, const std::vector<std::string>& names) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "size,test_error,test_auc,features\n";
  for (const RankingScore& s : scores) {
    csv << s.size << ',' << s.test_error << ',' << s.test_auc << ',';
    for (std::size_t i = 0; i < s.features.size(); ++i)
      csv << (i ? ";" : "") << names[static_cast<std::size_t>(s.features[i])];
    csv << '\n';
  }
  return csv.str();
}

/// A progress line on stderr per size scored (a fit on many rows can take minutes; stdout may be the CSV).
RankingProgress report_size(const std::string& learner) {
  const auto start = std::chrono::steady_clock::now();
  return [learner, start](const RankingScore& s, std::size_t done, std::size_t total) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "evaluate: size %d (%zu/%zu): %s test error %.4f, AUC %.4f  [%.1f s]\n", s.size, done, total,
                 learner.c_str(), s.test_error, s.test_auc, seconds);
  };
}

/// A learner that predicts one value for every test row scores AUC 0.5 whatever the ranking: say so and why.
void warn_if_constant(const std::vector<RankingScore>& scores, const std::string& learner) {
  std::string sizes;
  for (const RankingScore& s : scores)
    if (s.constant_prediction) sizes += (sizes.empty() ? "" : ", ") + std::to_string(s.size);
  if (sizes.empty()) return;
  std::fprintf(stderr,
               "banditfs: warning: evaluate: --learner %s predicts the same value for every test row at size%s %s "
               "(AUC 0.5, the error of always guessing one class): it kept no column%s. Its AUC there says nothing "
               "about the ranking; use another learner (e.g. svm, random_forest)\n",
               learner.c_str(), sizes.find(',') == std::string::npos ? "" : "s", sizes.c_str(),
               learner == "lasso" ? " (lasso's default estimator.lambda = 0.1 on a 0/1 target shrinks every "
                                    "coefficient to zero)"
                                  : "");
}

int evaluate(const EvaluateArgs& args) {
  const auto learner_name = enum_from_name<EstimatorName>(args.learner);
  if (!learner_name) throw InputError("--learner '" + args.learner + "' is not an estimator name");
  EstimatorConfig config;
  config.name = *learner_name;
  const std::unique_ptr<Estimator> learner = make_estimator(config, Task::Binary);
  const Dataset train = read_binary(args.train, args.positive_label);
  const Dataset test = read_binary(args.test, args.positive_label);
  if (test.feature_names != train.feature_names)
    throw InputError(args.test + " does not have the columns of " + args.train + " (names and order must match)");
  if (args.result.empty() == args.rank_by.empty())
    throw InputError("evaluate needs a RESULT.h5 or --rank-by, not both and not neither");
  if (!args.rank_by.empty())
    std::fprintf(stderr, "evaluate: ranking the %lld training rows' %lld columns by %s\n",
                 static_cast<long long>(train.rows()), static_cast<long long>(train.cols()), args.rank_by.c_str());
  const FeatureSet ranking = args.rank_by.empty()
                                 ? ranking_of(read_result_h5(args.result), args.result, train, args.train)
                                 : ranking_by(args.rank_by, train, args.seed, args.threads);
  for (const std::int32_t k : args.sizes)
    if (k < 1 || static_cast<std::size_t>(k) > ranking.size())
      throw InputError("--sizes: " + std::to_string(k) + " is not in 1.." + std::to_string(ranking.size()) +
                       " (the result's features)");
  const std::vector<RankingScore> scores =
      evaluate_ranking(train, test, ranking, args.sizes, *learner, args.seed, args.threads, report_size(args.learner));
  warn_if_constant(scores, args.learner);
  const std::string csv = to_csv(scores, train.feature_names);
  if (args.out.empty()) {
    std::cout << csv;
    return 0;
  }
  detail::write_text_atomic(args.out, csv);
  return 0;
}

}  // namespace

CLI::App* add_evaluate_command(CLI::App& app, std::function<int()>& run) {
  auto args = std::make_shared<EvaluateArgs>();
  auto* sub = app.add_subcommand(
      "evaluate", "judge a result's ranking: test error and AUC of a learner on its top-k columns (CSV)");
  sub->add_option("result", args->result, "result.h5 whose /rank orders the features (or --rank-by)");
  sub->add_option("--rank-by", args->rank_by,
                  "rank the training rows' columns instead: gini-rf (1000-tree forest, mean decrease in impurity) | "
                  "lasso (order of entry on the logistic lasso path)");
  sub->add_option("--train", args->train, "training rows (HDF5: /X, /y, /feature_names)")->required();
  sub->add_option("--test", args->test, "test rows, same columns")->required();
  sub->add_option("--learner", args->learner, "an estimator name, default parameters, binary (default svm)");
  sub->add_option("--sizes", args->sizes, "top-k sizes (default 1,2,5,20)")->delimiter(',');
  sub->add_option("--positive-label", args->positive_label, "the value of y that is class 1 (unless {0,1}/{-1,1})");
  sub->add_option("--seed", args->seed, "seed of the learner's fits");
  sub->add_option("--threads", args->threads, "threads of the learner's fits");
  sub->add_option("--out", args->out, "CSV file (default: stdout)");
  run = [args] { return evaluate(*args); };
  return sub;
}

}  // namespace bfs::cli

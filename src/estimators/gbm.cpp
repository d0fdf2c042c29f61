// Gradient-boosted trees through XGBoost's C API (Chen & Guestrin 2016; parameter names and meanings as in the
// XGBoost docs, "XGBoost Parameters"): booster gbtree, tree_method hist, objective reg:squarederror (Task::Regression)
// or binary:logistic (Task::Binary, targets 0/1; predict() returns XGBoost's probabilities P(y = 1)); max_leaves > 0
// switches to grow_policy lossguide (LightGBM-style leaf-wise growth).
//
// Early stopping as in XGBoost's own callback: validation_fraction of the training rows (drawn from
// Rng::stream(seed, 0, 0, Fit)) is held out, the model is boosted one round at a time and the RMSE on the held-out
// rows is computed after each round (XGBoost's cached DMatrix prediction adds only the new tree, so this is O(n_val)
// per round, in full precision rather than parsing the rounded text of XGBoosterEvalOneIter); boosting stops after
// early_stopping_rounds rounds without a strict improvement and the model predicts with the best number of rounds
// (iteration_end), which serialize() stores next to XGBoost's UBJ model bytes (with their length and an FNV-1a
// checksum: XGBoost's UBJ reader does not bounds-check, so damaged bytes are rejected before it sees them). A binary
// model scores the held-out rows by log-loss instead (XGBoost's eval_metric "logloss": probabilities clipped to
// [1e-16, 1 − 1e-16]), also in full precision; its serialized form starts with its own magic, so it is never
// restored under the other task.
//
// base_score is set to the mean training target (what XGBoost >= 2.0 does by default; 1.7 would start at 0.5 and
// waste early rounds on the intercept). For binary:logistic that mean is a probability (clamped into [1e-6, 1 − 1e-6]
// for a one-class sample, as XGBoost requires base_score in (0, 1)); XGBoost 1.7 stores it as given and starts
// boosting from the margin ProbToMargin(base_score) = −logf(1/base_score − 1) in float32 (src/objective/
// regression_loss.h), which trees() reproduces: link(base_score + Σ trees) with the float32 sum and xgboost_sigmoid
// (tree_ensemble.hpp) gives predict()'s probabilities bit for bit.
//
// Determinism: with tree_method=hist, XGBoost 1.7.4 gives bit-identical models for nthread 1 and 2 on the same data
// and seed (checked by the unit test "gbm_thread_count_independent", including subsample/colsample < 1), so
// options.threads is passed through as nthread.
//
// Every C-API call goes through xgb_check(), which throws bfs::Error carrying XGBGetLastError().
#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/fnv1a.hpp"
#include "core/rng.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"

namespace bfs {

namespace {

constexpr std::string_view kName = "gbm";
constexpr std::string_view kMagic = "BFSGBM1";         // regression (the format predates binary mode)
constexpr std::string_view kMagicBinary = "BFSGBMC1";  // binary:logistic: same layout after the magic

constexpr std::string_view magic_of(Task task) {
  return task == Task::Binary ? kMagicBinary : kMagic;
}

void xgb_check(int rc, const char* call) {
  if (rc != 0) throw Error(detail::concat("gbm: XGBoost call ", call, " failed: ", XGBGetLastError()));
}
#define BFS_XGB(fn, ...) xgb_check(fn(__VA_ARGS__), #fn)

struct BoosterDeleter {
  void operator()(void* handle) const { XGBoosterFree(handle); }
};
struct DMatrixDeleter {
  void operator()(void* handle) const { XGDMatrixFree(handle); }
};
using BoosterPtr = std::unique_ptr<void, BoosterDeleter>;
using DMatrixPtr = std::unique_ptr<void, DMatrixDeleter>;

std::string format_double(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  return buffer;
}

void set_param(BoosterHandle booster, const char* key, const std::string& value) {
  BFS_XGB(XGBoosterSetParam, booster, key, value.c_str());
}

/// A DMatrix over rows × cols row-major floats (NaN = missing) with float labels.
DMatrixPtr make_dmatrix(const float* data, Index rows, Index cols, const std::vector<float>& labels, int threads) {
  DMatrixHandle handle = nullptr;
  BFS_XGB(XGDMatrixCreateFromMat_omp, data, static_cast<bst_ulong>(rows), static_cast<bst_ulong>(cols),
          std::numeric_limits<float>::quiet_NaN(), &handle, threads);
  DMatrixPtr owned(handle);
  BFS_XGB(XGDMatrixSetFloatInfo, handle, "label", labels.data(), static_cast<bst_ulong>(labels.size()));
  return owned;
}

std::string predict_config(int iteration_end) {
  // "cache_id" is required by XGBoosterPredictFromDense in 1.7 ("Invalid cast, from Null to Integer" without it).
  return R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": )" + std::to_string(iteration_end) +
         R"(, "strict_shape": false, "cache_id": 0, "missing": NaN})";
}

/// XGBoost's saved JSON model (doc/model.schema) → flat trees, keeping only the first `rounds` trees and only the
/// nodes reachable from each root (pruned nodes stay in XGBoost's arrays), renumbered breadth-first. The objective
/// recorded in the model decides the link and how base_score becomes the starting margin.
TreeEnsemble ensemble_from_json(const nlohmann::json& model, int rounds) {
  const auto& learner = model.at("learner");
  TreeEnsemble ensemble;
  const auto base_score =
      static_cast<float>(std::stod(learner.at("learner_model_param").at("base_score").get<std::string>()));
  const auto objective = learner.at("objective").at("name").get<std::string>();
  if (objective == "binary:logistic") {
    ensemble.link = Link::Logistic;
    // LogisticRegression::ProbToMargin in float32, as XGBoost 1.7 computes its starting margin
    ensemble.base_score = static_cast<double>(-std::log(1.0f / base_score - 1.0f));
  } else {
    BFS_CHECK(objective == "reg:squarederror", "gbm: unexpected XGBoost objective " + objective);
    ensemble.base_score = base_score;
  }
  ensemble.scale = 1.0;
  ensemble.strict_less = true;  // XGBoost goes left when x < split_condition
  const auto& trees = learner.at("gradient_booster").at("model").at("trees");
  const int count = std::min<int>(rounds, static_cast<int>(trees.size()));
  ensemble.trees.reserve(count);
  for (int t = 0; t < count; ++t) {
    const auto& tree = trees[t];
    const auto left = tree.at("left_children").get<std::vector<std::int32_t>>();
    const auto right = tree.at("right_children").get<std::vector<std::int32_t>>();
    const auto index = tree.at("split_indices").get<std::vector<std::int32_t>>();
    const auto condition = tree.at("split_conditions").get<std::vector<double>>();
    const auto& default_left = tree.at("default_left");
    if (tree.contains("split_type")) {
      for (const auto& type : tree.at("split_type")) {
        BFS_CHECK(type.get<int>() == 0, "gbm: categorical splits are not supported");
      }
    }
    FlatTree flat;
    std::vector<std::int32_t> order{0};  // XGBoost node ids in breadth-first order
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::int32_t node = order[k];
      const bool leaf = left.at(node) < 0;
      flat.feature.push_back(leaf ? -1 : index.at(node));
      // Leaves keep their value in split_conditions; casting the printed number back to float recovers the float.
      const auto cond = static_cast<float>(condition.at(node));
      flat.threshold.push_back(leaf ? 0.0f : cond);
      flat.value.push_back(leaf ? static_cast<double>(cond) : 0.0);
      const auto& dl = default_left.at(node);
      flat.default_left.push_back(dl.is_boolean() ? dl.get<bool>() : dl.get<int>() != 0);
      flat.left.push_back(leaf ? -1 : static_cast<std::int32_t>(order.size()));
      flat.right.push_back(leaf ? -1 : static_cast<std::int32_t>(order.size() + 1));
      if (!leaf) {
        order.push_back(left.at(node));
        order.push_back(right.at(node));
      }
    }
    ensemble.trees.push_back(std::move(flat));
  }
  return ensemble;
}

class GbmModel final : public Model {
 public:
  GbmModel(BoosterPtr booster, Index num_features, int rounds, Task task)
      : booster_(std::move(booster)), num_features_(num_features), rounds_(rounds), task_(task) {}

  Vector predict(const Matrix& X) const override {
    if (X.cols() != num_features_) {
      throw InputError(detail::concat(kName, ": predict got ", X.cols(), " columns, the model has ", num_features_));
    }
    if (X.rows() == 0) return Vector(0);
    return predict_dense(X.data(), X.rows(), X.cols());
  }

  Vector predict_dense(const float* data, Index rows, Index cols) const {
    const std::string array = R"({"data": [)" + std::to_string(reinterpret_cast<std::uintptr_t>(data)) +
                              R"(, true], "shape": [)" + std::to_string(rows) + ", " + std::to_string(cols) +
                              R"(], "typestr": "<f4", "version": 3})";
    const bst_ulong* shape = nullptr;
    bst_ulong dim = 0;
    const float* result = nullptr;
    BFS_XGB(XGBoosterPredictFromDense, booster_.get(), array.c_str(), predict_config(rounds_).c_str(), nullptr, &shape,
            &dim, &result);
    Vector out(rows);
    for (Index i = 0; i < rows; ++i) out[i] = result[i];
    return out;
  }

  std::string serialize() const override {
    bst_ulong length = 0;
    const char* bytes = nullptr;
    BFS_XGB(XGBoosterSaveModelToBuffer, booster_.get(), R"({"format": "ubj"})", &length, &bytes);
    // Layout: magic, int64 features, int32 rounds used, uint64 model length, uint64 FNV-1a, XGBoost UBJ bytes.
    std::string out(magic_of(task_));
    const auto p = static_cast<std::int64_t>(num_features_);
    const auto rounds = static_cast<std::int32_t>(rounds_);
    const auto size = static_cast<std::uint64_t>(length);
    // XGBoost's UBJ reader does not bounds-check (a truncated buffer crashes it), so deserialize() hands it only
    // bytes whose length and FNV-1a checksum match what serialize() wrote.
    const std::uint64_t hash = fnv1a64(std::string_view(bytes, length));
    out.append(reinterpret_cast<const char*>(&p), sizeof(p));
    out.append(reinterpret_cast<const char*>(&rounds), sizeof(rounds));
    out.append(reinterpret_cast<const char*>(&size), sizeof(size));
    out.append(reinterpret_cast<const char*>(&hash), sizeof(hash));
    out.append(bytes, length);
    return out;
  }

  Index num_features() const override { return num_features_; }

  /// Built on first use (parsing XGBoost's JSON model costs time) and cached; safe to call from several threads.
  const TreeEnsemble* trees() const override {
    std::call_once(trees_once_, [this] {
      bst_ulong length = 0;
      const char* bytes = nullptr;
      BFS_XGB(XGBoosterSaveModelToBuffer, booster_.get(), R"({"format": "json"})", &length, &bytes);
      const auto json = nlohmann::json::parse(bytes, bytes + length);
      trees_ = ensemble_from_json(json, rounds_);
      validate_ensemble(trees_, num_features_, "gbm model");
    });
    return &trees_;
  }

  int rounds() const { return rounds_; }

 private:
  BoosterPtr booster_;
  Index num_features_;
  int rounds_;  ///< trees used for prediction: the best round count under early stopping
  Task task_;
  mutable std::once_flag trees_once_;
  mutable TreeEnsemble trees_;
};

/// base_score: the mean training target; for binary:logistic a probability, kept inside (0, 1) as XGBoost requires.
double starting_score(const std::vector<float>& y_train, const Vector& y, const std::vector<std::uint8_t>& is_valid,
                      Task task) {
  double mean = 0.0;
  for (Index i = 0; i < y.size(); ++i) {
    if (!is_valid[i]) mean += y[i];
  }
  mean /= static_cast<double>(y_train.size());
  return task == Task::Binary ? std::clamp(mean, 1e-6, 1.0 - 1e-6) : mean;
}

/// The held-out score early stopping minimises, from XGBoost's predictions: RMSE (regression) or the mean
/// log-loss with XGBoost's clipping of probabilities to [1e-16, 1 − 1e-16] (binary).
double validation_loss(const float* pred, const std::vector<float>& y_valid, Task task) {
  const auto n = static_cast<double>(y_valid.size());
  double sum = 0.0;
  if (task == Task::Binary) {
    constexpr double kEps = 1e-16;
    for (std::size_t i = 0; i < y_valid.size(); ++i) {
      const double q = std::clamp(static_cast<double>(pred[i]), kEps, 1.0 - kEps);
      sum -= y_valid[i] != 0.0f ? std::log(q) : std::log(1.0 - q);
    }
    return sum / n;
  }
  for (std::size_t i = 0; i < y_valid.size(); ++i) {
    const double d = static_cast<double>(pred[i]) - static_cast<double>(y_valid[i]);
    sum += d * d;
  }
  return std::sqrt(sum / n);
}

class Gbm final : public Estimator {
 public:
  Gbm(const GbmParams& params, Task task) : params_(params), task_(task) {}

  std::string_view name() const override { return kName; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, kName, /*allow_nan_x=*/true);
    if (task_ == Task::Binary) validate_binary_target(y, kName);
    const Index n = X.rows(), p = X.cols();
    const int threads = std::max(1, options.threads);
    Rng rng = Rng::stream(options.seed, 0, 0, Purpose::Fit);
    const std::vector<std::uint8_t> is_valid =
        early_stopping_rows(params_.early_stopping_rounds > 0 ? params_.validation_fraction : 0.0, n, rng);
    const auto xgb_seed = static_cast<std::int64_t>(rng.next_u64() >> 33);  // XGBoost seeds a 32-bit mt19937

    // Train/validation rows in their original order.
    const Index n_valid = std::count(is_valid.begin(), is_valid.end(), std::uint8_t{1});
    Matrix x_train, x_valid;
    std::vector<float> y_train, y_valid;
    const Matrix* train = &X;
    if (n_valid > 0) {
      x_train.resize(n - n_valid, p);
      x_valid.resize(n_valid, p);
      for (Index i = 0, t = 0, v = 0; i < n; ++i) {
        if (is_valid[i]) {
          x_valid.row(v++) = X.row(i);
          y_valid.push_back(static_cast<float>(y[i]));
        } else {
          x_train.row(t++) = X.row(i);
          y_train.push_back(static_cast<float>(y[i]));
        }
      }
      train = &x_train;
    } else {
      for (Index i = 0; i < n; ++i) y_train.push_back(static_cast<float>(y[i]));
    }

    DMatrixPtr dtrain = make_dmatrix(train->data(), train->rows(), p, y_train, threads);
    DMatrixPtr dvalid;
    if (n_valid > 0) dvalid = make_dmatrix(x_valid.data(), n_valid, p, y_valid, threads);

    // Both matrices go into the booster's prediction cache so each round predicts only the newest tree.
    DMatrixHandle cache[2] = {dtrain.get(), dvalid.get()};
    BoosterHandle raw = nullptr;
    BFS_XGB(XGBoosterCreate, cache, n_valid > 0 ? 2 : 1, &raw);
    BoosterPtr booster(raw);
    set_params(raw, threads, xgb_seed, starting_score(y_train, y, is_valid, task_));

    const std::string valid_config = predict_config(0);
    int best_rounds = params_.n_estimators;
    double best_loss = std::numeric_limits<double>::infinity();
    for (int round = 0; round < params_.n_estimators; ++round) {
      BFS_XGB(XGBoosterUpdateOneIter, raw, round, dtrain.get());
      if (n_valid == 0) continue;
      const bst_ulong* shape = nullptr;
      bst_ulong dim = 0;
      const float* pred = nullptr;
      BFS_XGB(XGBoosterPredictFromDMatrix, raw, dvalid.get(), valid_config.c_str(), &shape, &dim, &pred);
      const double loss = validation_loss(pred, y_valid, task_);
      if (loss < best_loss) {
        best_loss = loss;
        best_rounds = round + 1;
      } else if (round + 1 - best_rounds >= params_.early_stopping_rounds) {
        break;
      }
    }
    return std::make_unique<GbmModel>(std::move(booster), p, best_rounds, task_);
  }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override {
    const std::string what = "gbm model bytes";
    std::int64_t p = 0;
    std::int32_t rounds = 0;
    std::uint64_t size = 0, hash = 0;
    const Task other = task_ == Task::Binary ? Task::Regression : Task::Binary;
    if (bytes.starts_with(magic_of(other)) && !bytes.starts_with(magic_of(task_))) {
      throw InputError(
          detail::concat(what, ": a ", name_of(other), " model, but the estimator's task is ", name_of(task_)));
    }
    if (!bytes.starts_with(magic_of(task_))) throw InputError(what + ": not a serialized gbm model");
    bytes.remove_prefix(magic_of(task_).size());
    constexpr std::size_t kHeader = sizeof(p) + sizeof(rounds) + sizeof(size) + sizeof(hash);
    if (bytes.size() < kHeader) throw InputError(what + ": truncated");
    std::memcpy(&p, bytes.data(), sizeof(p));
    std::memcpy(&rounds, bytes.data() + sizeof(p), sizeof(rounds));
    std::memcpy(&size, bytes.data() + sizeof(p) + sizeof(rounds), sizeof(size));
    std::memcpy(&hash, bytes.data() + sizeof(p) + sizeof(rounds) + sizeof(size), sizeof(hash));
    bytes.remove_prefix(kHeader);
    if (p <= 0 || rounds <= 0) throw InputError(what + ": bad header");
    if (size != bytes.size()) throw InputError(what + ": truncated or padded XGBoost model");
    if (fnv1a64(bytes) != hash) throw InputError(what + ": checksum mismatch (corrupted XGBoost model)");

    BoosterHandle raw = nullptr;
    BFS_XGB(XGBoosterCreate, nullptr, 0, &raw);
    BoosterPtr booster(raw);
    BFS_XGB(XGBoosterLoadModelFromBuffer, raw, bytes.data(), static_cast<bst_ulong>(bytes.size()));
    set_param(raw, "nthread", "1");
    bst_ulong features = 0;
    int boosted = 0;
    BFS_XGB(XGBoosterGetNumFeature, raw, &features);
    BFS_XGB(XGBoosterBoostedRounds, raw, &boosted);
    if (static_cast<std::int64_t>(features) != p || rounds > boosted) {
      throw InputError(what + ": header does not match the XGBoost model");
    }
    auto model = std::make_unique<GbmModel>(std::move(booster), p, rounds, task_);
    // One prediction now runs XGBoost's lazy configuration, so later concurrent predict() calls only read.
    const std::vector<float> probe(static_cast<std::size_t>(p), std::numeric_limits<float>::quiet_NaN());
    model->predict_dense(probe.data(), 1, p);
    return model;
  }

 private:
  /// The booster's parameters, in the order regression models have always been configured with.
  void set_params(BoosterHandle raw, int threads, std::int64_t xgb_seed, double base_score) const {
    set_param(raw, "verbosity", "0");
    set_param(raw, "booster", "gbtree");
    if (task_ == Task::Binary) {
      set_param(raw, "objective", "binary:logistic");
      set_param(raw, "eval_metric", "logloss");
    } else {
      set_param(raw, "objective", "reg:squarederror");
    }
    set_param(raw, "tree_method", "hist");
    set_param(raw, "nthread", std::to_string(threads));
    set_param(raw, "seed", std::to_string(xgb_seed));
    set_param(raw, "base_score", format_double(base_score));
    set_param(raw, "eta", format_double(params_.learning_rate));
    set_param(raw, "max_depth", std::to_string(params_.max_depth));
    if (params_.max_leaves > 0) {
      set_param(raw, "grow_policy", "lossguide");
      set_param(raw, "max_leaves", std::to_string(params_.max_leaves));
    }
    set_param(raw, "min_child_weight", format_double(params_.min_child_weight));
    set_param(raw, "lambda", format_double(params_.lambda));
    set_param(raw, "colsample_bytree", format_double(params_.colsample));
    set_param(raw, "subsample", format_double(params_.subsample));
    set_param(raw, "max_bin", std::to_string(params_.max_bin));
  }

  GbmParams params_;
  Task task_;
};

void check_params(const GbmParams& params) {
  const auto bad = [](const char* key, const auto& value, const char* why) {
    throw ConfigError(detail::concat("estimator.gbm.", key, " = ", value, ": ", why));
  };
  check_bounds(params);  // declared once, in the schema; what follows is not a bound
  if (params.max_depth == 0 && params.max_leaves == 0) {
    bad("max_depth", params.max_depth, "0 (no depth limit) needs max_leaves > 0");
  }
}

}  // namespace

std::unique_ptr<Estimator> make_gbm(const GbmParams& params, Task task) {
  check_params(params);
  return std::make_unique<Gbm>(params, task);
}

}  // namespace bfs

// MLP regression: ReLU hidden layers, linear output, loss ½·mean((ŷ − y)²) + l2·||W||²/(2·B) per minibatch of B rows
// (scikit-learn's alpha convention; biases are not penalised), Adam with β1 = 0.9, β2 = 0.999, ε = 1e-8 and the bias
// correction folded into the step size as scikit-learn does (Kingma & Ba 2015, §2). Glorot-uniform initialisation of
// weights and biases with bound sqrt(6/(fan_in + fan_out)) (scikit-learn's _init_coef for ReLU).
// Samples are columns throughout (activations [units × batch]), so a layer is one matrix product, computed by
// serial_product() so that it never runs multi-threaded (see there).
// Task::Binary (scikit-learn's MLPClassifier with one logistic output): the output margin goes through σ, the loss is
// the mean log-loss, and its gradient at the margin is again p − y, so back-propagation is unchanged.
#include "estimators/mlp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/detail/binary.hpp"
#include "estimators/detail/model_text.hpp"

namespace bfs {

namespace {

using Layer = MlpModel::Layer;

/// dst = lhs·rhs on one thread. Eigen's GEMM splits a product over OpenMP threads once rows·cols·depth ≥ 1e5
/// (Parallelizer.h, kMinTaskSize = 5e4), which changes the rounding with OMP_NUM_THREADS and is slow when the cores
/// are busy with other fits. Splitting the result's columns into pieces below that size keeps every piece on the
/// serial GEMM kernel; the pieces depend only on the shapes, so results are bit-identical for any thread count.
template <class Lhs, class Rhs>
void serial_product(Eigen::MatrixXd& dst, const Lhs& lhs, const Rhs& rhs) {
  dst.resize(lhs.rows(), rhs.cols());
  const double per_column = static_cast<double>(lhs.rows()) * static_cast<double>(lhs.cols());
  const Index chunk = std::max<Index>(1, static_cast<Index>(90000.0 / std::max(1.0, per_column)));
  for (Index c = 0; c < rhs.cols(); c += chunk) {
    const Index width = std::min(chunk, rhs.cols() - c);
    dst.middleCols(c, width).noalias() = lhs * rhs.middleCols(c, width);
  }
}

/// Forward pass; acts[0] is the input, acts[l + 1] the output of layer l (ReLU except the last, linear).
void forward(const std::vector<Layer>& layers, std::vector<Eigen::MatrixXd>& acts) {
  const std::size_t L = layers.size();
  for (std::size_t l = 0; l < L; ++l) {
    Eigen::MatrixXd& out = acts[l + 1];
    serial_product(out, layers[l].weights, acts[l]);
    out.colwise() += layers[l].bias;
    if (l + 1 < L) out = out.cwiseMax(0.0);
  }
}

/// Adam state for every parameter (Kingma & Ba 2015, Algorithm 1).
struct Adam {
  static constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
  std::vector<Layer> m, v;
  long long t = 0;

  explicit Adam(const std::vector<Layer>& layers) {
    for (const Layer& layer : layers) {
      m.push_back({Eigen::MatrixXd::Zero(layer.weights.rows(), layer.weights.cols()),
                   Eigen::VectorXd::Zero(layer.bias.size())});
    }
    v = m;
  }
  /// θ ← θ − lr_t·m/(√v + ε) with lr_t = lr·√(1 − β2^t)/(1 − β1^t), t counting minibatches.
  template <class Param, class Grad>
  static void step(Param& theta, const Grad& grad, Param& m, Param& v, double lr_t) {
    m = kBeta1 * m + (1.0 - kBeta1) * grad;
    v = kBeta2 * v + (1.0 - kBeta2) * grad.cwiseProduct(grad);
    theta.array() -= lr_t * m.array() / (v.array().sqrt() + kEps);
  }
};

double mse(const Eigen::MatrixXd& prediction, const Eigen::MatrixXd& target) {
  return (prediction - target).squaredNorm() / static_cast<double>(target.cols());
}

/// Σ over the columns of the log-loss of output margins (1 × B) against 0/1 targets.
double log_loss_sum(const Eigen::MatrixXd& margin, const Eigen::RowVectorXd& target) {
  double total = 0.0;
  for (Index c = 0; c < target.size(); ++c) total += detail::logistic_loss(margin(0, c), target[c]);
  return total;
}

/// The gradient of the summed loss at the output margins (1 × B) into delta — ŷ − y for the squared loss with a
/// linear output, σ(m) − y for the log-loss with a logistic output — and the summed loss (SSE or log-loss).
double output_delta(bool binary, const Eigen::MatrixXd& out, const Eigen::RowVectorXd& target, Eigen::MatrixXd& delta) {
  if (!binary) {
    delta = out.row(0) - target;
    return delta.squaredNorm();
  }
  delta.resize(1, target.size());
  for (Index c = 0; c < target.size(); ++c) delta(0, c) = detail::logistic(out(0, c)) - target[c];
  return log_loss_sum(out, target);
}

class MlpEstimator final : public Estimator {
 public:
  MlpEstimator(const MlpParams& params, Task task) : params_(params), task_(task) {}
  std::string_view name() const override { return "mlp"; }

  std::unique_ptr<Model> fit(const Matrix& X, const Vector& y, const FitOptions& options) const override {
    validate_fit_input(X, y, "mlp", /*allow_nan_x=*/false);
    const bool binary = task_ == Task::Binary;
    if (binary) validate_binary_target(y, "mlp");
    const Index n = X.rows();
    const Index p = X.cols();

    // Standardisation (population sd; a constant column or target keeps sd 1 so it maps to 0).
    const Eigen::MatrixXd xt = X.cast<double>().transpose();  // p × n, one sample per column
    Vector x_mean = xt.rowwise().mean();
    Vector x_sd(p);
    for (Index j = 0; j < p; ++j) {
      const double sd = std::sqrt((xt.row(j).array() - x_mean[j]).square().mean());
      x_sd[j] = sd > 0.0 ? sd : 1.0;
    }
    const Eigen::MatrixXd xs = (xt.colwise() - x_mean).array().colwise() / x_sd.array();
    // A binary target is left as 0/1: the logistic output needs it unscaled.
    const double y_mean = binary ? 0.0 : y.mean();
    const double y_sd_raw = binary ? 1.0 : std::sqrt((y.array() - y_mean).square().mean());
    const double y_sd = y_sd_raw > 0.0 ? y_sd_raw : 1.0;
    const Eigen::RowVectorXd ys = ((y.array() - y_mean) / y_sd).matrix().transpose();

    Rng rng = Rng::stream(options.seed, 0, 0, Purpose::Fit);
    std::vector<Layer> layers = initial_layers(p, rng);

    // Validation split: the first ceil(fraction·n) rows of a random permutation, when that leaves rows to train on.
    std::vector<std::int64_t> perm = rng.permutation(n);
    Index n_val = 0;
    if (params_.validation_fraction > 0.0 && n >= 2) {
      n_val = std::max<Index>(1, static_cast<Index>(std::ceil(params_.validation_fraction * static_cast<double>(n))));
      if (n_val >= n) n_val = 0;
    }
    Eigen::MatrixXd x_val(p, n_val);
    Eigen::RowVectorXd y_val(n_val);
    for (Index i = 0; i < n_val; ++i) {
      x_val.col(i) = xs.col(perm[static_cast<std::size_t>(i)]);
      y_val[i] = ys[perm[static_cast<std::size_t>(i)]];
    }
    std::vector<std::int64_t> train(perm.begin() + n_val, perm.end());
    const Index n_train = static_cast<Index>(train.size());
    const Index batch = std::clamp<Index>(params_.batch_size, 1, n_train);

    const std::size_t L = layers.size();
    std::vector<Eigen::MatrixXd> acts(L + 1), val_acts(L + 1);
    val_acts[0] = x_val;
    Eigen::RowVectorXd target;
    Eigen::MatrixXd delta, next_delta, grad_w;
    Eigen::VectorXd grad_b;
    Adam adam(layers);
    double lr = params_.learning_rate;

    // Early stopping and the adaptive rate. The monitored loss is the validation MSE in standardised target units
    // (the training MSE of the epoch's minibatches when there is no validation set); for a binary target the
    // validation (or training) mean log-loss. scikit-learn's MLPClassifier monitors validation accuracy instead; the
    // log-loss is used here because accuracy on a small validation split moves in steps of 1/n_val and plateaus at
    // once (stopping after `patience` epochs), and because it ignores calibration, which log-loss and AUC reward. An
    // epoch "improves" when the loss drops below best − tol; the count of epochs without improvement resets on an
    // improving epoch. Training stops when the count reaches `patience`. When `adaptive`, the learning rate is divided
    // by 5 each time the count reaches a positive multiple of max(1, patience/2) below `patience` (with patience = 10:
    // after 5 stale epochs). The weights of the epoch with the lowest monitored loss are kept.
    const int half = std::max(1, params_.patience / 2);
    double best = std::numeric_limits<double>::infinity();
    std::vector<Layer> best_layers = layers;
    int stale = 0;
    int epochs = 0;
    bool stopped_early = false;
    for (int epoch = 0; epoch < params_.max_epochs; ++epoch) {
      rng.shuffle(train);
      double train_sse = 0.0;
      for (Index start = 0; start < n_train; start += batch) {
        const Index B = std::min(batch, n_train - start);
        acts[0].resize(p, B);
        target.resize(B);
        for (Index c = 0; c < B; ++c) {
          const auto row = train[static_cast<std::size_t>(start + c)];
          acts[0].col(c) = xs.col(row);
          target[c] = ys[row];
        }
        forward(layers, acts);
        train_sse += output_delta(binary, acts[L], target, delta);
        delta /= static_cast<double>(B);
        ++adam.t;
        const double lr_t = lr * std::sqrt(1.0 - std::pow(Adam::kBeta2, static_cast<double>(adam.t))) /
                            (1.0 - std::pow(Adam::kBeta1, static_cast<double>(adam.t)));
        for (std::size_t l = L; l-- > 0;) {
          serial_product(grad_w, delta, acts[l].transpose());
          grad_w += (params_.l2 / static_cast<double>(B)) * layers[l].weights;
          grad_b = delta.rowwise().sum();
          if (l > 0) {  // back-propagate through the old weights, then step
            serial_product(next_delta, layers[l].weights.transpose(), delta);
            next_delta.array() *= (acts[l].array() > 0.0).cast<double>();
          }
          Adam::step(layers[l].weights, grad_w, adam.m[l].weights, adam.v[l].weights, lr_t);
          Adam::step(layers[l].bias, grad_b, adam.m[l].bias, adam.v[l].bias, lr_t);
          if (l > 0) delta.swap(next_delta);
        }
      }
      epochs = epoch + 1;
      double loss = train_sse / static_cast<double>(n_train);
      if (n_val > 0) {
        forward(layers, val_acts);
        loss = binary ? log_loss_sum(val_acts[L], y_val) / static_cast<double>(n_val) : mse(val_acts[L], y_val);
      }
      if (loss < best - params_.tol) {
        stale = 0;
      } else {
        ++stale;
      }
      if (loss < best) {
        best = loss;
        best_layers = layers;
      }
      if (stale >= params_.patience) {
        stopped_early = true;
        break;
      }
      if (params_.adaptive && stale > 0 && stale % half == 0) lr /= 5.0;
    }
    return std::make_unique<MlpModel>(std::move(best_layers), std::move(x_mean), std::move(x_sd), y_mean, y_sd, epochs,
                                      stopped_early, binary ? Link::Logistic : Link::Identity);
  }

  std::unique_ptr<Model> deserialize(std::string_view bytes) const override { return MlpModel::deserialize(bytes); }

 private:
  /// Glorot-uniform weights and biases in U(−b, b), b = sqrt(6/(fan_in + fan_out)), drawn row by row.
  std::vector<Layer> initial_layers(Index inputs, Rng& rng) const {
    std::vector<Index> dims{inputs};
    for (int h : params_.hidden) dims.push_back(h);
    dims.push_back(1);
    std::vector<Layer> layers;
    for (std::size_t l = 0; l + 1 < dims.size(); ++l) {
      const Index fan_in = dims[l], fan_out = dims[l + 1];
      const double bound = std::sqrt(6.0 / static_cast<double>(fan_in + fan_out));
      Layer layer{Eigen::MatrixXd(fan_out, fan_in), Eigen::VectorXd(fan_out)};
      for (Index o = 0; o < fan_out; ++o) {
        for (Index i = 0; i < fan_in; ++i) layer.weights(o, i) = (2.0 * rng.uniform() - 1.0) * bound;
      }
      for (Index o = 0; o < fan_out; ++o) layer.bias[o] = (2.0 * rng.uniform() - 1.0) * bound;
      layers.push_back(std::move(layer));
    }
    return layers;
  }

  MlpParams params_;
  Task task_;
};

}  // namespace

MlpModel::MlpModel(std::vector<Layer> layers, Vector x_mean, Vector x_sd, double y_mean, double y_sd, int epochs,
                   bool stopped_early, Link link)
    : layers_(std::move(layers)),
      x_mean_(std::move(x_mean)),
      x_sd_(std::move(x_sd)),
      y_mean_(y_mean),
      y_sd_(y_sd),
      epochs_(epochs),
      stopped_early_(stopped_early),
      link_(link) {
  BFS_CHECK(!layers_.empty() && layers_.front().weights.cols() == x_mean_.size() && x_sd_.size() == x_mean_.size());
  // z = W((x − μ)/σ) + b = (W·diag(1/σ))x + (b − (W·diag(1/σ))μ).
  first_.weights = layers_.front().weights * x_sd_.cwiseInverse().asDiagonal();
  first_.bias = layers_.front().bias - first_.weights * x_mean_;
}

Vector MlpModel::predict(const Matrix& X) const {
  if (X.cols() != num_features()) {
    throw InputError(detail::concat("mlp: model has ", num_features(), " features but X has ", X.cols(), " columns"));
  }
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> x = X.cast<double>();
  Eigen::MatrixXd a;
  serial_product(a, first_.weights, x.transpose());
  a.colwise() += first_.bias;
  return predict_from_first_preactivation(a);
}

Vector MlpModel::predict_from_first_preactivation(const Eigen::MatrixXd& Z) const {
  if (Z.rows() != first_.weights.rows()) {
    throw InputError(detail::concat("mlp: pre-activations have ", Z.rows(), " rows, the first layer ",
                                    first_.weights.rows(), " units"));
  }
  const std::size_t L = layers_.size();
  Eigen::MatrixXd a = Z;
  for (std::size_t l = 1; l < L; ++l) {
    a = a.cwiseMax(0.0);
    Eigen::MatrixXd z;
    serial_product(z, layers_[l].weights, a);
    z.colwise() += layers_[l].bias;
    a.swap(z);
  }
  if (link_ == Link::Logistic) {
    Vector out(a.cols());
    for (Index c = 0; c < a.cols(); ++c) out[c] = detail::logistic(a(0, c));
    return out;
  }
  return (a.row(0).transpose().array() * y_sd_ + y_mean_).matrix();
}

std::string MlpModel::serialize() const {
  std::string out = "banditfs-mlp 2\n";
  out += std::string(detail::link_name(link_)) + ' ' + std::to_string(layers_.size()) + ' ' +
         std::to_string(num_features());
  for (const Layer& layer : layers_) out += ' ' + std::to_string(layer.weights.rows());
  out += '\n' + std::to_string(epochs_) + ' ' + (stopped_early_ ? "1" : "0") + '\n';
  detail::append_double(out, y_mean_);
  detail::append_double(out, y_sd_);
  out += '\n';
  for (Index j = 0; j < num_features(); ++j) detail::append_double(out, x_mean_[j]);
  out += '\n';
  for (Index j = 0; j < num_features(); ++j) detail::append_double(out, x_sd_[j]);
  out += '\n';
  for (const Layer& layer : layers_) {
    for (Index o = 0; o < layer.weights.rows(); ++o) {
      for (Index i = 0; i < layer.weights.cols(); ++i) detail::append_double(out, layer.weights(o, i));
    }
    for (Index o = 0; o < layer.bias.size(); ++o) detail::append_double(out, layer.bias[o]);
    out += '\n';
  }
  return out;
}

std::unique_ptr<MlpModel> MlpModel::deserialize(std::string_view bytes) {
  std::istringstream in{std::string(bytes)};
  std::string magic;
  int version = 0;
  if (!(in >> magic >> version) || magic != "banditfs-mlp" || version != 2) {
    throw InputError("mlp: not a serialized mlp model (expected header 'banditfs-mlp 2')");
  }
  const Link link = detail::parse_link(in, "mlp");
  const auto n_layers = static_cast<std::size_t>(detail::parse_int(in, "mlp", "layer count", 1, 1000));
  std::vector<Index> dims{static_cast<Index>(detail::parse_int(in, "mlp", "input count", 1, 1LL << 31))};
  for (std::size_t l = 0; l < n_layers; ++l)
    dims.push_back(static_cast<Index>(detail::parse_int(in, "mlp", "layer width", 1, 1LL << 24)));
  const int epochs = static_cast<int>(detail::parse_int(in, "mlp", "epoch count", 0, 1LL << 31));
  const bool stopped_early = detail::parse_int(in, "mlp", "early-stopping flag", 0, 1) == 1;
  const double y_mean = detail::parse_double(in, "mlp", "target mean");
  const double y_sd = detail::parse_double(in, "mlp", "target sd");
  Vector x_mean(dims[0]), x_sd(dims[0]);
  for (Index j = 0; j < dims[0]; ++j) x_mean[j] = detail::parse_double(in, "mlp", "input means");
  for (Index j = 0; j < dims[0]; ++j) x_sd[j] = detail::parse_double(in, "mlp", "input sds");
  std::vector<Layer> layers;
  for (std::size_t l = 0; l < n_layers; ++l) {
    Layer layer{Eigen::MatrixXd(dims[l + 1], dims[l]), Eigen::VectorXd(dims[l + 1])};
    for (Index o = 0; o < layer.weights.rows(); ++o) {
      for (Index i = 0; i < layer.weights.cols(); ++i) layer.weights(o, i) = detail::parse_double(in, "mlp", "weights");
    }
    for (Index o = 0; o < layer.bias.size(); ++o) layer.bias[o] = detail::parse_double(in, "mlp", "biases");
    layers.push_back(std::move(layer));
  }
  if (dims.back() != 1) throw InputError("mlp: serialized model's output layer must have one unit");
  return std::make_unique<MlpModel>(std::move(layers), std::move(x_mean), std::move(x_sd), y_mean, y_sd, epochs,
                                    stopped_early, link);
}

std::unique_ptr<Estimator> make_mlp(const MlpParams& params, Task task) {
  check_bounds(params);  // declared once, in the schema
  return std::make_unique<MlpEstimator>(params, task);
}

}  // namespace bfs

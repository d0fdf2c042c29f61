#pragma once
// Feed-forward regression network ([Wu §4.3]: hidden layers 64, 32, ReLU, adaptive learning rate, early
// stopping), trained with Adam (Kingma & Ba 2015, "Adam: A method for stochastic optimization", ICLR) on
// standardised inputs and target, in double precision on Eigen. Initialisation, loss and L2 penalty follow
// scikit-learn's MLPRegressor so the paper's settings carry over. With Task::Binary (0/1 targets) it is
// scikit-learn's binary MLPClassifier: one logistic output unit, mean log-loss, the target left unstandardised, and
// predict() returns P(y = 1); early stopping monitors the validation log-loss (mlp.cpp says why not accuracy).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "estimators/estimator.hpp"

namespace bfs {

class MlpModel final : public Model {
 public:
  /// One dense layer: out = weights·in + bias, weights [outputs × inputs].
  struct Layer {
    Eigen::MatrixXd weights;
    Eigen::VectorXd bias;
  };

  /// `layers` act on standardised inputs (x − x_mean)/x_sd and produce the standardised target (ŷ − y_mean)/y_sd
  /// (Link::Identity), or the margin m with ŷ = detail::logistic(m) = P(y = 1) (Link::Logistic; y_mean 0, y_sd 1).
  MlpModel(std::vector<Layer> layers, Vector x_mean, Vector x_sd, double y_mean, double y_sd, int epochs,
           bool stopped_early, Link link = Link::Identity);

  Vector predict(const Matrix& X) const override;
  std::string serialize() const override;
  Index num_features() const override { return x_mean_.size(); }
  /// The first layer with the input standardisation folded in: z = W x + b for a RAW row x. predict() computes the
  /// first pre-activation exactly this way, so a fast path built on it agrees with predict().
  const FirstLayer* first_layer() const override { return &first_; }

  /// The rest of the forward pass from first-layer pre-activations Z = W x + b of first_layer() (hidden × rows,
  /// one row per column), output link included: predict(X) is exactly this applied to its own Z. Used by the MLP
  /// importance fast path, which therefore covers binary networks unchanged.
  Vector predict_from_first_preactivation(const Eigen::MatrixXd& Z) const;

  /// The trained layers (on standardised inputs/target) and the standardisation they expect.
  const std::vector<Layer>& layers() const { return layers_; }
  const Vector& x_mean() const { return x_mean_; }
  const Vector& x_sd() const { return x_sd_; }
  double y_mean() const { return y_mean_; }
  double y_sd() const { return y_sd_; }
  /// Epochs run and whether early stopping ended the training before max_epochs.
  int epochs() const { return epochs_; }
  bool stopped_early() const { return stopped_early_; }
  Link link() const { return link_; }

  static std::unique_ptr<MlpModel> deserialize(std::string_view bytes);

 private:
  std::vector<Layer> layers_;
  Vector x_mean_, x_sd_;
  double y_mean_ = 0.0, y_sd_ = 1.0;
  int epochs_ = 0;
  bool stopped_early_ = false;
  Link link_ = Link::Identity;
  FirstLayer first_;
};

}  // namespace bfs

// The svm estimator: its own predictor equals libsvm's decision function, the CV choice is
// deterministic, models round-trip bit for bit, and it refuses regression targets.
#include <libsvm/svm.h>

#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/estimator.hpp"

using namespace bfs;

namespace {

/// Two overlapping Gaussian classes in 3 columns (the third is noise), y = 1 when the shifted mean was used.
void two_classes(Index n, std::uint64_t seed, Matrix& X, Vector& y) {
  Rng rng(seed);
  X.resize(n, 3);
  y.resize(n);
  for (Index i = 0; i < n; ++i) {
    y[i] = i % 2;
    const double shift = y[i] == 1.0 ? 1.5 : -1.5;
    X(i, 0) = static_cast<float>(shift + rng.normal());
    X(i, 1) = static_cast<float>(0.5 * shift + 2.0 * rng.normal());
    X(i, 2) = static_cast<float>(rng.normal());
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(svm)

BOOST_AUTO_TEST_CASE(predictions_are_libsvms_decision_function) {
  Matrix X;
  Vector y;
  two_classes(80, 3, X, y);
  SvmParams params;
  params.c = 2.0;
  params.gamma = 0.5;
  const auto model = make_svm(params)->fit(X, y, FitOptions{7, 1, {}, nullptr});
  const Vector p = model->predict(X);
  // libsvm on the same standardised rows (population sd), with the same C and gamma.
  const Eigen::MatrixXd x = X.cast<double>();
  const Eigen::RowVectorXd mean = x.colwise().mean();
  Eigen::RowVectorXd sd(3);
  for (Index j = 0; j < 3; ++j) sd[j] = std::sqrt((x.col(j).array() - mean[j]).square().mean());
  std::vector<svm_node> nodes(80 * 4);
  std::vector<svm_node*> rows(80);
  std::vector<double> labels(y.begin(), y.end());
  for (Index i = 0; i < 80; ++i) {
    for (Index j = 0; j < 3; ++j) nodes[i * 4 + j] = {static_cast<int>(j + 1), (x(i, j) - mean[j]) / sd[j]};
    nodes[i * 4 + 3] = {-1, 0.0};
    rows[i] = &nodes[i * 4];
  }
  svm_problem problem{80, labels.data(), rows.data()};
  svm_parameter param{};
  param.svm_type = C_SVC;
  param.kernel_type = RBF;
  param.gamma = 0.5;
  param.C = 2.0;
  param.cache_size = 100;
  param.eps = 1e-3;
  param.shrinking = 1;
  svm_model* reference = svm_train(&problem, &param);
  int correct = 0;
  for (Index i = 0; i < 80; ++i) {
    double decision = 0.0;
    svm_predict_values(reference, rows[i], &decision);
    const double margin = reference->label[0] == 1 ? decision : -decision;
    BOOST_TEST(std::abs(p[i] - 1.0 / (1.0 + std::exp(-margin))) < 1e-12);
    correct += (p[i] > 0.5) == (y[i] == 1.0);
  }
  svm_free_and_destroy_model(&reference);
  BOOST_TEST(correct >= 68);  // the classes overlap a little: well above chance
}

BOOST_AUTO_TEST_CASE(cv_choice_is_deterministic_and_models_round_trip) {
  Matrix X;
  Vector y;
  two_classes(120, 5, X, y);
  const auto estimator = make_svm(SvmParams{});  // C and gamma by 5-fold CV over the grid
  const auto a = estimator->fit(X, y, FitOptions{11, 1, {}, nullptr});
  const auto b = estimator->fit(X, y, FitOptions{11, 2, {}, nullptr});
  BOOST_TEST(a->predict(X) == b->predict(X));
  BOOST_TEST(a->serialize() == b->serialize());
  const auto restored = estimator->deserialize(a->serialize());
  BOOST_TEST(restored->predict(X) == a->predict(X));
  BOOST_TEST(restored->num_features() == 3);
  // Held-out rows of the same design: the CV-tuned SVM classifies most of them.
  Matrix X_test;
  Vector y_test;
  two_classes(200, 6, X_test, y_test);
  const Vector p = a->predict(X_test);
  int correct = 0;
  for (Index i = 0; i < 200; ++i) correct += (p[i] > 0.5) == (y_test[i] == 1.0);
  BOOST_TEST(correct >= 160, "held-out accuracy " << correct << "/200");
}

BOOST_AUTO_TEST_CASE(one_class_training_rows_predict_that_class) {
  Matrix X(6, 2);
  X.setRandom();
  const Vector ones = Vector::Ones(6);
  SvmParams params;
  params.c = 1.0;
  params.gamma = 1.0;
  const auto model = make_svm(params)->fit(X, ones, FitOptions{1, 1, {}, nullptr});
  for (double v : model->predict(X)) BOOST_TEST(v == 1.0);
}

BOOST_AUTO_TEST_CASE(regression_targets_and_bad_labels_are_refused) {
  try {
    EstimatorConfig config;  // the registry refuses a task outside the list's column
    config.name = EstimatorName::Svm;
    make_estimator(config, Task::Regression);
    BOOST_FAIL("svm accepted a regression target");
  } catch (const ConfigError& e) {
    BOOST_TEST(std::string(e.what()).find("data.task = \"binary\"") != std::string::npos);
  }
  Matrix X(4, 1);
  X << 1, 2, 3, 4;
  Vector y(4);
  y << 0, 1, 2, 1;
  BOOST_CHECK_THROW(make_svm(SvmParams{})->fit(X, y, FitOptions{}), InputError);
}

BOOST_AUTO_TEST_SUITE_END()

// Run under mpiexec at 1, 2, 3 and 4 ranks (tests/mpi/CMakeLists.txt). The members of a fit group fit
// one model together (random_forest: each grows its share of the trees; hgb: each scans its share of the columns, over
// histograms of its columns (group_split = "columns") or of all columns summed over the members' row blocks ("rows")).
// Every case fits with the whole world as the group and, on every rank, alone, and asserts the serialized models are
// byte-identical — and that the group really split the work (the members exchanged bytes) whenever it has more than one
// member.
#define BOOST_TEST_MODULE fit_group
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

#include "core/enum_names.hpp"
#include "core/rng.hpp"
#include "dist/runtime.hpp"
#include "estimators/estimator.hpp"
#include "methods/fit_group.hpp"
#include "mpi_session.hpp"

using namespace bfs;

namespace {

/// n rows of friedman1 on the first 5 of p uniform columns (every rank draws the same); every 17th value of column 7
/// NaN when `with_nan`. Binary: y = 1 when the friedman1 mean exceeds its median-ish 14.
struct Data {
  Matrix X;
  Vector y;
};
Data friedman1(Index n, Index p, Task task, bool with_nan) {
  Rng rng = Rng::stream(7, 0, 0, Purpose::Fit);
  Data data{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) data.X(i, j) = static_cast<float>(rng.uniform());
    const auto x = [&](Index j) { return static_cast<double>(data.X(i, j)); };
    const double f =
        10.0 * std::sin(M_PI * x(0) * x(1)) + 20.0 * (x(2) - 0.5) * (x(2) - 0.5) + 10.0 * x(3) + 5.0 * x(4);
    data.y[i] = task == Task::Binary ? (f > 14.0 ? 1.0 : 0.0) : f + rng.normal();
    if (with_nan && p > 7 && i % 17 == 0) data.X(i, 7) = std::numeric_limits<float>::quiet_NaN();
  }
  return data;
}

/// Fits alone and with the world as the group; the models must be the same bytes.
void check_group_fit(const Estimator& estimator, const Data& data) {
  const dist::Runtime runtime = dist::make_runtime(*g_session, 1);
  CommFitGroup group(*runtime.comm);
  FitOptions alone;
  alone.seed = 21;
  FitOptions together = alone;
  together.group = &group;
  const std::string solo = estimator.fit(data.X, data.y, alone)->serialize();
  const std::string shared = estimator.fit(data.X, data.y, together)->serialize();
  BOOST_TEST(shared == solo, estimator.name() << ": the group's model differs from the one fitted alone");
  BOOST_TEST((group.take_bytes_sent() > 0.0) == (group.size() > 1));
}

}  // namespace

BOOST_AUTO_TEST_CASE(random_forest_trees_shared_out_give_the_single_fit_forest) {
  RandomForestParams params;
  params.n_estimators = 13;  // not a multiple of 2, 3 or 4: unequal shares
  params.max_depth = 6;
  params.max_features = 0.5;
  check_group_fit(*make_random_forest(params, Task::Regression), friedman1(300, 12, Task::Regression, false));
  check_group_fit(*make_random_forest(params, Task::Binary), friedman1(300, 12, Task::Binary, false));
}

BOOST_AUTO_TEST_CASE(hgb_split_by_columns_or_by_rows_gives_the_single_fit_trees) {
  for (HgbGroupSplit split : {HgbGroupSplit::Columns, HgbGroupSplit::Rows}) {
    BOOST_TEST_CONTEXT("group_split = " << name_of(split)) {
      HgbParams params;
      params.n_estimators = 12;
      params.max_leaves = 15;
      params.min_samples_leaf = 5;
      params.validation_fraction = 0.1;
      params.early_stopping_rounds = 3;
      params.group_split = split;
      // 1 500 rows = 6 row blocks of 256 and 10 columns: every member of up to 4 holds some of each; NaN rows, and
      // hessians ≠ 1 (binary).
      check_group_fit(*make_hgb(params, Task::Regression), friedman1(1500, 10, Task::Regression, true));
      check_group_fit(*make_hgb(params, Task::Binary), friedman1(1500, 10, Task::Binary, true));
      params.colsample = 0.5;  // a subset of the columns per tree (packed for the allreduce when split by rows)
      check_group_fit(*make_hgb(params, Task::Regression), friedman1(1500, 10, Task::Regression, true));
    }
  }
}

BOOST_AUTO_TEST_CASE(allreduce_sums_every_ranks_integers) {
  const dist::Runtime runtime = dist::make_runtime(*g_session, 1);
  const Comm& comm = *runtime.comm;
  std::vector<std::int64_t> values = {comm.rank() + 1, -(std::int64_t{1} << 40), 7};
  comm.allreduce_sum(values);
  const std::int64_t k = comm.size();
  BOOST_TEST(values[0] == k * (k + 1) / 2);
  BOOST_TEST(values[1] == -k * (std::int64_t{1} << 40));
  BOOST_TEST(values[2] == 7 * k);
}

// Data sources: memory and HDF5 sources, offline vs online, noise features, and make_data_source.
#include <omp.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.hpp"
#include "data/hdf5_io.hpp"
#include "data/source.hpp"
#include "run/data_sources.hpp"
#include "simulate/dgp.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::random_dataset;
using bfs::test::TempDir;

namespace {

Dataset paneled() {
  Dataset d = random_dataset(40, 5);
  d.period_offsets = {0, 12, 30, 40};
  d.period_labels = {1, 2, 3};
  d.truth = {0, 2};
  d.has_truth = true;
  d.origin = "panel";
  return d;
}

bool equal(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(source)

BOOST_AUTO_TEST_CASE(noise_features_do_not_depend_on_the_block_read) {
  Dataset whole = random_dataset(30, 3);
  Dataset a = whole, b = whole;
  a.X = whole.X.topRows(11);
  b.X = whole.X.bottomRows(19);
  append_noise_features(whole, 4, 17, 2, 0);
  append_noise_features(a, 4, 17, 2, 0);
  append_noise_features(b, 4, 17, 2, 11);
  BOOST_TEST(whole.cols() == 7);
  BOOST_TEST(whole.feature_names.back() == "noise4");
  BOOST_TEST(whole.feature_names[3] == "noise1");
  BOOST_TEST(equal(Matrix(whole.X.topRows(11)), a.X));
  BOOST_TEST(equal(Matrix(whole.X.bottomRows(19)), b.X));
  // Another seed or period gives other values.
  Dataset c = random_dataset(30, 3);
  append_noise_features(c, 4, 18, 2, 0);
  BOOST_TEST(c.X(0, 3) != whole.X(0, 3));
}

BOOST_AUTO_TEST_CASE(noise_features_do_not_depend_on_the_thread_count) {
  const int before = omp_get_max_threads();
  Dataset one = random_dataset(257, 2), two = one;
  omp_set_num_threads(1);
  append_noise_features(one, 9, 5, 1, 40);
  omp_set_num_threads(2);
  append_noise_features(two, 9, 5, 1, 40);
  omp_set_num_threads(before);
  BOOST_TEST(std::memcmp(one.X.data(), two.X.data(), sizeof(float) * static_cast<std::size_t>(one.X.size())) == 0);
}

BOOST_AUTO_TEST_CASE(noise_is_standard_normal) {
  Dataset d = random_dataset(5000, 1);
  append_noise_features(d, 2, 3, 0, 0);
  for (Index j = 1; j <= 2; ++j) {
    const double mean = d.X.col(j).cast<double>().mean();
    const double var = (d.X.col(j).cast<double>().array() - mean).square().mean();
    BOOST_TEST(std::abs(mean) < 0.05);
    BOOST_TEST(std::abs(var - 1.0) < 0.06);
  }
  BOOST_TEST(d.X.col(1).cwiseNotEqual(d.X.col(2)).count() == 5000);
}

BOOST_AUTO_TEST_CASE(memory_source_offline_and_online) {
  Dataset d = paneled();
  auto offline = make_memory_source(d, false, 2, 9);
  BOOST_TEST(offline->num_periods() == 1);
  BOOST_TEST(offline->num_features() == 7);
  BOOST_TEST(offline->feature_names().size() == 7u);
  BOOST_TEST(offline->feature_names()[5] == "noise1");
  BOOST_TEST(offline->truth() == d.truth, boost::test_tools::per_element());
  BOOST_TEST(offline->has_truth());
  Dataset all = offline->load_period(0);
  BOOST_TEST(all.rows() == 40);
  BOOST_TEST(equal(Matrix(all.X.leftCols(5)), d.X));
  BOOST_TEST(all.period_offsets.empty());

  auto online = make_memory_source(d, true, 2, 9);
  BOOST_TEST(online->num_periods() == 3);
  for (int k = 0; k < 3; ++k) {
    Dataset part = online->load_period(k);
    const Index first = d.period_offsets[k], count = d.period_offsets[k + 1] - first;
    BOOST_TEST(part.rows() == count);
    BOOST_TEST(equal(part.X, Matrix(all.X.middleRows(first, count))));  // noise columns too
    BOOST_TEST((part.y == d.y.segment(first, count)));
  }
  BOOST_CHECK_THROW(online->load_period(3), InternalError);

  Dataset flat = random_dataset(10, 2);
  BOOST_TEST(make_memory_source(flat, true, 0, 1)->num_periods() == 1);
  flat.feature_names[1] = "noise2";
  expect_error<InputError>([&] { make_memory_source(flat, false, 3, 1); }, "column 'noise2' clashes");
  flat.X(0, 0) = std::nanf("");  // a missing cell
  flat.feature_names[1] = "x2";
  BOOST_CHECK_NO_THROW(make_memory_source(flat, false, 0, 1));
  flat.X(0, 0) = std::numeric_limits<float>::infinity();
  BOOST_CHECK_THROW(make_memory_source(flat, false, 0, 1), InputError);
}

BOOST_AUTO_TEST_CASE(hdf5_source_reads_periods_and_matches_memory) {
  TempDir dir;
  const std::string path = dir.file("panel.h5");
  Dataset d = paneled();
  write_hdf5(d, path);
  auto offline = make_hdf5_source(path, false, 3, 21);
  auto online = make_hdf5_source(path, true, 3, 21);
  auto memory = make_memory_source(d, true, 3, 21);
  BOOST_TEST(offline->num_periods() == 1);
  BOOST_TEST(online->num_periods() == 3);
  BOOST_TEST(online->num_features() == 8);
  BOOST_TEST(online->feature_names() == memory->feature_names(), boost::test_tools::per_element());
  BOOST_TEST(online->truth() == d.truth, boost::test_tools::per_element());
  BOOST_TEST(online->has_truth());
  Dataset all = offline->load_period(0);
  BOOST_TEST(all.rows() == 40);
  for (int k = 0; k < 3; ++k) {
    Dataset part = online->load_period(k);
    const Index first = d.period_offsets[k], count = d.period_offsets[k + 1] - first;
    BOOST_TEST(equal(part.X, Matrix(all.X.middleRows(first, count))));
    BOOST_TEST(equal(part.X, memory->load_period(k).X));
    BOOST_TEST((part.y == d.y.segment(first, count)));
  }
  BOOST_TEST(online->describe().find(path) != std::string::npos);
  expect_error<InputError>([&] { make_hdf5_source(dir.file("gone.h5"), true, 0, 1); }, "no such file");
}

BOOST_AUTO_TEST_CASE(make_data_source_dispatches_on_data_source) {
  TempDir dir;
  DataConfig c;
  c.source = SourceKind::Simulate;
  c.dgp = Dgp::Linear;
  c.n = 50;
  c.p = 8;
  c.periods = 3;
  c.noise_features = 2;
  // seed 0 ⇒ run seed
  auto s = make_data_source(c, 77, true);
  SimulateSpec spec{Dgp::Linear, 50, 8, 77};
  auto ref = make_simulated_source(spec, 3, true, 2);
  BOOST_TEST(s->num_periods() == 3);
  BOOST_TEST(s->num_features() == 10);
  BOOST_TEST(equal(s->load_period(2).X, ref->load_period(2).X));
  c.seed = 5;
  BOOST_TEST(!equal(make_data_source(c, 77, true)->load_period(0).X, ref->load_period(0).X));
  BOOST_TEST(make_data_source(c, 77, false)->num_periods() == 1);

  const std::string h5 = dir.file("d.h5");
  write_hdf5(paneled(), h5);
  c = DataConfig{};
  c.source = SourceKind::Hdf5;
  expect_error<ConfigError>([&] { make_data_source(c, 1, false); },
                            "data.path is required when data.source = \"hdf5\"");
  c.path = h5;
  BOOST_TEST(make_data_source(c, 1, true)->num_periods() == 3);
  c.features = {"x1"};
  expect_error<ConfigError>([&] { make_data_source(c, 1, true); }, "data.features");

  c = DataConfig{};
  c.source = SourceKind::Csv;
  c.path = dir.write("d.csv", "a,b,y\n1,2,3\n4,5,6\n");
  expect_error<ConfigError>([&] { make_data_source(c, 1, false); }, "data.target");
  c.target = "y";
  c.features = {"b"};
  auto csv = make_data_source(c, 1, true);
  BOOST_TEST(csv->num_periods() == 1);
  BOOST_TEST(csv->feature_names() == std::vector<std::string>({"b"}), boost::test_tools::per_element());
  BOOST_TEST(csv->load_period(0).X(1, 0) == 5.0f);

  // data.source is an enum read once by the job parser, which names the key for "parquet" (test_schema).
  BOOST_TEST(!enum_from_name<SourceKind>("parquet").has_value());
}

BOOST_AUTO_TEST_SUITE_END()

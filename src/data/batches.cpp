#include "data/batches.hpp"

#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace bfs {

namespace {

/// The rows of `data` at `rows`, in that order.
Dataset take_rows(const Dataset& data, const std::vector<Index>& rows) {
  Dataset out;
  out.X.resize(static_cast<Index>(rows.size()), data.cols());
  out.y.resize(static_cast<Index>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.X.row(static_cast<Index>(i)) = data.X.row(rows[i]);
    out.y[static_cast<Index>(i)] = data.y[rows[i]];
  }
  out.feature_names = data.feature_names;
  out.layout = data.layout;
  out.truth = data.truth;
  out.has_truth = data.has_truth;
  out.origin = data.origin;
  return out;
}

/// Every period of `inner` stacked, with period_offsets marking them.
Dataset load_all(DataSource& inner) {
  Dataset all;
  std::vector<Dataset> parts;
  Index rows = 0;
  all.period_offsets.push_back(0);
  for (int k = 0; k < inner.num_periods(); ++k) {
    parts.push_back(inner.load_period(k));
    rows += parts.back().rows();
    all.period_offsets.push_back(rows);
  }
  all.X.resize(rows, parts.empty() ? static_cast<Index>(inner.num_features()) : parts.front().cols());
  all.y.resize(rows);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    all.X.middleRows(all.period_offsets[k], parts[k].rows()) = parts[k].X;
    all.y.segment(all.period_offsets[k], parts[k].rows()) = parts[k].y;
  }
  all.feature_names = inner.feature_names();
  all.layout = inner.layout();
  all.missing = inner.missing();
  all.rows_without_target = inner.rows_without_target();
  all.truth = inner.truth();
  all.has_truth = inner.has_truth();
  all.origin = inner.describe();
  return all;
}

/// Serves batches of rows of an in-memory data set; subclasses say which rows batch k holds.
class InMemoryBatches : public DataSource {
 public:
  InMemoryBatches(std::unique_ptr<DataSource> inner, Dataset all) : inner_(std::move(inner)), all_(std::move(all)) {}
  Index num_features() const override { return all_.features(); }
  FeatureLayout layout() const override { return all_.layout; }
  std::vector<std::int64_t> missing() const override { return all_.missing; }
  std::int64_t rows_without_target() const override { return all_.rows_without_target; }
  const std::vector<std::string>& feature_names() const override { return all_.feature_names; }
  const std::vector<FeatureId>& truth() const override { return all_.truth; }
  bool has_truth() const override { return all_.has_truth; }

 protected:
  std::unique_ptr<DataSource> inner_;
  Dataset all_;
};

class BatchedSource final : public InMemoryBatches {
 public:
  BatchedSource(std::unique_ptr<DataSource> inner, Dataset all, std::int64_t batch_size)
      : InMemoryBatches(std::move(inner), std::move(all)), batch_size_(batch_size) {}
  int num_periods() const override { return static_cast<int>((all_.rows() + batch_size_ - 1) / batch_size_); }
  Dataset load_period(int k) override {
    const Index begin = static_cast<Index>(k) * batch_size_;
    const Index end = std::min<Index>(begin + batch_size_, all_.rows());
    std::vector<Index> rows;
    for (Index i = begin; i < end; ++i) rows.push_back(i);
    return take_rows(all_, rows);
  }
  std::string describe() const override {
    return detail::concat(inner_->describe(), " in batches of ", batch_size_, " rows");
  }

 private:
  std::int64_t batch_size_;
};

class BootstrapPasses final : public InMemoryBatches {
 public:
  BootstrapPasses(std::unique_ptr<DataSource> inner, Dataset all, int passes, std::uint64_t seed)
      : InMemoryBatches(std::move(inner), std::move(all)), passes_(passes), seed_(seed) {}
  int num_periods() const override { return passes_ * all_.num_periods(); }
  Dataset load_period(int v) override {
    const int batches = all_.num_periods();
    const int pass = v / batches, k = v % batches;
    if (pass != resampled_pass_) resample(pass);
    std::vector<Index> rows;
    for (Index i = all_.period_offsets[static_cast<std::size_t>(k)];
         i < all_.period_offsets[static_cast<std::size_t>(k) + 1]; ++i)
      rows.push_back(order_[static_cast<std::size_t>(i)]);
    return take_rows(all_, rows);
  }
  std::string describe() const override {
    return detail::concat(inner_->describe(), ", ", passes_, " passes, re-batched by bootstrap after the first");
  }

 private:
  void resample(int pass) {
    const auto n = static_cast<std::size_t>(all_.rows());
    order_.resize(n);
    if (pass == 0) {
      for (std::size_t i = 0; i < n; ++i) order_[i] = static_cast<Index>(i);
    } else {
      Rng rng = Rng::stream(seed_, static_cast<std::uint64_t>(pass), 0, Purpose::Shuffle);
      for (std::size_t i = 0; i < n; ++i) order_[i] = static_cast<Index>(rng.uniform_int(n));
    }
    resampled_pass_ = pass;
  }

  int passes_;
  std::uint64_t seed_;
  int resampled_pass_ = -1;
  std::vector<Index> order_;  ///< the rows of the current pass, in batch order
};

}  // namespace

std::unique_ptr<DataSource> with_batches(std::unique_ptr<DataSource> inner, std::int64_t batch_size) {
  if (inner->num_periods() != 1)
    throw ConfigError(detail::concat("data.batch_size cuts a data set without periods into batches, but ",
                                     inner->describe(), " has ", inner->num_periods(), " periods"));
  Dataset all = load_all(*inner);
  if (batch_size < 1 || batch_size > all.rows())
    throw ConfigError(detail::concat("data.batch_size = ", batch_size, " is out of range: ", inner->describe(),
                                     " has n = ", all.rows(), " rows, and a batch needs 1..n of them"));
  all.period_offsets.clear();
  return std::make_unique<BatchedSource>(std::move(inner), std::move(all), batch_size);
}

std::unique_ptr<DataSource> with_bootstrap_passes(std::unique_ptr<DataSource> inner, int passes, std::uint64_t seed) {
  BFS_CHECK(passes >= 1, "passes ", passes);
  Dataset all = load_all(*inner);
  return std::make_unique<BootstrapPasses>(std::move(inner), std::move(all), passes, seed);
}

}  // namespace bfs

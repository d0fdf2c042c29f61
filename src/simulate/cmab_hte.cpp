// [CMAB §3.1]'s design; the formulas and the random streams are in cmab_hte.hpp.
#include "simulate/cmab_hte.hpp"

#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "data/dataset.hpp"

namespace bfs {

namespace {

constexpr std::uint64_t kColumnSlot = 1, kArmSlot = 2, kRewardSlot = 3;
constexpr int kArms = 3;
constexpr int kHte = 5;        // x1..x5
constexpr int kRowInputs = 7;  // η reads x1..x7

struct Moments {
  double mean, sd;
};

/// Exact N(0,1) moments of g_j: E max(x,0) = 1/√(2π), E max(x,0)² = 1/2, E sin²(πx) = (1 − e^{−2π²})/2.
const std::array<Moments, kHte>& moments() {
  static const std::array<Moments, kHte> m = {{
      {0.0, 1.0},
      {1.0, std::sqrt(2.0)},
      {0.0, std::sqrt(15.0)},
      {1.0 / std::sqrt(2.0 * std::numbers::pi), std::sqrt(0.5 - 1.0 / (2.0 * std::numbers::pi))},
      {0.0, std::sqrt((1.0 - std::exp(-2.0 * std::numbers::pi * std::numbers::pi)) / 2.0)},
  }};
  return m;
}

double g(int j, double x) {
  switch (j) {
    case 1:
      return x;
    case 2:
      return x * x;
    case 3:
      return x * x * x;
    case 4:
      return x > 0.0 ? x : 0.0;
    case 5:
      return std::sin(std::numbers::pi * x);
    default:
      break;
  }
  throw InternalError(detail::concat("cmab_hte_h: j = ", j, " is not one of 1..5"));
}

Rng column_stream(std::uint64_t seed, Index j) {
  return Rng::stream(seed, 0, kColumnSlot, Purpose::Simulate, static_cast<std::uint64_t>(j));
}

class CmabHteSource final : public LoggedSource {
 public:
  CmabHteSource(Index n, Index p, std::uint64_t seed) : seed_(seed) {
    header_.origin = detail::concat("simulate cmab-hte (seed ", seed, ")");
    header_.rows = n;
    header_.cols = p;
    header_.feature_names = default_feature_names(p);
    header_.categorical.assign(static_cast<std::size_t>(p), 0);
    header_.category_labels.resize(static_cast<std::size_t>(p));
    header_.arm_labels = {"arm0", "arm1", "arm2"};
    header_.truth = {0, 1, 2, 3, 4};
    header_.has_truth = true;
    header_.correlational = {5, 6};
    draw_arms_and_rewards();
    check_logged_header(header_);
  }
  const LoggedHeader& header() const override { return header_; }
  std::vector<float> columns(Index first, Index count) const override {
    BFS_CHECK(first >= 0 && count >= 0 && first + count <= header_.cols, "columns [", first, ", ", first + count,
              ") of ", header_.cols);
    const Index n = header_.rows;
    std::vector<float> out(static_cast<std::size_t>(n * count));
    for (Index c = 0; c < count; ++c) {
      Rng rng = column_stream(seed_, first + c);
      float* column = out.data() + c * n;
      for (Index i = 0; i < n; ++i) column[i] = static_cast<float>(rng.normal());
    }
    return out;
  }

 private:
  /// x1..x7 from their own streams side by side (one value each per row), so nothing of X is kept.
  void draw_arms_and_rewards() {
    const Index n = header_.rows;
    std::vector<Rng> inputs;
    for (Index j = 0; j < kRowInputs; ++j) inputs.push_back(column_stream(seed_, j));
    Rng arm_rng = Rng::stream(seed_, 0, kArmSlot, Purpose::Simulate, 0);
    Rng reward_rng = Rng::stream(seed_, 0, kRewardSlot, Purpose::Simulate, 0);
    header_.arm.resize(static_cast<std::size_t>(n));
    header_.reward.resize(static_cast<std::size_t>(n));
    std::array<std::int64_t, kArms> rows_of{};
    std::array<float, kRowInputs> x{};
    for (Index i = 0; i < n; ++i) {
      for (int j = 0; j < kRowInputs; ++j) x[static_cast<std::size_t>(j)] = static_cast<float>(inputs[j].normal());
      const auto arm = static_cast<int>(arm_rng.uniform_int(kArms));
      const double eta = cmab_hte_eta(x, arm);
      header_.arm[static_cast<std::size_t>(i)] = arm;
      header_.reward[static_cast<std::size_t>(i)] = reward_rng.uniform() < 1.0 / (1.0 + std::exp(-eta)) ? 1 : 0;
      ++rows_of[static_cast<std::size_t>(arm)];
    }
    for (int a = 0; a < kArms; ++a) {
      if (rows_of[static_cast<std::size_t>(a)] == 0) {
        throw ConfigError(detail::concat("simulate cmab-hte: n = ", n, " rows gave arm", a, " no rows (seed ", seed_,
                                         "); take a larger n"));
      }
    }
  }

  std::uint64_t seed_;
  LoggedHeader header_;
};

}  // namespace

double cmab_hte_h(int j, double x) {
  const double value = g(j, x);
  const Moments& m = moments()[static_cast<std::size_t>(j - 1)];
  return (value - m.mean) / m.sd;
}

double cmab_hte_eta(std::span<const float> x, int arm) {
  BFS_CHECK(x.size() >= static_cast<std::size_t>(kRowInputs), "a row of ", x.size(), " values");
  BFS_CHECK(arm >= 0 && arm < kArms, "arm ", arm);
  static const double base = std::log(0.1 / 0.9);  // logit(0.1)
  double eta = base + 0.5 * x[5] - 0.5 * x[6];
  if (arm == 1) eta += 0.5 * (cmab_hte_h(1, x[0]) + cmab_hte_h(2, x[1]));
  if (arm == 2) eta += 0.5 * (cmab_hte_h(3, x[2]) + cmab_hte_h(4, x[3]) + cmab_hte_h(5, x[4]));
  return eta;
}

std::unique_ptr<LoggedSource> simulate_cmab_hte(Index n, Index p, std::uint64_t seed) {
  if (p < kCmabHteMinFeatures) {
    throw ConfigError(detail::concat("simulate cmab-hte: p = ", p, " is below ", kCmabHteMinFeatures,
                                     " (x1..x5 with treatment effects, x6, x7 correlational, 3 irrelevant)"));
  }
  if (n < 2) throw ConfigError(detail::concat("simulate cmab-hte: n = ", n, " rows; a log needs at least 2"));
  return std::make_unique<CmabHteSource>(n, p, seed);
}

}  // namespace bfs

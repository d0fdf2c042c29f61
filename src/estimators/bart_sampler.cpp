// The BART sampler: birth/death (and optional change) Metropolis–Hastings steps per tree, leaf values, σ², DART.
// The algorithm and its sources are in bart.hpp; the move ratios are detail/bart_tree.hpp's.
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "estimators/bart.hpp"
#include "estimators/detail/bart_lanes.hpp"

namespace bfs::bart {

namespace {

constexpr double kBirthProbability = 0.5;  // the package's pb
constexpr double kMinLeafRows = 5.0;       // the package rejects a birth leaving fewer rows in a child

/// Which rows each node of one tree holds: per row its leaf, and per leaf its rows in ascending order. Sums over a
/// leaf's rows therefore run in row order, the order a pass over all rows would take: the lists only skip rows.
struct TreeRows {
  std::vector<std::int32_t> leaf_of;
  std::vector<std::vector<std::int32_t>> rows;  ///< per node id (empty for internal and free nodes)

  explicit TreeRows(Index n) : leaf_of(static_cast<std::size_t>(n), 0), rows(1) {
    rows[0].resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < rows[0].size(); ++i) rows[0][i] = static_cast<std::int32_t>(i);
  }
  std::vector<std::int32_t>& of(std::int32_t id) {
    if (static_cast<std::size_t>(id) >= rows.size()) rows.resize(static_cast<std::size_t>(id) + 1);
    return rows[static_cast<std::size_t>(id)];
  }
  /// Moves the rows of `from` (ascending; not a list of this tree's) to left/right by the rule bin ≤ cut on a
  /// column's bins, keeping the order. Branch-free: each row is written to both lists and only one count advances
  /// (which side a row takes is a coin flip to the branch predictor). The lists keep their capacity from earlier
  /// use: no allocation once the tree has grown.
  void split(const std::vector<std::int32_t>& from, std::int32_t left, std::int32_t right, const std::uint16_t* bins,
             std::int32_t cut) {
    of(std::max(left, right));  // both lists exist before references to them are taken
    std::vector<std::int32_t>& l = of(left);
    std::vector<std::int32_t>& r = of(right);
    l.resize(from.size());
    r.resize(from.size());
    std::size_t n_left = 0, n_right = 0;
    for (std::int32_t i : from) {
      const bool goes_left = bins[i] <= cut;
      l[n_left] = i;
      r[n_right] = i;
      n_left += static_cast<std::size_t>(goes_left);
      n_right += static_cast<std::size_t>(!goes_left);
      leaf_of[static_cast<std::size_t>(i)] = goes_left ? left : right;
    }
    l.resize(n_left);
    r.resize(n_right);
  }
  /// The rows of two nodes in one ascending list, into out (not one of this tree's lists, unless a and b exist).
  void merge(std::int32_t a, std::int32_t b, std::vector<std::int32_t>& out) {
    out.resize(of(a).size() + of(b).size());
    std::merge(of(a).begin(), of(a).end(), of(b).begin(), of(b).end(), out.begin());
  }
};

class Sampler {
 public:
  Sampler(const BinnedColumns& columns, const Vector& y, const BartParams& params, const Prior& prior, Rng& rng,
          const SamplerOptions& options)
      : columns_(columns),
        y_(y),
        params_(params),
        prior_(prior),
        rng_(rng),
        options_(options),
        trees_(static_cast<std::size_t>(params.n_estimators)),
        rows_(trees_.size(), TreeRows(y.size())),
        fit_(Vector::Zero(y.size())),
        residual_(static_cast<std::size_t>(y.size())),
        sigma_(prior.sigma_hat),
        split_counts_(columns.cuts.size(), 0.0),
        theta_grid_(params.sparse_a, params.sparse_b, static_cast<double>(columns.cuts.size()), columns.cuts.size()) {
    const auto p = static_cast<double>(columns.cuts.size());
    dart_.log_s.assign(columns.cuts.size(), -std::log(p));
    s_.assign(columns.cuts.size(), 1.0 / p);
  }

  SamplerOutput run() {
    SamplerOutput out;
    out.mean_splits.assign(columns_.cuts.size(), 0.0);
    out.mean_fit = Vector::Zero(y_.size());
    begin_tree(0);
    for (int sweep = 0; sweep < params_.sweeps; ++sweep) {
      for (std::size_t j = 0; j < trees_.size(); ++j) update_tree(j);
      update_forest_fit();
      if (options_.likelihood) draw_sigma();
      if (params_.sparse && sweep >= params_.sweeps / 2) update_dart();
      if (sweep + 1 > params_.burn) {
        if (out.kept_sweeps == 0) reserve_arena(params_.sweeps - sweep, out.kept_trees);
        for (const SamplerTree& tree : trees_) keep(tree, out.kept_trees);
        for (std::size_t v = 0; v < split_counts_.size(); ++v) out.mean_splits[v] += split_counts_[v];
        out.mean_fit += fit_;
        ++out.kept_sweeps;
      }
      if (options_.on_sweep) options_.on_sweep(sweep, trees_);
    }
    if (out.kept_sweeps > 0) {
      for (double& v : out.mean_splits) v /= out.kept_sweeps;
      out.mean_fit /= out.kept_sweeps;
    }
    out.last_splits = split_counts_;
    out.last_sigma = sigma_;
    return out;
  }

 private:
  std::span<const std::int32_t> cut_counts() const { return columns_.cut_counts; }
  /// α(1 + d)^−β, from a table (one pow per depth and fit, not per move).
  double grow_probability(std::int32_t depth) const {
    const auto d = static_cast<std::size_t>(depth);
    if (d >= grow_table_.size()) {
      const std::size_t from = grow_table_.size();
      grow_table_.resize(d + 1);
      for (std::size_t k = from; k <= d; ++k)
        grow_table_[k] = params_.alpha / std::pow(1.0 + static_cast<double>(k), params_.beta);
    }
    return grow_table_[d];
  }
  /// The package's pgrow: α(1 + d)^−β for a node that can split, 0 otherwise.
  double grow_if_splittable(const SamplerTree& tree, std::int32_t id) const {
    return tree.can_split(id, cut_counts()) ? grow_probability(tree.node(id).depth) : 0.0;
  }

  /// Tree j's residual r = y − (the other trees' fit) and its leaves' residual sums.
  void begin_tree(std::size_t j) {
    const SamplerTree& tree = trees_[j];
    const TreeRows& rows = rows_[j];
    lane_sum_.assign(static_cast<std::size_t>(tree.capacity()) * kLanes, 0.0);
    for (std::size_t i = 0; i < residual_.size(); ++i) {
      const std::int32_t leaf = rows.leaf_of[i];
      const double r = y_[static_cast<Index>(i)] - fit_[static_cast<Index>(i)] + tree.node(leaf).mu;
      residual_[i] = r;
      lane_sum_[static_cast<std::size_t>(leaf) * kLanes + lane_of(i)] += r;
    }
    leaf_sums_from_lanes(tree.capacity());
  }
  /// The forest's fit per row, from the first tree's residual (the last tree's pass began it): y − r + μ_0.
  void update_forest_fit() {
    leaf_values(trees_[0], mu_now_);
    bart::forest_fit({y_.data(), static_cast<std::size_t>(y_.size())}, residual_, rows_[0].leaf_of, mu_now_,
                     {fit_.data(), static_cast<std::size_t>(fit_.size())});
  }
  void leaf_sums_from_lanes(std::int32_t capacity) {
    leaf_sum_.resize(static_cast<std::size_t>(capacity));
    for (std::size_t id = 0; id < leaf_sum_.size(); ++id) leaf_sum_[id] = lane_total(&lane_sum_[id * kLanes]);
  }

  /// One tree, its residual and leaf sums ready (begin_tree): one move, which re-sums only the leaves it changes,
  /// with the lane sums of their rows (every sum is the one a full pass after the move would give); its leaf values;
  /// then one pass that moves the residual on to the next tree, r − μ_this + μ_next (the first again after the last:
  /// its residual does not depend on σ or DART's s, drawn in between; update_forest_fit then gives σ its fit).
  void update_tree(std::size_t j) {
    SamplerTree& tree = trees_[j];
    TreeRows& rows = rows_[j];
    if (params_.change_prob > 0.0 && rng_.uniform() < params_.change_prob)
      change_step(tree, rows);
    else
      birth_or_death_step(tree, rows);
    draw_leaf_values(tree, rows);
    const std::size_t next = (j + 1) % trees_.size();
    const SamplerTree& next_tree = trees_[next];
    const TreeRows& next_rows = rows_[next];
    leaf_values(tree, mu_now_);
    leaf_values(next_tree, mu_next_);
    lane_sum_.resize(mu_next_.size() * kLanes);
    next_tree.leaves(leaves_);
    advance_residual(residual_, rows.leaf_of, mu_now_, next_rows.leaf_of, mu_next_, leaves_, lane_sum_);
    leaf_sums_from_lanes(next_tree.capacity());
  }
  /// μ per node id (a leaf's value; internal and free nodes hold what they hold, and no row points at them).
  static void leaf_values(const SamplerTree& tree, std::vector<double>& mu) {
    mu.resize(static_cast<std::size_t>(tree.capacity()));
    for (std::int32_t id = 0; id < tree.capacity(); ++id) mu[static_cast<std::size_t>(id)] = tree.node(id).mu;
  }

  void set_leaf_sum(std::int32_t id, double sum) {
    if (static_cast<std::size_t>(id) >= leaf_sum_.size()) leaf_sum_.resize(static_cast<std::size_t>(id) + 1, 0.0);
    leaf_sum_[static_cast<std::size_t>(id)] = sum;
  }

  void birth_or_death_step(SamplerTree& tree, TreeRows& rows) {
    std::vector<std::int32_t>& good_leaves = good_leaves_;
    good_leaves.clear();
    tree.leaves(leaves_);
    for (std::int32_t id : leaves_)
      if (tree.can_split(id, cut_counts())) good_leaves.push_back(id);
    const double birth = good_leaves.empty() ? 0.0 : (tree.size() == 1 ? 1.0 : kBirthProbability);
    if (rng_.uniform() < birth)
      birth_step(tree, rows, good_leaves, birth);
    else
      death_step(tree, rows, good_leaves, birth);
  }

  /// Left/right counts and residual sums of `rows` (ascending) under the rule (v, c). Branch-free: which side a
  /// row goes to is a coin flip to the branch predictor.
  SplitSums sums_of_split(const std::vector<std::int32_t>& rows, std::int32_t v, std::int32_t c) const {
    std::array<LaneSums, 2> sums{};  // [0] left, [1] right
    std::size_t n_right = 0;
    const std::uint16_t* bins = columns_.column(v);
    for (std::int32_t i : rows) {
      const auto right = static_cast<std::size_t>(bins[i] > c);
      const auto row = static_cast<std::size_t>(i);
      sums[right][lane_of(row)] += residual_[row];
      n_right += right;
    }
    SplitSums s;
    s.n_right = static_cast<double>(n_right);
    s.n_left = static_cast<double>(rows.size() - n_right);
    s.sum_left = lane_total(sums[0].data());
    s.sum_right = lane_total(sums[1].data());
    return s;
  }
  /// A nog node's two leaves: their sums are the tree's leaf sums already (one move per tree update, and every
  /// leaf sum is its rows' lane sum however it was reached).
  SplitSums sums_of_children(const SamplerTree& tree, std::int32_t id, TreeRows& rows) const {
    const Node& n = tree.node(id);
    return {static_cast<double>(rows.of(n.left).size()), leaf_sum_[static_cast<std::size_t>(n.left)],
            static_cast<double>(rows.of(n.right).size()), leaf_sum_[static_cast<std::size_t>(n.right)]};
  }
  double sum_of(const std::vector<std::int32_t>& rows) const {
    LaneSums sum{};
    for (std::int32_t i : rows) sum[lane_of(static_cast<std::size_t>(i))] += residual_[static_cast<std::size_t>(i)];
    return lane_total(sum.data());
  }
  /// log u < min(0, log ratio); u < 1, so a ratio ≥ 1 accepts without the log (u is drawn either way).
  bool accept(double log_ratio) {
    const double u = rng_.uniform();
    return log_ratio >= 0.0 || std::log(u) < log_ratio;
  }
  bool too_small(const SplitSums& s) const {
    return options_.likelihood && (s.n_left < kMinLeafRows || s.n_right < kMinLeafRows);
  }
  double likelihood_part(const SplitSums& s) const {
    return options_.likelihood ? split_log_likelihood(s, sigma_, prior_.tau) : 0.0;
  }

  /// A split column for node id: uniform over the columns with a cut left, or DART's s restricted to them.
  std::int32_t draw_column(const std::vector<std::int32_t>& good) {
    if (!params_.sparse) return good[rng_.uniform_int(good.size())];
    double total = 0.0;
    for (std::int32_t v : good) total += s_[static_cast<std::size_t>(v)];
    if (!(total > 0.0)) return good[rng_.uniform_int(good.size())];
    double u = rng_.uniform() * total;
    for (std::int32_t v : good) {
      u -= s_[static_cast<std::size_t>(v)];
      if (u < 0.0) return v;
    }
    return good.back();
  }

  void birth_step(SamplerTree& tree, TreeRows& rows, const std::vector<std::int32_t>& good_leaves, double birth) {
    const std::int32_t leaf = good_leaves[rng_.uniform_int(good_leaves.size())];
    std::vector<std::int32_t>& good = good_vars_;
    tree.good_vars(leaf, cut_counts(), good);
    const std::int32_t v = draw_column(good);
    const CutRange r = tree.range(leaf, v, columns_.cut_counts[static_cast<std::size_t>(v)]);
    const auto c =
        static_cast<std::int32_t>(r.lower + rng_.uniform_int(static_cast<std::uint64_t>(r.upper - r.lower) + 1));

    BirthProbabilities p;
    const std::int32_t depth = tree.node(leaf).depth;
    p.grow_node = grow_probability(depth);
    const double child_grow = grow_probability(depth + 1);
    p.grow_left = (good.size() > 1 || c - 1 >= r.lower) ? child_grow : 0.0;
    p.grow_right = (good.size() > 1 || c + 1 <= r.upper) ? child_grow : 0.0;
    const bool new_tree_can_birth = good_leaves.size() > 1 || p.grow_left > 0.0 || p.grow_right > 0.0;
    p.death_after = new_tree_can_birth ? 1.0 - kBirthProbability : 1.0;
    const std::int32_t parent = tree.node(leaf).parent;
    tree.nogs(nogs_);
    const auto nogs = static_cast<double>(nogs_.size());
    p.pick_nog_after = parent < 0 ? 1.0 : (tree.is_nog(parent) ? 1.0 / nogs : 1.0 / (nogs + 1.0));
    p.pick_bottom = 1.0 / static_cast<double>(good_leaves.size());
    p.birth = birth;

    const SplitSums s = sums_of_split(rows.of(leaf), v, c);
    if (too_small(s)) return;
    if (!accept(birth_log_prior_ratio(p) + likelihood_part(s))) return;
    tree.birth(leaf, v, c, 0.0, 0.0);
    const std::int32_t left = tree.node(leaf).left, right = tree.node(leaf).right;
    std::swap(rows.of(leaf), moved_);  // the leaf's rows go to the children; its list is empty (internal) after
    rows.of(leaf).clear();
    rows.split(moved_, left, right, columns_.column(v), c);
    set_leaf_sum(leaf, 0.0);
    set_leaf_sum(left, s.sum_left);
    set_leaf_sum(right, s.sum_right);
    split_counts_[static_cast<std::size_t>(v)] += 1.0;
  }

  void death_step(SamplerTree& tree, TreeRows& rows, const std::vector<std::int32_t>& good_leaves, double birth) {
    std::vector<std::int32_t>& nogs = nogs_;
    tree.nogs(nogs);
    if (nogs.empty()) return;  // a lone root that cannot split: nothing to propose
    const std::int32_t id = nogs[rng_.uniform_int(nogs.size())];
    const Node n = tree.node(id);
    DeathProbabilities p;
    p.grow_node = grow_probability(n.depth);
    p.grow_left = grow_if_splittable(tree, n.left);
    p.grow_right = grow_if_splittable(tree, n.right);
    p.birth_after = n.parent < 0 ? 1.0 : kBirthProbability;
    double good_after = static_cast<double>(good_leaves.size()) + 1.0;
    if (p.grow_left > 0.0) good_after -= 1.0;
    if (p.grow_right > 0.0) good_after -= 1.0;
    p.pick_bottom_after = 1.0 / good_after;
    p.death = 1.0 - birth;
    p.pick_nog = 1.0 / static_cast<double>(nogs.size());

    const SplitSums s = sums_of_children(tree, id, rows);
    if (!accept(death_log_prior_ratio(p) - likelihood_part(s))) return;
    rows.of(std::max(n.left, n.right));               // every list exists before the reference is taken
    std::vector<std::int32_t>& merged = rows.of(id);  // empty: id is internal
    rows.merge(n.left, n.right, merged);
    for (std::int32_t i : merged) rows.leaf_of[static_cast<std::size_t>(i)] = id;
    set_leaf_sum(id, sum_of(merged));  // the merged rows' lane sums, not left + right
    set_leaf_sum(n.left, 0.0);
    set_leaf_sum(n.right, 0.0);
    rows.of(n.left).clear();
    rows.of(n.right).clear();
    split_counts_[static_cast<std::size_t>(n.var)] -= 1.0;
    tree.death(id, 0.0);
  }

  /// CGM 1998's change at a nog node: a new (column, cut) drawn as a birth draws it. The rule's prior and its
  /// proposal cancel, leaving the likelihood and the children's grow probabilities.
  void change_step(SamplerTree& tree, TreeRows& rows) {
    std::vector<std::int32_t>& nogs = nogs_;
    tree.nogs(nogs);
    if (nogs.empty()) return;
    const std::int32_t id = nogs[rng_.uniform_int(nogs.size())];
    const Node old = tree.node(id);
    std::vector<std::int32_t>& good = good_vars_;
    tree.good_vars(id, cut_counts(), good);
    const std::int32_t v = draw_column(good);
    const CutRange r = tree.range(id, v, columns_.cut_counts[static_cast<std::size_t>(v)]);
    const auto c =
        static_cast<std::int32_t>(r.lower + rng_.uniform_int(static_cast<std::uint64_t>(r.upper - r.lower) + 1));
    const SplitSums before = sums_of_children(tree, id, rows);
    std::vector<std::int32_t>& both = moved_;
    rows.merge(old.left, old.right, both);
    const SplitSums after = sums_of_split(both, v, c);
    if (too_small(after)) return;
    const double child_grow = grow_probability(old.depth + 1);
    const double grow_left = (good.size() > 1 || c - 1 >= r.lower) ? child_grow : 0.0;
    const double grow_right = (good.size() > 1 || c + 1 <= r.upper) ? child_grow : 0.0;
    const double log_prior =
        std::log((1.0 - grow_left) * (1.0 - grow_right)) -
        std::log((1.0 - grow_if_splittable(tree, old.left)) * (1.0 - grow_if_splittable(tree, old.right)));
    if (!accept(log_prior + likelihood_part(after) - likelihood_part(before))) return;
    Node& n = tree.node(id);
    n.var = v;
    n.cut = c;
    rows.split(both, old.left, old.right, columns_.column(v), c);
    set_leaf_sum(old.left, after.sum_left);
    set_leaf_sum(old.right, after.sum_right);
    split_counts_[static_cast<std::size_t>(old.var)] -= 1.0;
    split_counts_[static_cast<std::size_t>(v)] += 1.0;
  }
  /// Every leaf's μ | r ~ N((Σr/σ²)/P, 1/P) with P = 1/τ² + n/σ², in leaf index order; then the fit.
  void draw_leaf_values(SamplerTree& tree, TreeRows& rows) {
    const std::vector<double>& sum = leaf_sum_;
    const double s2 = sigma_ * sigma_;
    const double prior_precision = 1.0 / (prior_.tau * prior_.tau);
    tree.leaves(leaves_);
    for (std::int32_t id : leaves_) {
      const double n = options_.likelihood ? static_cast<double>(rows.of(id).size()) : 0.0;
      const double precision = prior_precision + n / s2;
      const double mean = options_.likelihood ? (sum[static_cast<std::size_t>(id)] / s2) / precision : 0.0;
      tree.node(id).mu = mean + rng_.normal() / std::sqrt(precision);
    }
  }

  /// σ² | rest ~ (νλ + RSS) / χ²_{n+ν}.
  void draw_sigma() {
    const double rss = (y_ - fit_).squaredNorm();
    const double chi2 = 2.0 * rng_.gamma(0.5 * (static_cast<double>(y_.size()) + params_.nu));
    sigma_ = std::sqrt((params_.nu * prior_.lambda + rss) / chi2);
  }

  void update_dart() {
    const auto p = static_cast<double>(split_counts_.size());
    std::vector<double> shapes(split_counts_.size());
    for (std::size_t v = 0; v < shapes.size(); ++v) shapes[v] = dart_.theta / p + split_counts_[v];
    dart_.log_s = draw_log_dirichlet(shapes, rng_);
    dart_.theta = draw_theta(dart_.log_s, theta_grid_, rng_);
    for (std::size_t v = 0; v < s_.size(); ++v) s_[v] = std::exp(dart_.log_s[v]);
  }

  /// Room for `sweeps` forests of 16 nodes a tree, or twice the present size if larger, up to 64 MB of nodes.
  /// Growing by doubling copies the arena and touches twice its pages (a tenth of a fit at 10⁴ kept trees);
  /// room never written costs no memory. Past the cap (very long runs) the arena doubles as it needs.
  void reserve_arena(int sweeps, KeptTrees& kept) const {
    constexpr std::size_t kNodesPerTree = 16;
    constexpr std::size_t kMaxNodes = std::size_t{1} << 22;  // 64 MB of 16-byte nodes
    std::size_t nodes = 0;
    for (const SamplerTree& tree : trees_) nodes += static_cast<std::size_t>(tree.size());
    const std::size_t per_sweep = std::max(kNodesPerTree * trees_.size(), 2 * nodes);
    kept.nodes.reserve(std::min(per_sweep * static_cast<std::size_t>(sweeps), kMaxNodes));
    kept.tree_end.reserve(trees_.size() * static_cast<std::size_t>(sweeps));
  }

  /// Appends the tree to the arena in preorder (a node's left child follows it), thresholds the cut values. The
  /// walk's stack and the output are plain arrays sized up front: this runs for every kept tree (10⁴ a fit).
  void keep(const SamplerTree& tree, KeptTrees& kept) {
    const std::size_t root = kept.nodes.size();
    const auto size = static_cast<std::size_t>(tree.size());
    kept.nodes.resize(root + size);
    KeptTrees::Node* out = kept.nodes.data() + root;
    // (sampler node, the slot whose right link it is, or −1): at most one entry per node is pending
    if (flat_stack_.size() < size) flat_stack_.resize(size);
    std::pair<std::int32_t, std::int32_t>* stack = flat_stack_.data();
    std::size_t top = 0;
    std::int32_t slot = 0;
    stack[top++] = {0, -1};
    while (top > 0) {
      const auto [id, right_of] = stack[--top];
      if (right_of >= 0) out[right_of].right = slot;
      const Node& n = tree.node(id);
      if (n.var < 0) {
        out[slot++] = {-1, -1, n.mu};
        continue;
      }
      const float cut = columns_.cuts[static_cast<std::size_t>(n.var)][static_cast<std::size_t>(n.cut)];
      out[slot] = {n.var, -1, static_cast<double>(cut)};
      stack[top++] = {n.right, slot};
      stack[top++] = {n.left, -1};
      ++slot;
    }
    kept.tree_end.push_back(root + size);
  }

  const BinnedColumns& columns_;
  const Vector& y_;
  const BartParams& params_;
  const Prior& prior_;
  Rng& rng_;
  const SamplerOptions& options_;
  std::vector<SamplerTree> trees_;
  std::vector<TreeRows> rows_;            ///< per tree, the rows of each node
  std::vector<double> leaf_sum_;          ///< per node id of the tree being updated: lane_total of its rows' residuals
  std::vector<double> lane_sum_;          ///< the pass over all rows' lane sums, kLanes per node id
  std::vector<double> mu_now_, mu_next_;  ///< per node id, the leaf values of the pass's two trees
  Vector fit_;                            ///< the sum of all trees per row, as of the end of the last sweep
  std::vector<double> residual_;          ///< y − the other trees, for the tree being updated
  double sigma_;
  std::vector<double> split_counts_;  ///< per column, splits in the current forest
  DartState dart_;
  ThetaGrid theta_grid_;
  std::vector<double> s_;                   ///< exp(dart_.log_s)
  mutable std::vector<double> grow_table_;  ///< grow_probability per depth, filled as depths appear
  // Scratch lists, reused from step to step (the sampler makes ~10⁴ steps a second and each used to allocate).
  std::vector<std::int32_t> leaves_, good_leaves_, nogs_, good_vars_;
  std::vector<std::int32_t> moved_;  // a birth's leaf rows, or a change's merged rows, while they are split
  std::vector<std::pair<std::int32_t, std::int32_t>> flat_stack_;
};

}  // namespace

std::vector<FlatTree> to_flat_trees(const KeptTrees& kept) {
  std::vector<FlatTree> trees(kept.tree_end.size());
  std::size_t begin = 0;
  for (std::size_t t = 0; t < trees.size(); ++t) {
    FlatTree& flat = trees[t];
    const std::size_t end = kept.tree_end[t];
    flat.reserve(end - begin);
    for (std::size_t k = begin; k < end; ++k) {
      const KeptTrees::Node& n = kept.nodes[k];
      const bool leaf = n.var < 0;
      flat.feature.push_back(n.var);
      flat.threshold.push_back(leaf ? 0.0f : static_cast<float>(n.value));
      flat.left.push_back(leaf ? -1 : static_cast<std::int32_t>(k - begin + 1));
      flat.right.push_back(n.right);
      flat.default_left.push_back(0);
      flat.value.push_back(leaf ? n.value : 0.0);
    }
    begin = end;
  }
  return trees;
}

SamplerOutput run_sampler(const BinnedColumns& columns, const Vector& y, const BartParams& params, const Prior& prior,
                          Rng& rng, const SamplerOptions& options) {
  if (columns.rows != y.size()) throw InternalError("bart: binned rows and targets differ in length");
  Sampler sampler(columns, y, params, prior, rng, options);
  return sampler.run();
}

}  // namespace bfs::bart

// Flat-array tree walking and the binary encoding shared by the tree estimators (see tree_ensemble.hpp).
#include "estimators/tree_ensemble.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/error.hpp"

namespace bfs {

static_assert(std::endian::native == std::endian::little, "the tree encoding assumes a little-endian host");

namespace {

/// The child a row with value x in the node's column goes to: NaN follows the default direction, else x < t
/// (strict) or x <= t.
inline std::int32_t child_of(const FlatTree& tree, std::int32_t node, float x, bool strict_less) {
  const float t = tree.threshold[node];
  const bool go_left = std::isnan(x) ? tree.default_left[node] != 0 : (strict_less ? x < t : x <= t);
  return go_left ? tree.left[node] : tree.right[node];
}

}  // namespace

double predict_tree(const FlatTree& tree, const float* row, bool strict_less) {
  std::int32_t node = 0;
  while (tree.feature[node] >= 0) node = child_of(tree, node, row[tree.feature[node]], strict_less);
  return tree.value[node];
}

namespace {

/// Rows per block of predict_ensemble: a block walks each tree in turn, so the tree stays in cache.
constexpr Index kPredictBlock = 64;

/// Adds tree(row) to sum[i] for the rows row_begin .. row_end − 1 of X, four rows side by side: their walks are
/// independent, so the processor overlaps them (one walk alone waits on each node's loads).
void add_tree(const FlatTree& tree, const Matrix& X, Index row_begin, Index row_end, bool strict_less, double* sum) {
  const Index p = X.cols();
  Index i = row_begin;
  for (; i + 4 <= row_end; i += 4) {
    const float* rows[4] = {X.data() + i * p, X.data() + (i + 1) * p, X.data() + (i + 2) * p, X.data() + (i + 3) * p};
    std::int32_t node[4] = {0, 0, 0, 0};
    for (bool walking = true; walking;) {
      walking = false;
      for (int l = 0; l < 4; ++l) {
        const std::int32_t f = tree.feature[node[l]];
        if (f < 0) continue;
        walking = true;
        node[l] = child_of(tree, node[l], rows[l][f], strict_less);
      }
    }
    for (int l = 0; l < 4; ++l) sum[i - row_begin + l] += tree.value[node[l]];
  }
  for (; i < row_end; ++i) sum[i - row_begin] += predict_tree(tree, X.data() + i * p, strict_less);
}

}  // namespace

Vector predict_ensemble(const TreeEnsemble& ensemble, const Matrix& X, int threads) {
  Vector out(X.rows());
  const bool parallel = threads > 1 && X.rows() * static_cast<Index>(ensemble.trees.size()) >= 20000;
  const Index blocks = (X.rows() + kPredictBlock - 1) / kPredictBlock;
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
  for (Index b = 0; b < blocks; ++b) {
    const Index begin = b * kPredictBlock, end = std::min(X.rows(), begin + kPredictBlock);
    double sum[kPredictBlock] = {};
    for (const FlatTree& tree : ensemble.trees) add_tree(tree, X, begin, end, ensemble.strict_less, sum);
    for (Index i = begin; i < end; ++i)
      out[i] = apply_link(ensemble.link, ensemble.base_score + ensemble.scale * sum[i - begin]);
  }
  return out;
}

TreeShape tree_shape(const FlatTree& tree) {
  TreeShape shape;
  if (tree.feature.empty()) return shape;
  std::vector<std::pair<std::int32_t, int>> stack{{0, 0}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    ++shape.nodes;
    shape.depth = std::max(shape.depth, depth);
    if (tree.feature[node] < 0) {
      ++shape.leaves;
    } else {
      stack.emplace_back(tree.left[node], depth + 1);
      stack.emplace_back(tree.right[node], depth + 1);
    }
  }
  return shape;
}

void validate_ensemble(const TreeEnsemble& ensemble, Index num_features, std::string_view what) {
  for (std::size_t t = 0; t < ensemble.trees.size(); ++t) {
    const FlatTree& tree = ensemble.trees[t];
    const std::size_t n = tree.feature.size();
    auto fail = [&](const char* why) { throw InputError(detail::concat(what, ": tree ", t, " is malformed: ", why)); };
    if (n == 0) fail("no nodes");
    if (tree.threshold.size() != n || tree.left.size() != n || tree.right.size() != n ||
        tree.default_left.size() != n || tree.value.size() != n) {
      fail("array lengths differ");
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (tree.feature[i] < 0) continue;
      if (tree.feature[i] >= num_features) fail("split feature out of range");
      // Children come after their parent, which rules out cycles and keeps every walk finite.
      const auto in_range = [&](std::int32_t c) { return c > static_cast<std::int32_t>(i) && c < std::int32_t(n); };
      if (!in_range(tree.left[i]) || !in_range(tree.right[i])) fail("child index out of range");
    }
  }
}

namespace {

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <class T>
void put_array(std::string& out, const std::vector<T>& values) {
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

template <class T>
T get(std::string_view& bytes, std::string_view what) {
  if (bytes.size() < sizeof(T)) throw InputError(detail::concat(what, ": truncated tree ensemble"));
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  bytes.remove_prefix(sizeof(T));
  return value;
}

template <class T>
void get_array(std::string_view& bytes, std::vector<T>& values, std::size_t n, std::string_view what) {
  if (bytes.size() / sizeof(T) < n) throw InputError(detail::concat(what, ": truncated tree ensemble"));
  values.resize(n);
  std::memcpy(values.data(), bytes.data(), n * sizeof(T));
  bytes.remove_prefix(n * sizeof(T));
}

}  // namespace

void append_ensemble(const TreeEnsemble& ensemble, std::string& out) {
  put(out, ensemble.base_score);
  put(out, ensemble.scale);
  put(out, static_cast<std::uint8_t>(ensemble.strict_less));
  put(out, static_cast<std::uint64_t>(ensemble.trees.size()));
  for (const FlatTree& tree : ensemble.trees) {
    put(out, static_cast<std::uint64_t>(tree.feature.size()));
    put_array(out, tree.feature);
    put_array(out, tree.threshold);
    put_array(out, tree.left);
    put_array(out, tree.right);
    put_array(out, tree.default_left);
    put_array(out, tree.value);
  }
}

TreeEnsemble read_ensemble(std::string_view& bytes, std::string_view what) {
  TreeEnsemble ensemble;
  ensemble.base_score = get<double>(bytes, what);
  ensemble.scale = get<double>(bytes, what);
  ensemble.strict_less = get<std::uint8_t>(bytes, what) != 0;
  const auto n_trees = get<std::uint64_t>(bytes, what);
  // Each tree needs at least its node count; reject absurd counts before allocating.
  if (n_trees > bytes.size() / sizeof(std::uint64_t)) throw InputError(detail::concat(what, ": bad tree count"));
  ensemble.trees.resize(n_trees);
  for (FlatTree& tree : ensemble.trees) {
    const auto n = get<std::uint64_t>(bytes, what);
    if (n > bytes.size()) throw InputError(detail::concat(what, ": bad node count"));
    get_array(bytes, tree.feature, n, what);
    get_array(bytes, tree.threshold, n, what);
    get_array(bytes, tree.left, n, what);
    get_array(bytes, tree.right, n, what);
    get_array(bytes, tree.default_left, n, what);
    get_array(bytes, tree.value, n, what);
  }
  return ensemble;
}

std::string encode_tree_model(std::string_view magic, Index num_features, const TreeEnsemble& ensemble) {
  std::string out(magic);
  const auto p = static_cast<std::int64_t>(num_features);
  out.append(reinterpret_cast<const char*>(&p), sizeof(p));
  append_ensemble(ensemble, out);
  return out;
}

DecodedTreeModel decode_tree_model(std::string_view bytes, const TreeModelMagics& magics, Task task,
                                   std::string_view what) {
  const std::string name(what);
  const Task other = task == Task::Binary ? Task::Regression : Task::Binary;
  const std::string_view magic = magics.of(task);
  if (bytes.starts_with(magics.of(other)) && !bytes.starts_with(magic))
    throw InputError(
        detail::concat(name, ": a ", name_of(other), " model, but the estimator's task is ", name_of(task)));
  if (!bytes.starts_with(magic)) throw InputError(name + ": not a serialized model of this estimator");
  bytes.remove_prefix(magic.size());
  std::int64_t p = 0;
  if (bytes.size() < sizeof(p)) throw InputError(name + ": truncated");
  std::memcpy(&p, bytes.data(), sizeof(p));
  bytes.remove_prefix(sizeof(p));
  if (p <= 0) throw InputError(name + ": bad feature count");
  DecodedTreeModel model{read_ensemble(bytes, what), static_cast<Index>(p)};
  if (!bytes.empty()) throw InputError(name + ": trailing bytes");
  validate_ensemble(model.ensemble, model.num_features, what);
  return model;
}

}  // namespace bfs

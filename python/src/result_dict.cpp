// MethodResult → dict (result_dict.hpp). Arrays are copied once into numpy arrays that own their memory, so the
// result outlives the C++ object and pickles with the selector that holds it.
#include "result_dict.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <type_traits>
#include <variant>

#include "methods/method.hpp"  // interrupted()

namespace py = pybind11;

namespace bfs::python {

namespace {

template <class T>
py::array_t<T> array_of(const std::vector<T>& values) {
  py::array_t<T> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

/// A per-feature interval or the trajectory: None when the method has none.
template <class T>
py::object optional_array(const std::vector<T>& values) {
  return values.empty() ? py::object(py::none()) : py::object(array_of(values));
}

/// One of the method's datasets at its shape (a string dataset as a list, or a nested list for a 2-D shape).
py::object dataset_value(const MethodDataset& dataset) {
  return std::visit(
      [&](const auto& values) -> py::object {
        using V = typename std::decay_t<decltype(values)>::value_type;
        if constexpr (std::is_same_v<V, std::string>) {
          return py::cast(values);
        } else {
          py::array_t<V> out = array_of(values);
          if (dataset.shape.size() > 1) {
            std::vector<py::ssize_t> shape(dataset.shape.begin(), dataset.shape.end());
            return out.reshape(shape);
          }
          return std::move(out);
        }
      },
      dataset.values);
}

py::object stability_dict(const StabilitySummary& summary) {
  if (summary.empty()) return py::none();
  py::dict out;
  out["runs"] = summary.runs;
  out["threshold"] = summary.threshold;
  for (const auto& [name, values] : summary.columns()) out[py::str(name)] = array_of(*values);
  out["run_sources"] = summary.run_sources;
  out["run_seeds"] = array_of(summary.run_seeds);
  return std::move(out);
}

py::dict facts_dict(const MethodResult& result) {
  py::dict facts;
  for (const auto& fact : result.facts)
    std::visit([&](const auto& value) { facts[py::str(fact.name)] = value; }, fact.value);
  return facts;
}

}  // namespace

py::dict result_dict(const MethodResult& result) {
  py::dict out;
  out["method"] = result.method;
  out["group"] = result.own_group();
  out["version"] = result.version;
  out["task"] = result.task;
  out["data_origin"] = result.data_origin;
  out["job"] = result.job_text;
  out["seed"] = result.seed;
  out["threads"] = result.threads;
  out["iterations"] = result.iterations;
  out["iteration_unit"] = result.iteration_unit;
  out["stop_reason"] = result.stop_reason;
  out["interrupted"] = interrupted(result);
  out["importance_meaning"] = result.importance_meaning;
  out["feature_names"] = result.feature_names;
  out["importance"] = array_of(result.importance);
  out["selected"] = array_of(result.selected);
  out["rank"] = array_of(result.rank);
  out["importance_lo"] = optional_array(result.importance_lo);
  out["importance_hi"] = optional_array(result.importance_hi);
  out["interval_level"] = result.interval_level;
  py::object trajectory = optional_array(result.trajectory);
  const auto p = static_cast<py::ssize_t>(result.num_features());
  if (!trajectory.is_none() && p > 0)
    trajectory = trajectory.attr("reshape")(static_cast<py::ssize_t>(result.trajectory.size()) / p, p);
  out["trajectory"] = trajectory;
  out["truth"] = result.truth.empty() ? py::object(py::none()) : py::object(array_of(result.truth));
  if (result.metrics.known) {
    out["metrics"] = py::dict(py::arg("fdp") = result.metrics.fdp, py::arg("power") = result.metrics.power,
                              py::arg("hamming") = result.metrics.hamming,
                              py::arg("separation_iteration") = result.metrics.separation_iteration);
  } else {
    out["metrics"] = py::none();
  }
  out["missing"] = optional_array(result.missing);
  out["rows_without_target"] = result.rows_without_target;
  out["stability"] = stability_dict(result.stability);
  py::dict timings;
  for (const auto& [name, seconds] : result.timings) timings[py::str(name)] = seconds;
  out["timings"] = timings;
  out["facts"] = facts_dict(result);
  py::dict datasets;
  for (const auto& dataset : result.datasets) datasets[py::str(dataset.name)] = dataset_value(dataset);
  out["datasets"] = datasets;
  out["feature_columns"] = result.feature_columns;
  return out;
}

}  // namespace bfs::python

// banditfs._core: the library API (src/api/banditfs.hpp, docs/api.md) bound for Python, a client of api/ as the
// command line is (docs/architecture.md). The pure-Python package banditfs (python/banditfs/) builds the scikit-learn
// selectors on it; docs/python.md.
//
// Runs release the GIL; the progress and stop callbacks the methods call after each round take it back briefly: the
// stop check runs Python's signal handlers (PyErr_CheckSignals), so Ctrl-C ends the run after the round in progress
// and its KeyboardInterrupt is raised once the run has returned. Errors keep the CLI's text: ConfigError (the job,
// naming the key) and InputError (the data) are ValueError, InputError from a call that reads files is OSError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "api/banditfs.hpp"
#include "api/cpu_load.hpp"
#include "api/progress_line.hpp"
#include "core/error.hpp"
#include "result_dict.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace bfs::python {

namespace {

// forcecast + c_style: an array already C-contiguous of the type is passed as it is (no copy); any other is
// converted once.
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;
using IntArray = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;

/// The table beside X: names, categorical flags and each categorical column's labels (api::ArraysView's fields).
struct Columns {
  std::vector<std::string> names;
  std::vector<std::uint8_t> categorical;
  std::vector<std::vector<std::string>> labels;
};

[[noreturn]] void throw_python(PyObject* type, const std::string& what) {
  PyErr_SetString(type, what.c_str());
  throw py::error_already_set();
}

/// A call that reads files: its InputError (a missing, unreadable or torn file) is an OSError.
template <class F>
auto reading_files(F&& call) {
  try {
    return call();
  } catch (const InputError& e) {
    throw_python(PyExc_OSError, e.what());
  }
}

/// The run's callbacks, called by the methods on the thread that called run, with the GIL released: each takes the
/// GIL for its moment. A Python exception (KeyboardInterrupt from a signal handler, or one the progress callback
/// raised) stops the run after its round and is raised when the run has returned.
class Callbacks {
 public:
  Callbacks(double progress_seconds, py::object on_progress)
      : line_(progress_seconds), on_progress_(std::move(on_progress)) {}

  api::RunOptions options() {
    api::RunOptions options;
    options.should_stop = [this] {
      if (pending_) return true;
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) pending_.emplace();
      return pending_.has_value();
    };
    if (!on_progress_.is_none()) options.on_progress = [this](const api::Progress& report) { progress(report); };
    return options;
  }

  /// Raises the exception a callback caught (the GIL held).
  void rethrow() {
    if (pending_) {
      py::error_already_set error = std::move(*pending_);
      pending_.reset();
      throw error;
    }
  }

 private:
  void progress(const api::Progress& report) {
    if (pending_) return;
    const std::optional<std::string> line = line_(report);
    py::gil_scoped_acquire gil;
    try {
      on_progress_(py::dict("round"_a = report.round, "total_rounds"_a = report.total_rounds,
                            "unit"_a = std::string(report.unit), "label"_a = std::string(report.label),
                            "value"_a = report.value, "last"_a = report.last,
                            "line"_a = line ? py::object(py::str(*line)) : py::object(py::none())));
    } catch (py::error_already_set& e) {
      pending_.emplace(std::move(e));
    }
  }

  api::ProgressLine line_;
  py::object on_progress_;
  std::optional<py::error_already_set> pending_;
};

/// Runs `job` on `data` with the GIL released, on no more threads than the CPUs other work left free when the
/// package was imported (api::thread_cap, as the CLI; results do not depend on it); the result as a dict.
py::dict run_released(const api::Job& job, const api::Data& data, py::object on_progress) {
  Callbacks callbacks(job.config().run.progress_seconds, std::move(on_progress));
  api::RunOptions options = callbacks.options();
  options.threads = api::thread_cap(job.threads());
  std::optional<MethodResult> result;
  {
    py::gil_scoped_release release;
    result = api::run(job, &data, options);
  }
  callbacks.rethrow();
  return result_dict(*result);
}

void check_rows(const char* what, py::ssize_t rows, py::ssize_t expected) {
  if (rows != expected)
    throw_python(PyExc_ValueError, detail::concat(what, " has ", rows, " rows but X has ", expected));
}

/// The part of an ArraysView or LogView both fill alike: X's pointer and shape, and its columns' names and kinds.
template <class View>
View table_view(const FloatArray& X, const Columns& columns, const std::string& origin) {
  View view;
  view.X = X.data();
  view.rows = X.shape(0);
  view.cols = X.shape(1);
  view.feature_names = columns.names;
  view.categorical = columns.categorical;
  view.category_labels = columns.labels;
  view.origin = origin;
  return view;
}

py::dict run_arrays(const api::Job& job, const FloatArray& X, const DoubleArray& y, const Columns& columns,
                    const std::string& origin, py::object on_progress) {
  if (X.ndim() != 2)
    throw_python(PyExc_ValueError, detail::concat("X must be 2-D (rows x features), not ", X.ndim(), "-D"));
  if (y.ndim() != 1) throw_python(PyExc_ValueError, detail::concat("y must be 1-D, not ", y.ndim(), "-D"));
  check_rows("y", y.shape(0), X.shape(0));
  auto view = table_view<api::ArraysView>(X, columns, origin);
  view.y = y.data();
  std::optional<api::Data> data;
  {
    py::gil_scoped_release release;  // the one copy of X
    data.emplace(api::Data::from(view, job.table_rules()));
  }
  return run_released(job, *data, std::move(on_progress));
}

py::dict run_log(const api::Job& job, const FloatArray& X, const IntArray& arm, const std::vector<std::string>& arms,
                 const DoubleArray& reward, const Columns& columns, const std::string& origin, py::object on_progress) {
  if (X.ndim() != 2)
    throw_python(PyExc_ValueError, detail::concat("X must be 2-D (rows x features), not ", X.ndim(), "-D"));
  if (arm.ndim() != 1 || reward.ndim() != 1) throw_python(PyExc_ValueError, "arm and reward must be 1-D");
  check_rows("arm", arm.shape(0), X.shape(0));
  check_rows("reward", reward.shape(0), X.shape(0));
  auto view = table_view<api::LogView>(X, columns, origin);
  view.arm = arm.data();
  view.arm_labels = arms;
  view.reward = reward.data();
  for (py::ssize_t i = 0; i < view.rows; ++i)
    if (view.arm[i] < 0 || view.arm[i] >= static_cast<std::int32_t>(arms.size()))
      throw_python(PyExc_ValueError, detail::concat(origin, ": arm row ", i, " is ", view.arm[i],
                                                    ", not a code of the ", arms.size(), " arm labels"));
  std::optional<api::Data> data;
  {
    py::gil_scoped_release release;
    data.emplace(api::Data::from_log(view));
  }
  return run_released(job, *data, std::move(on_progress));
}

void translate_errors() {
  // pybind11 2.10 takes a plain function pointer of exactly this signature.
  py::register_exception_translator([](std::exception_ptr p) {  // NOLINT(performance-unnecessary-value-param)
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ConfigError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const InternalError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

}  // namespace

}  // namespace bfs::python

PYBIND11_MODULE(_core, m) {
  namespace bp = bfs::python;
  namespace api = bfs::api;
  m.doc() = "banditfs' library API (src/api/banditfs.hpp) for Python; use the package banditfs, not this module.";
  bp::translate_errors();
  m.def("version", &api::version);
  // The load rule (api/cpu_load.hpp): banditfs/__init__.py measures the load before this module loads libgomp, with
  // these constants (tests/python checks that its own copies are these).
  m.attr("LOAD_WINDOW_MS") = api::kLoadWindowMs;
  m.attr("BUSY_CPUS") = api::kBusyCpus;
  m.attr("CPU_BUSY_VARIABLE") = api::kCpuBusyVariable;
  m.def("thread_cap", &api::thread_cap, "requested"_a,
        "The threads a run asking for `requested` takes under the load recorded at import (api::thread_cap).");

  py::class_<api::Job>(m, "Job", "A job parsed and validated by the schema (api::Job).")
      .def_static("parse", &api::Job::parse, "toml"_a, "overrides"_a = std::vector<std::string>{}, "origin"_a = "job")
      .def_static("load", &api::Job::load, "path"_a, "overrides"_a = std::vector<std::string>{})
      .def_property_readonly("text", &api::Job::text, "the canonical TOML text (every key)")
      .def_property_readonly("method", &api::Job::method)
      .def_property_readonly("threads", &api::Job::threads, "run.threads resolved")
      .def_property_readonly("task",
                             [](const api::Job& job) { return std::string(bfs::name_of(job.config().data.task)); });

  py::class_<bp::Columns>(m, "Columns", "feature names, categorical flags and labels of X's columns")
      .def(py::init([](std::vector<std::string> names, std::vector<std::uint8_t> categorical,
                       std::vector<std::vector<std::string>> labels) {
             return bp::Columns{std::move(names), std::move(categorical), std::move(labels)};
           }),
           "names"_a, "categorical"_a, "labels"_a);

  m.def("run_arrays", &bp::run_arrays, "job"_a, "X"_a, "y"_a, "columns"_a, "origin"_a, "on_progress"_a = py::none(),
        "Runs a job on (X, y) in memory (api::Data::from, api::run); the result as a dict.");
  m.def("run_log", &bp::run_log, "job"_a, "X"_a, "arm"_a, "arm_labels"_a, "reward"_a, "columns"_a, "origin"_a,
        "on_progress"_a = py::none(),
        "Runs cmab-scores on a log in memory (api::Data::from_log); the result as a dict.");
  m.def(
      "read_result",
      [](const std::string& path) {
        return bp::reading_files([&] { return bp::result_dict(api::read_result(path)); });
      },
      "path"_a, "A result.h5 or a run's directory as a dict (api::read_result).");
  m.def(
      "aggregate",
      [](const std::vector<std::string>& paths, double threshold) {
        return bp::reading_files([&] { return bp::result_dict(api::aggregate(paths, threshold)); });
      },
      "paths"_a, "threshold"_a = api::kAggregateThreshold, "The summary of R seed runs of one job (api::aggregate).");
}

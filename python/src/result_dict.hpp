#pragma once
// A MethodResult (methods/result.hpp) as plain Python objects: numpy arrays per feature, the method's own datasets at
// their names and shapes, its facts, the timings and the summary of R runs. One conversion for a fitted selector
// and for banditfs.read_result, so both show a result the same way.
#include <pybind11/pybind11.h>

#include "methods/result.hpp"

namespace bfs::python {

/// The result's fields by name (docs/python.md "Results").
pybind11::dict result_dict(const MethodResult& result);

}  // namespace bfs::python

# Target defaults shared by every banditfs target: warnings, include root, optimisation.
function(banditfs_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
  # Results are the same bits on every x86-64: never fuse a*b+c into one FMA, even in a function cloned for a CPU
  # that has one (AVX-512F's own FMA; GCC contracts by default in C++ mode).
  target_compile_options(${target} PRIVATE -ffp-contract=off)
  if(BANDITFS_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(BANDITFS_PCH)
    banditfs_precompile_headers(${target})
  endif()
endfunction()

# One static library per module of src/ (docs/architecture.md); dependencies are explicit so the direction stays visible.
function(banditfs_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(banditfs_${name} STATIC ${ARG_SOURCES})
  target_include_directories(banditfs_${name} PUBLIC "${PROJECT_SOURCE_DIR}/src")
  target_link_libraries(banditfs_${name} PUBLIC ${ARG_DEPS})
  banditfs_target_defaults(banditfs_${name})
endfunction()

# A Boost.Test executable registered with CTest; LABELS lets ctest -L pick subsets. UNITY_APART: the sources that
# declare a file-scope name (helper, struct, constant) that another source of the test also declares, which a unity
# build compiles alone (banditfs_unity_build).
function(banditfs_add_unit_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;DEPS;LABELS;UNITY_APART" ${ARGN})
  add_executable(test_${name} ${ARG_SOURCES})
  target_link_libraries(test_${name} PRIVATE ${ARG_DEPS} Boost::unit_test_framework)
  target_compile_definitions(test_${name} PRIVATE BOOST_TEST_DYN_LINK)
  banditfs_target_defaults(test_${name})
  if(BANDITFS_UNITY_TESTS)
    banditfs_unity_build(test_${name} ${ARG_UNITY_APART})
  endif()
  add_test(NAME ${name} COMMAND test_${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS "unit;${ARG_LABELS}"
                       ENVIRONMENT "OMP_NUM_THREADS=2;BANDITFS_TEST_DATA=${PROJECT_SOURCE_DIR}/tests/data")
endfunction()

# BANDITFS_UNITY_TESTS (scripts/test.sh): target's sources compiled in unity files (CMake's unity build), so
# that the headers they share (Boost.Test, Eigen, the library's) are parsed and their templates instantiated once per
# unity file instead of once per source: about a third of a test's compile time, a fifth with precompiled headers
# (docs/reliability.md, "CI"). Up to eight sources a file, so that the largest tests give two files for two cores. Two
# sources of one unity file share one file scope, so two helpers of the same name in their anonymous namespaces would
# collide, or worse, overload each other silently; the sources passed after target (UNITY_APART of
# banditfs_add_unit_test: those that declare a name that another source declares too, which scripts/check-unity.py
# lists, and those in which an earlier source's using-directive makes a name ambiguous, which fail to compile) are
# compiled alone, as is the file that defines BOOST_TEST_MODULE (Boost.Test generates main() where unit_test.hpp is
# first included after it).
function(banditfs_unity_build target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  foreach(source IN LISTS sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}" OUTPUT_VARIABLE path)
    file(STRINGS "${path}" defines_module REGEX "^#define BOOST_TEST_MODULE")
    if(defines_module OR source IN_LIST ARGN)
      set_source_files_properties("${path}" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
endfunction()

# docs/architecture.md: the layers of src/, lowest first. A module may include its own headers and those
# of a lower layer, never one of its own layer or above, except the listed peers. Fails the configure step naming
# the file and the include when a module reaches up (e.g. run/ including output/).
set(BANDITFS_LAYERS
    "core"
    "config,data"
    "simulate,estimators,gkx"
    "importance"
    "run"
    "methods"
    "dist,output,stability"
    "api"
    "cli")

function(banditfs_check_layers src_root)
  set(rank 0)
  foreach(layer IN LISTS BANDITFS_LAYERS)
    string(REPLACE "," ";" modules "${layer}")
    foreach(module IN LISTS modules)
      set(layer_of_${module} ${rank})
    endforeach()
    math(EXPR rank "${rank} + 1")
  endforeach()
  file(GLOB_RECURSE sources "${src_root}/*.hpp" "${src_root}/*.cpp" "${src_root}/*.h")
  foreach(file IN LISTS sources)
    file(RELATIVE_PATH relative "${src_root}" "${file}")
    string(REGEX MATCH "^[a-z_]+" module "${relative}")
    if(NOT DEFINED layer_of_${module})
      message(FATAL_ERROR "${relative}: module '${module}' is not in BANDITFS_LAYERS (cmake/BanditfsDefaults.cmake)")
    endif()
    file(STRINGS "${file}" includes REGEX "^#[ \t]*include[ \t]*\"[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#[ \t]*include[ \t]*\"([a-z_]+)/.*" "\\1" target "${line}")
      if(target STREQUAL module OR NOT DEFINED layer_of_${target})
        continue()
      endif()
      if(NOT layer_of_${target} LESS layer_of_${module})
        message(FATAL_ERROR "src/${relative} (layer of ${module}) includes ${target}/, which is not a lower layer "
                            "(docs/architecture.md, the dependency rule): ${line}")
      endif()
    endforeach()
  endforeach()
endfunction()

# Only src/dist may include MPI (docs/architecture.md). Fails the configure step if any other source does.
function(banditfs_check_no_mpi_outside_dist src_root)
  file(GLOB_RECURSE sources "${src_root}/*.hpp" "${src_root}/*.cpp" "${src_root}/*.h")
  foreach(file IN LISTS sources)
    if(file MATCHES "/src/dist/")
      continue()
    endif()
    file(STRINGS "${file}" hits REGEX "#[ \t]*include[ \t]*[<\"](mpi\\.h|boost/mpi)")
    if(hits)
      message(FATAL_ERROR "MPI header included outside src/dist/: ${file}: ${hits}")
    endif()
  endforeach()
endfunction()

# Precompiled headers (BANDITFS_PCH; scripts/test.sh turns it on for its sanitizer build): the standard, Eigen and
# spdlog headers that almost every translation unit parses, and Boost.Test in the tests, are parsed once instead of
# once per file. Code generation dominates a sanitizer build (-O1 with ASan/UBSan instrumentation), so this saves the
# parsing part only: about 1.7 CPU-seconds per file on average (0.1-3.3 in a sample of 14), some 15% of the build.
#
# GCC uses a precompiled header only in a compilation with the options it was built with and no macro it lacks
# (otherwise -Winvalid-pch warns and the headers are parsed as usual), so one precompiled header serves each flavour,
# libraries and executables or Boost.Test executables, built by a target of its own that links only what the headers
# need. Only targets compiled with OpenMP take part: -fopenmp defines _OPENMP, which changes what <Eigen/Core>
# declares; the few without (core, config and their tests) keep their plain includes.
#
# The main build stays without: clang-tidy reads its compile commands and cannot load GCC's .gch files, and a build
# without a forced include is what checks that every file includes what it uses.
set(BANDITFS_PCH_HEADERS
    <algorithm> <array> <chrono> <cmath> <cstdint> <cstring> <filesystem> <fstream> <functional> <limits> <map>
    <memory> <numeric> <optional> <set> <span> <sstream> <string> <string_view> <utility> <variant> <vector>
    <Eigen/Core> <spdlog/logger.h>)

# Sets out to ON when target compiles with OpenMP: it links OpenMP::OpenMP_CXX, directly or through banditfs_ libraries.
function(banditfs_links_openmp target out)
  set(found OFF)
  get_target_property(direct ${target} LINK_LIBRARIES)
  get_target_property(interface ${target} INTERFACE_LINK_LIBRARIES)
  foreach(lib IN LISTS direct interface)
    if(lib STREQUAL "OpenMP::OpenMP_CXX")
      set(found ON)
    elseif(lib MATCHES "^banditfs_" AND TARGET ${lib})
      banditfs_links_openmp(${lib} found)
    endif()
    if(found)
      break()
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# The target that builds flavour's precompiled header (banditfs_pch_<flavour>): an object library of one empty file
# that links only what the headers need, so that its compile definitions are a subset of every user's (a test that
# does not link config has no toml++ macros).
function(banditfs_pch_host flavour)
  set(host banditfs_pch_${flavour})
  if(TARGET ${host})
    return()
  endif()
  set(source "${PROJECT_BINARY_DIR}/${host}.cpp")
  file(CONFIGURE OUTPUT "${source}" CONTENT "// Compiles ${host}'s precompiled header (cmake/BanditfsPch.cmake).\n")
  add_library(${host} OBJECT "${source}")
  target_link_libraries(${host} PRIVATE Eigen3::Eigen spdlog::spdlog OpenMP::OpenMP_CXX)
  set(headers ${BANDITFS_PCH_HEADERS})
  if(flavour STREQUAL "boost_test")
    target_link_libraries(${host} PRIVATE Boost::unit_test_framework)
    target_compile_definitions(${host} PRIVATE BOOST_TEST_DYN_LINK)
    list(APPEND headers <boost/test/unit_test.hpp>)
  endif()
  banditfs_target_defaults(${host})
  target_precompile_headers(${host} PRIVATE ${headers})
endfunction()

# Gives target the precompiled header of its flavour. Called by banditfs_target_defaults, after the target's libraries
# are linked.
function(banditfs_precompile_headers target)
  get_target_property(type ${target} TYPE)
  banditfs_links_openmp(${target} openmp)
  # The hosts themselves; the Python module, which compiles with its own visibility flags.
  if(NOT openmp OR target MATCHES "^banditfs_pch_" OR type STREQUAL "MODULE_LIBRARY")
    return()
  endif()
  set(flavour code)
  get_target_property(libs ${target} LINK_LIBRARIES)
  if("Boost::unit_test_framework" IN_LIST libs)
    set(flavour boost_test)
  endif()
  # Boost.Test generates main() in the file that defines BOOST_TEST_MODULE before it includes unit_test.hpp; a header
  # included ahead of that file would generate none.
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(precompiled_sources 0)
  foreach(source IN LISTS sources)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}" OUTPUT_VARIABLE path)
    file(STRINGS "${path}" defines_module REGEX "^#define BOOST_TEST_MODULE")
    if(defines_module)
      set_source_files_properties("${path}" PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    else()
      math(EXPR precompiled_sources "${precompiled_sources} + 1")
    endif()
  endforeach()
  if(precompiled_sources EQUAL 0)
    return()
  endif()
  banditfs_pch_host(${flavour})
  target_precompile_headers(${target} REUSE_FROM banditfs_pch_${flavour})
endfunction()

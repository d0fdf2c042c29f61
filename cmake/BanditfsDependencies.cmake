# Every dependency is a Debian package installed by scripts/install-deps.sh.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(tomlplusplus REQUIRED)
find_package(CLI11 REQUIRED)
find_package(spdlog REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)
# FIRST's kd-tree neighbour search: header-only; Debian's libnanoflann-dev ships nanoflann::nanoflann.
find_package(nanoflann 1.4 REQUIRED)
# Boost's headers (Debian's libboost-dev): Boost.Math's inverse incomplete beta for the bandit's credible intervals.
find_package(Boost 1.74 REQUIRED)
if(BANDITFS_BUILD_TESTS)
  find_package(Boost 1.74 REQUIRED COMPONENTS unit_test_framework)
endif()

# Debian's libxgboost-dev ships no CMake config unless the CLI package is present too (notes/hpc-on-this-machine):
# find the header and library directly and wrap them in an imported target.
find_path(XGBOOST_INCLUDE_DIR xgboost/c_api.h REQUIRED)
find_library(XGBOOST_LIBRARY NAMES xgboost REQUIRED)
add_library(banditfs::xgboost UNKNOWN IMPORTED)
set_target_properties(banditfs::xgboost PROPERTIES IMPORTED_LOCATION "${XGBOOST_LIBRARY}"
                      INTERFACE_INCLUDE_DIRECTORIES "${XGBOOST_INCLUDE_DIR}")

# Debian's libsvm-dev (the svm estimator) ships no CMake config either: <libsvm/svm.h> and libsvm.so.
find_path(LIBSVM_INCLUDE_DIR libsvm/svm.h REQUIRED)
find_library(LIBSVM_LIBRARY NAMES svm REQUIRED)
add_library(banditfs::libsvm UNKNOWN IMPORTED)
set_target_properties(banditfs::libsvm PROPERTIES IMPORTED_LOCATION "${LIBSVM_LIBRARY}"
                      INTERFACE_INCLUDE_DIRECTORIES "${LIBSVM_INCLUDE_DIR}")

# Open MPI + Boost.MPI for src/dist (docs/distributed.md). FindMPI's MPIEXEC_MAX_NUMPROCS is this machine's core count; the
# MPI tests pass their rank counts explicitly.
if(BANDITFS_WITH_MPI)
  find_package(MPI REQUIRED COMPONENTS CXX)
  find_package(Boost 1.74 REQUIRED COMPONENTS mpi serialization)
endif()

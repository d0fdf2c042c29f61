#!/usr/bin/env bash
# Compiles one bench program of scripts/bench/ against a build's static libraries (data, importance, estimators,
# config, core).
#   scripts/bench/build_bench.sh SOURCE.cpp OUTPUT [BUILD=build]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source_file="$1" output="$2"
build="$(cd "$root/${3:-build}" && pwd)"
libs=("$build/src/data/libbanditfs_data.a" "$build/src/importance/libbanditfs_importance.a"
      "$build/src/estimators/libbanditfs_estimators.a" "$build/src/config/libbanditfs_config.a"
      "$build/src/core/libbanditfs_core.a")
for lib in "${libs[@]}"; do [[ -f $lib ]] || { echo "missing $lib: build $build first" >&2; exit 1; }; done
g++ -O3 -DNDEBUG -std=c++20 -fopenmp -I "$root/src" -isystem /usr/include/eigen3 \
  -DFMT_SHARED -DSPDLOG_COMPILED_LIB -DSPDLOG_FMT_EXTERNAL -DSPDLOG_SHARED_LIB \
  "$source_file" "${libs[@]}" -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5 -lxgboost -lsvm -ltomlplusplus -lspdlog -lfmt -o "$output"

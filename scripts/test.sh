#!/usr/bin/env bash
# Installs what is missing, builds with tests and runs every test with CTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
bash scripts/build.sh -DBANDITFS_BUILD_TESTS=ON
cd build
ctest --output-on-failure -j"$(nproc)" "$@"

#!/usr/bin/env bash
# Installs what is missing, builds with tests and runs every test with CTest; checks the formatting and clang-tidy
# (src/), and builds a second tree with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/) and runs the unit
# and e2e tests there. BANDITFS_SKIP_SANITIZE=1 skips the sanitizer stage (e.g. for a quick local run).
#
# Both trees compile each unit test's sources as one file (BANDITFS_UNITY_TESTS, cmake/BanditfsDefaults.cmake), and
# clang-tidy runs at the lowest priority beside the test stages, on the CPU their tests leave idle; CI's machine has
# two cores and its budget is 35 minutes (docs/reliability.md, "CI").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
stage() { echo "[test.sh] ${SECONDS} s: $*"; }
bash scripts/install-deps.sh
stage "dependencies installed; building"
bash scripts/build.sh -DBANDITFS_BUILD_TESTS=ON -DBANDITFS_UNITY_TESTS=ON
stage "built; format, clang-tidy (in the background) and ctest"
bash scripts/check-format.sh
python3 scripts/check-unity.py
# clang-tidy needs only the compile commands of build/; at the lowest priority it takes the CPU the tests below leave
# idle, and the rest at the end. Its findings are printed, and fail the script, at the end. It runs in a session of
# its own (setsid), which the script ends if it stops early. A new session is a new scheduler autogroup on Linux, where
# `nice` ranks a process only within its group, so the group's own nice is raised too (/proc/self/autogroup; without
# it tidy would share the CPU equally with the builds and tests).
tidy_log="$(mktemp)"
setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 bash scripts/check-tidy.sh build' \
  >"$tidy_log" 2>&1 &
tidy_pid=$!
trap 'kill -- -"$tidy_pid" 2>/dev/null || true; rm -f "$tidy_log"' EXIT
wait_for_tidy() {
  stage "waiting for clang-tidy"
  local status=0
  wait "$tidy_pid" || status=$?
  cat "$tidy_log"
  # check-tidy.sh's last line on success; without it, the run did not finish.
  grep -q "files clean" "$tidy_log" || status=1
  stage "clang-tidy done"
  return "$status"
}
(cd build && ctest --output-on-failure -j"$(nproc)" "$@")
stage "tests passed"

if [ "${BANDITFS_SKIP_SANITIZE:-0}" = 1 ]; then
  wait_for_tidy
  exit 0
fi
# -O1 with line tables only (-g1): the stack traces keep file and line, and the tree compiles in about half the time
# of -O2 -g, most of this stage. Precompiled headers (BANDITFS_PCH) save the parsing of
# the standard, Eigen, spdlog and Boost.Test headers in each file; the main build above stays without them, since
# clang-tidy reads its compile commands (cmake/BanditfsPch.cmake).
cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBANDITFS_BUILD_TESTS=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DBANDITFS_SANITIZE=ON -DBANDITFS_PYTHON=OFF \
  -DBANDITFS_PCH=ON -DBANDITFS_UNITY_TESTS=ON >/dev/null
cmake --build "$root/build-asan" -j"$(nproc)"
stage "sanitizer build done; its tests"
cd "$root/build-asan"
export UBSAN_OPTIONS=print_stacktrace=1
# Unit tests and the e2e tests without MPI: every check, leaks included.
ctest --output-on-failure -j"$(nproc)" -L "unit|e2e" -LE "mpi|slurm"
# Tests that start MPI: Open MPI's own allocations still held at MPI_Finalize are reported by LeakSanitizer (in
# libopen-pal / libmpi and its dlopen'ed plugins), so leak detection is off there; every memory and UB check stays
# on. e2e_mpi_resume (4 minutes under ASan) runs in the main build only; the SLURM tests drive the main build.
ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j"$(nproc)" -L mpi -LE slurm -E e2e_mpi_resume
stage "sanitizer tests passed"
wait_for_tidy

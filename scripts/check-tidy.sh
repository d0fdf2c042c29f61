#!/usr/bin/env bash
# Fails on any clang-tidy warning (.clang-tidy at the root) in the product code: every src/*.cpp, with
# the compile commands of a configured build (default build/), and the src/ headers they include. Runs one
# clang-tidy per core. The clang analyzer (clang-analyzer-*) is most of the cost, 3–73 CPU-seconds a file
# (docs/reliability.md), so CI checks src/ only; `--all` adds tests/*.cpp.
#
#   scripts/check-tidy.sh [--all] [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
patterns=('src/*.cpp')
if [ "${1:-}" = "--all" ]; then
  patterns+=('tests/*.cpp')
  shift
fi
build="${1:-build}"
if [ ! -f "$build/compile_commands.json" ]; then
  echo "check-tidy: $build/compile_commands.json is missing (configure the build first: scripts/build.sh)" >&2
  exit 2
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Only files the build compiles (a file of an optional part, e.g. the MPI runtime without MPI, has no command).
mapfile -t files < <(git ls-files "${patterns[@]}" | while read -r f; do
  grep -q "\"file\": \"$root/$f\"" "$build/compile_commands.json" && echo "$f"; done)
status=0
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p "$build" --quiet \
  --header-filter="^$root/src/" --warnings-as-errors='*' >"$log" 2>/dev/null || status=$?
if [ "$status" -ne 0 ]; then
  grep -E "(warning|error):" "$log" | sort -u >&2 || cat "$log" >&2
  echo "clang-tidy: findings above (in ${#files[@]} files checked)" >&2
  exit 1
fi
echo "clang-tidy: ${#files[@]} files clean"

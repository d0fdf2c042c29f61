#!/usr/bin/env bash
# Fails on any clang-tidy warning (.clang-tidy at the root) in the product code: every src/*.cpp, with
# the compile commands of a configured build (default build/), and the src/ headers they include. Runs one
# clang-tidy per core. CI checks src/ only; `--all` adds tests/*.cpp. `--analyzer` adds the clang static analyzer
# (clang-analyzer-*), which .clang-tidy leaves out of CI: with it a file takes 6–73 CPU-seconds, without 3–23
# (docs/reliability.md, "Formatting and lint").
#
#   scripts/check-tidy.sh [--all] [--analyzer] [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
patterns=('src/*.cpp')
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --all) patterns+=('tests/*.cpp') ;;
    --analyzer) extra+=('--checks=clang-analyzer-*') ;;  # appended to .clang-tidy's Checks
    *) break ;;
  esac
  shift
done
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
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p "$build" --quiet "${extra[@]}" \
  --header-filter="^$root/src/" --warnings-as-errors='*' >"$log" 2>/dev/null || status=$?
if [ "$status" -ne 0 ]; then
  grep -E "(warning|error):" "$log" | sort -u >&2 || cat "$log" >&2
  echo "clang-tidy: findings above (in ${#files[@]} files checked)" >&2
  exit 1
fi
echo "clang-tidy: ${#files[@]} files clean"

#!/usr/bin/env bash
# Puts the Python package banditfs of a build on Debian python3's path, so `/usr/bin/python3 -c "import banditfs"`
# works from any directory: a one-line .pth file naming <build>/python in the user's site-packages
# (`python3 -m site --user-site`). It needs no root, touches no system directory and follows rebuilds (the package
# is the build tree's); remove the file to undo. Called by scripts/quickstart.sh (docs/python.md).
#   scripts/link-python.sh [BUILD_DIR]    (default build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
if ! ls "$build"/python/banditfs/_core*.so >/dev/null 2>&1; then
  echo "link-python: $build/python/banditfs has no _core module (build with pybind11: scripts/install-deps.sh, scripts/build.sh)" >&2
  exit 1
fi
site="$(/usr/bin/python3 -m site --user-site)"
mkdir -p "$site"
# Written beside and renamed over: a python3 starting meanwhile reads the old file or the new one, never half of one.
tmp="$(mktemp "$site/.banditfs.pth.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
echo "$build/python" >"$tmp"
chmod 644 "$tmp"
mv -f "$tmp" "$site/banditfs.pth"
echo "python: $site/banditfs.pth -> $build/python (import banditfs)"

#!/usr/bin/env bash
# BART's speed (estimators/bart.hpp) against a plain NumPy peer of the same sampler (bart_peer.py) and against the
# default gbm on the same arm: friedman1, n = 1000, p = 20, 10 trees, M = 1000 sweeps, DART on.
#   (a) builds scripts/bench/bart_bench.cpp against BUILD's static libraries and fits BART once (fit seconds,
#       sweeps/s) and make_gbm(GbmParams{}) once (fit seconds), on the data the peer writes;
#   (b) runs bart_peer.py on the same data (PEER_SWEEPS of the M sweeps, extrapolated) and prints the ratio.
#
#   scripts/bench/bart_speed.sh [BUILD=build] [PEER_SWEEPS=1000]
# Needs a built BUILD (cmake --build BUILD --target banditfs) and /usr/bin/python3 with NumPy and SciPy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-build}"
peer_sweeps="${2:-1000}"
n=1000 p=20 trees=10 sweeps=1000 seed=1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

bash "$root/scripts/bench/build_bench.sh" "$root/scripts/bench/bart_bench.cpp" "$work/bart_bench" "$build"

peer=(/usr/bin/python3 "$root/scripts/bench/bart_peer.py" --n "$n" --p "$p" --seed "$seed" --trees "$trees")
"${peer[@]}" --save-data "$work/data.bin"

echo "== banditfs (C++) =="
OMP_NUM_THREADS=1 "$work/bart_bench" "$work/data.bin" "$trees" "$sweeps" 1 | tee "$work/cpp.txt"
echo "== NumPy peer ($peer_sweeps of $sweeps sweeps) =="
"${peer[@]}" --sweeps "$peer_sweeps" --total-sweeps "$sweeps" | tee "$work/peer.txt"

cpp_rate="$(awk '/^bart_sweeps_per_second/ {print $2}' "$work/cpp.txt")"
peer_rate="$(awk '/^sweeps_per_second/ {print $2}' "$work/peer.txt")"
echo "== summary =="
awk -v c="$cpp_rate" -v q="$peer_rate" -v m="$sweeps" 'BEGIN {
  printf "banditfs %.1f sweeps/s (%.2f s per fit of %d sweeps)\n", c, m / c, m
  printf "peer     %.2f sweeps/s (%.1f s per fit, extrapolated)\n", q, m / q
  printf "speed-up banditfs / peer: %.1fx\n", c / q
}'

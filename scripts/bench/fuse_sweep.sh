#!/usr/bin/env bash
# FUSE's defaults from [FUSE] §7.1's grids (docs/fuse.md, "The defaults": the paper names no grid winner, so a sweep on
# madelon-like training folds picks the defaults). Each grid point runs fuse_madelon.py's cv study on a madelon-like
# draw that the protocol never sees (data seed 2, so the choice cannot leak into docs/fuse.md's figures), folds 0 and 1,
# one run each, ITERATIONS iterations (default 20 000: a tenth of the paper's), and judges the FUSE^R top 20 and the
# FUSE path by the SVM's test error. Prints one line per grid point, sorted by the FUSE^R top-20 error.
#
#   scripts/bench/fuse_sweep.sh discrete|continuous [ITERATIONS=20000] [OUT=results/fuse_sweep]
# Grids (§7.1): q = 1 − 10^i, i = −1, −3, −5; c_e = 10^{−4, −2, 0, 2}; c, c_l ∈ {0, 10², 10⁴}.
#   discrete:   q × c_e (12 points; c = c_l = 100), then c_l ∈ {0, 10⁴} at q = 0.999, c_e = 1 (c_l orders widening);
#   continuous: c × c_e (12 points; q = 0.999, c_l = 100), then c_l ∈ {0, 10⁴} at c = 100, c_e = 1.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
heuristic="${1:?discrete or continuous}"
iterations="${2:-20000}"
out="${3:-$root/results/fuse_sweep}"

points=()
if [ "$heuristic" = discrete ]; then
  for q in 0.9 0.999 0.99999; do
    for ce in 0.0001 0.01 1 100; do points+=("method.q=$q method.c_e=$ce"); done
  done
else
  for c in 0 100 10000; do
    for ce in 0.0001 0.01 1 100; do points+=("method.c=$c method.c_e=$ce"); done
  done
fi
points+=("method.c_e=1 method.c_l=0" "method.c_e=1 method.c_l=10000")

for point in "${points[@]}"; do
  sets=()
  for kv in $point; do sets+=(--set "$kv"); done
  /usr/bin/python3 "$root/scripts/bench/fuse_madelon.py" --study cv --out "$out" --data-seed 2 --folds-used 0,1 \
    --runs 1 --iterations "$iterations" --heuristics "$heuristic" --sizes 20 "${sets[@]}" >/dev/null
done

/usr/bin/python3 - "$out" "$iterations" "$heuristic" <<'EOF'
import csv, sys
from pathlib import Path
out, iterations, heuristic = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
letter = "D" if heuristic == "discrete" else "C"
rows = []
for summary in sorted((out / "cv").glob(f"d2_it{iterations}*/summary.csv")):
    tag = summary.parent.name.split("__", 1)[1] if "__" in summary.parent.name else "defaults"
    got = {r["method"]: r for r in csv.DictReader(open(summary))}
    ranked, path = got.get(f"{letter}-FUSE^R"), got.get(f"{letter}-FUSE")
    if ranked is None:
        continue
    rows.append((float(ranked["mean_error"]), tag.replace("__", " "),
                 float(path["mean_error"]) if path else float("nan"), path["path_len_mean"] if path else ""))
print(f"{heuristic}, {iterations} iterations, madelon-like seed 2, folds 0-1 (one run each): SVM test error (%)")
print(f"{'grid point':40s} {'FUSE^R top 20':>14s} {'FUSE path':>10s} {'path length':>12s}")
for top20, tag, path_error, length in sorted(rows):
    print(f"{tag:40s} {100 * top20:14.2f} {100 * path_error:10.2f} {length:>12s}")
EOF

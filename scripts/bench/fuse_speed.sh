#!/usr/bin/env bash
# FUSE's speed (docs/fuse.md, "Speed against the Python peer"): banditfs's `[method] name = "fuse"` against fuse_peer.py
# (the same algorithm in plain Python with scikit-learn's NearestNeighbors), one thread each, one run each, on the same
# rows and the same number of iterations (a reward costs |V|·|L|·|F|, so the two are compared where their searches are
# alike: both print the mean final-set size). Then the batch's cost and its MPI speed-up: B = 1, 8, 64 on one rank, and
# B = 64 at 1, 2 and 4 ranks (this machine has 2 cores: 4 ranks are oversubscribed).
#
#   scripts/bench/fuse_speed.sh [BUILD=build] [ITERATIONS=5000]
# Data: `banditfs simulate madelon-like --seed 1` at p = 500 and at p = 10 000 (2600 rows), its first 2080 rows as
# L (a training fold of §7.1's protocol). Writes nothing outside a temporary directory.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:-build}" && pwd)"
iterations="${2:-5000}"
rows=2080
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1

make_data() {  # make_data P FILE: madelon-like with P columns, its first $rows rows
  "$build/banditfs" simulate madelon-like --seed 1 --p "$1" --n 2600 --out "$work/full.h5" >/dev/null
  /usr/bin/python3 - "$work/full.h5" "$2" "$rows" <<'EOF'
import sys, h5py
src, dst, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
with h5py.File(src, "r") as f, h5py.File(dst, "w") as g:
    g["X"] = f["X"][:rows]
    g["y"] = f["y"][:rows]
    g["feature_names"] = f["feature_names"][()]
EOF
}

c_e=1  # banditfs's default; the peer is told the same, so both run the same search
job() {  # job DATA BATCH: a fuse job on DATA, B = BATCH, the defaults otherwise
  printf '[method]\nname = "fuse"\nselect = "rave"\niterations = %d\nbatch = %d\nc_e = '"$c_e"'\n[data]\nsource = "hdf5"\npath = "%s"\ntask = "binary"\n[run]\nseed = 1\nthreads = 1\n' \
    "$iterations" "$2" "$1"
}

seconds_of() {  # seconds_of RESULT_DIR: the run's search time (no loading) and mean final size from result.h5
  /usr/bin/python3 - "$1/result.h5" <<'EOF'
import sys, h5py, json
f = h5py.File(sys.argv[1], "r")
run = json.loads(open(sys.argv[1].replace("result.h5", "run.json")).read())
print(f"{run['timings']['search_seconds']:.3f} {f['fuse/final_size'][()].mean():.2f}")
EOF
}

for p in 500 10000; do
  make_data "$p" "$work/data$p.h5"
  job "$work/data$p.h5" 1 >"$work/job$p.toml"
  "$build/banditfs" run "$work/job$p.toml" --quiet --out "$work/out$p" >/dev/null
  read -r cpp_seconds cpp_size < <(seconds_of "$work/out$p")
  peer_line="$(/usr/bin/python3 "$root/scripts/bench/fuse_peer.py" --data "$work/data$p.h5" --iterations "$iterations" --seed 1 --c-e "$c_e" |
    grep '^fuse_peer:')"
  peer_seconds="$(sed -E 's/.*seconds=([0-9.]+).*/\1/' <<<"$peer_line")"
  peer_size="$(sed -E 's/.*mean_final_size=([0-9.]+).*/\1/' <<<"$peer_line")"
  awk -v p="$p" -v n="$iterations" -v c="$cpp_seconds" -v cs="$cpp_size" -v q="$peer_seconds" -v qs="$peer_size" 'BEGIN {
    printf "p = %5d, %d iterations: banditfs %7.1f it/s (mean |F| %.1f), peer %6.1f it/s (mean |F| %.1f): %.1fx\n",
           p, n, n / c, cs, n / q, qs, q / c }'
done

echo "== batch B (p = 500, one rank) and B = 64 over ranks =="
for batch in 1 8 64; do
  job "$work/data500.h5" "$batch" >"$work/b$batch.toml"
  "$build/banditfs" run "$work/b$batch.toml" --quiet --out "$work/b$batch" >/dev/null
  read -r s size < <(seconds_of "$work/b$batch")
  printf 'B = %2d, 1 rank: %.2f s (%.0f it/s, mean |F| %s)\n' "$batch" "$s" "$(awk -v n="$iterations" -v s="$s" 'BEGIN {print n / s}')" "$size"
done
for ranks in 2 4; do
  mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$build/banditfs" run "$work/b64.toml" --quiet \
    --out "$work/r$ranks" >/dev/null
  read -r s size < <(seconds_of "$work/r$ranks")
  same="$(cmp -s <(h5dump -d /importance "$work/b64/result.h5" | tail -n +2) \
    <(h5dump -d /importance "$work/r$ranks/result.h5" | tail -n +2) && echo identical || echo DIFFERENT)"
  printf 'B = 64, %d ranks: %.2f s (%.0f it/s), /importance %s to 1 rank\n' "$ranks" "$s" \
    "$(awk -v n="$iterations" -v s="$s" 'BEGIN {print n / s}')" "$same"
done

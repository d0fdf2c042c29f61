#!/bin/bash
# The [TVS] measurements (docs/results.md §9): TVS with BART on the paper's designs, 10 seeds each.
# Writes one log per study into results/paper003/ (each ends with the run_seeds summary).
#   bash scripts/bench/paper003.sh [table2 table1 friedman designs knockoffs identity speed]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=results/paper003
mkdir -p "$OUT"
studies=("$@")
[ ${#studies[@]} -eq 0 ] && studies=(table2 table1 friedman designs knockoffs identity speed)
seeds() { scripts/bench/run_seeds.py "$@" --seeds "${SEEDS:-1-10}" --parallel 2; }

for study in "${studies[@]}"; do
  case "$study" in
    table2)  # acceptance 1: Table 2's cells (s, M, passes)
      for cell in "1000 1000 5" "500 1000 5" "1000 500 1" "1000 500 10"; do
        read -r s m passes <<<"$cell"
        seeds jobs/paper003/liang_online.toml --set data.batch_size="$s" --set estimator.sweeps="$m" \
          --set bandit.passes="$passes" --out "$OUT/runs/table2_${s}_${m}_${passes}" >"$OUT/table2_${s}_${m}_${passes}.log" 2>&1
      done ;;
    table1)  # acceptance 2: BART alone, 50 trees, all 1000 columns, s = 1000, M = 5000
      /usr/bin/python3 scripts/bench/bart_table1.py --seeds "${SEEDS:-1-10}" >"$OUT/table1.log" 2>&1 ;;
    speed)  # acceptance 6: BART against its NumPy peer and the default gbm (one thread)
      bash scripts/bench/bart_speed.sh build 1000 >"$OUT/speed.log" 2>&1 ;;
    friedman)  # acceptance 3: §5.1, M = 1000 and M = 100
      for m in 1000 100; do
        seeds jobs/paper003/friedman1_offline.toml --set estimator.sweeps="$m" \
          --out "$OUT/runs/friedman1_M$m" >"$OUT/friedman1_M$m.log" 2>&1
      done ;;
    designs)  # acceptance 4: §6.1's four designs at M = 500 and 1000, and LASSO-1se on the same data
      for dgp in linear friedman1-corr forest liang; do
        for m in 500 1000; do
          seeds jobs/paper003/designs_offline.toml --set data.dgp="\"$dgp\"" --set estimator.sweeps="$m" \
            --out "$OUT/runs/${dgp}_M$m" >"$OUT/${dgp}_M$m.log" 2>&1
        done
        range="${SEEDS:-1-10}"
        # shellcheck disable=SC2046
        /usr/bin/python3 scripts/bench/tvs_baselines.py "$dgp" --seeds $(seq "${range%-*}" "${range#*-}") \
          >"$OUT/${dgp}_lasso1se.log" 2>&1
      done ;;
    knockoffs)  # acceptance 5: diabetes + 10 Gaussian knockoffs, equicorrelated and SDP
      /usr/bin/python3 scripts/examples_diabetes_csv.py "$OUT/diabetes.csv" --noise 0 >/dev/null
      for construction in gaussian gaussian-sdp; do
        seeds jobs/paper003/diabetes_knockoffs.toml --set data.path="\"$OUT/diabetes.csv\"" \
          --set data.knockoffs="\"$construction\"" --out "$OUT/runs/diabetes_$construction" \
          >"$OUT/diabetes_$construction.log" 2>&1
        /usr/bin/python3 - "$OUT/runs/diabetes_$construction" >>"$OUT/diabetes_$construction.log" <<'PY'
import glob, h5py, sys
rows = []
for path in sorted(glob.glob(sys.argv[1] + "/seed*/result.h5")):
    with h5py.File(path) as f:
        names = [n.decode() for n in f["feature_names"][()]]
        chosen = [names[i] for i in f["selected"][()]]
        rows.append((path.split("/")[-2], f["bandit/knockoffs"].attrs["selected"], chosen))
for seed, ko, chosen in rows:
    print(f"{seed}: knockoffs selected {ko}; selected {chosen}")
print(f"runs with no knockoff selected: {sum(ko == 0 for _, ko, _ in rows)}/{len(rows)}")
PY
      done ;;
    identity)  # acceptance 8: Table 2's (1000, 500, 1) job at 1-4 ranks and G = 1, 4: result.h5 datasets identical
      job=jobs/paper003/liang_online.toml
      ref="$OUT/identity/r1_g1/result.h5"
      for g in 1 4; do
        for ranks in 1 2 3 4; do
          dir="$OUT/identity/r${ranks}_g$g"
          launch=(build/banditfs)
          [ "$ranks" -gt 1 ] && launch=(mpirun --allow-run-as-root --oversubscribe -np "$ranks" build/banditfs)
          "${launch[@]}" run "$job" --quiet --out "$dir" --set estimator.sweeps=500 --set bandit.passes=1 \
            --set bandit.arms_per_round="$g" --set run.threads=1 >/dev/null 2>&1
        done
      done
      /usr/bin/python3 - "$OUT/identity" >"$OUT/identity.log" <<'PY'
import glob, h5py, sys
def datasets(path):
    out = {}
    with h5py.File(path) as f:
        f.visititems(lambda n, o: out.__setitem__(n, o[()].tobytes()) if isinstance(o, h5py.Dataset) else None)
    return out
for g in (1, 4):
    ref = datasets(f"{sys.argv[1]}/r1_g{g}/result.h5")
    for ranks in (2, 3, 4):
        other = datasets(f"{sys.argv[1]}/r{ranks}_g{g}/result.h5")
        same = ref.keys() == other.keys() and all(ref[k] == other[k] for k in ref if "seconds" not in k)
        print(f"G = {g}: 1 rank vs {ranks} ranks: {'identical' if same else 'DIFFER'} ({len(ref)} datasets)")
PY
      cat "$OUT/identity.log" ;;
    *) echo "unknown study $study" >&2; exit 2 ;;
  esac
done

#!/bin/bash
# The calibrated null's measurements (docs/null.md, docs/results.md §8): every study with reward.null = none, shadow,
# paired. Writes one log per study into results/null/ (each ends with the run_seeds / null_diabetes summary).
#   bash scripts/bench/null_study.sh [friedman diabetes noise liang lasso gkx cost]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=results/null
mkdir -p "$OUT"
NULLS=(none shadow paired)
studies=("$@")
[ ${#studies[@]} -eq 0 ] && studies=(friedman diabetes noise liang lasso gkx cost)

for study in "${studies[@]}"; do
  case "$study" in
    friedman)  # acceptance 1 and 4: paper 000 §4.1, seeds 1-10
      for dgp in friedman1 friedman3; do
        for null in "${NULLS[@]}"; do
          scripts/bench/run_seeds.py "jobs/paper000/${dgp}_rf_ttts.toml" --seeds 1-10 --parallel 2 \
            --set "reward.null=\"$null\"" --out "$OUT/runs/${dgp}_$null" >"$OUT/${dgp}_$null.log" 2>&1
        done
      done ;;
    diabetes)  # acceptance 2 and 4
      scripts/bench/null_diabetes.py --seeds 1-5 --nulls none,shadow,paired >"$OUT/diabetes.log" 2>&1 ;;
    noise)  # acceptance 4 on the arms where the paper's rule misfires: small noise-only arms
      scripts/bench/null_noise_only.py --seeds 1-10 --nulls none,shadow,paired >"$OUT/noise_only.log" 2>&1 ;;
    liang)  # acceptance 3: Liang online, 6 seeds
      for null in "${NULLS[@]}"; do
        scripts/bench/run_seeds.py jobs/paper000/online_liang_rf.toml --seeds 1-6 --parallel 2 \
          --set "reward.null=\"$null\"" --out "$OUT/runs/liang_$null" >"$OUT/liang_$null.log" 2>&1
      done ;;
    lasso)  # acceptance 3: paper 000 §4.2 TS vs TTTS at lambda = 0.35, 50 seeds
      for null in "${NULLS[@]}"; do
        for pol in ts ttts; do
          scripts/bench/run_seeds.py jobs/paper000/friedman3_lasso_convergence.toml --seeds 1-50 --parallel 2 \
            --set bandit.policy=$pol --set estimator.lambda=0.35 --set "reward.null=\"$null\"" \
            --out "$OUT/runs/lasso_${pol}_$null" >"$OUT/lasso_${pol}_$null.log" 2>&1
        done
      done ;;
    gkx)  # acceptance 3: the gkx-like stand-in at reduced scale, 24 months, the study's settings
      if [ ! -f "$OUT/gkx24/panel.h5" ]; then
        ./build/banditfs simulate gkx-like --out "$OUT/gkx24/data" --months 24 --seed 1 >/dev/null
        ./build/banditfs prepare-gkx --characteristics "$OUT/gkx24/data/characteristics.csv" \
          --returns "$OUT/gkx24/data/returns.csv" --riskfree "$OUT/gkx24/data/riskfree.csv" \
          --from 2010-01 --to 2011-12 --out "$OUT/gkx24/panel.h5" >/dev/null
      fi
      for null in "${NULLS[@]}"; do
        ./build/banditfs run jobs/empirical/gkx_2010_2019.toml --quiet --out "$OUT/runs/gkx24_$null" \
          --set "data.path=\"$OUT/gkx24/panel.h5\"" --set bandit.iterations=120 --set run.threads=2 \
          --set "reward.null=\"$null\"" >"$OUT/gkx24_$null.log" 2>&1
      done
      scripts/bench/null_gkx_summary.py "$OUT/gkx24/data/truth.json" "$OUT"/runs/gkx24_{none,shadow,paired} \
        >"$OUT/gkx24.log" ;;
    cost)  # acceptance 5: one friedman1 run at p = 1000 per null, one thread, one at a time
      for null in "${NULLS[@]}"; do
        ./build/banditfs run jobs/paper000/friedman1_rf_ttts.toml --quiet --out "$OUT/runs/cost_$null" \
          --set run.threads=1 --set "reward.null=\"$null\"" >/dev/null 2>&1
        /usr/bin/python3 -c "
import json, sys
m = json.load(open('$OUT/runs/cost_$null/run.json'))
t = m['timings']; n = m['iterations']
print(f'$null: {t[\"wall_seconds\"] / n * 1000:.2f} ms/iteration (fit {t[\"fit_seconds\"] / n * 1000:.2f}, '
      f'importance {t[\"importance_seconds\"] / n * 1000:.2f}, split {t[\"split_seconds\"] / n * 1000:.2f})')
" >>"$OUT/cost.log"
      done ;;
    *) echo "unknown study $study" >&2; exit 2 ;;
  esac
done

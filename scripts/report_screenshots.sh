#!/usr/bin/env bash
# The report screenshots of docs/results.md §11: scripts/report.py on the quick start, on one run of each other method
# and on an aggregate of three quick-start seeds; each page loaded in headless Chromium (tests/e2e/browser_check.py:
# it fails on a console error) and the whole page saved as docs/figures/report_<name>.png (1280 pixels wide, at most
# 256 colours, to stay small; the job's text is folded, as a reader first sees it).
# Usage: bash scripts/report_screenshots.sh [BANDITFS]   (default ./build/banditfs; results under
# results/report-screenshots/, from the repository root)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
BANDITFS="${1:-./build/banditfs}"
R=results/report-screenshots
mkdir -p "$R" docs/figures
run() {  # run NAME JOB.toml [extra args]: one run into $R/NAME (replaced)
  local name="$1" job="$2"
  shift 2
  "$BANDITFS" run "$job" --quiet --force --out "$R/$name" "$@" >/dev/null 2>"$R/$name.err" ||
    { cat "$R/$name.err" >&2; exit 1; }
}

# The bandit: the quick start itself, and two more seeds of it for the aggregate.
run quickstart jobs/quickstart.toml
for seed in 2 3; do run "quickstart-seed-$seed" jobs/quickstart.toml --set run.seed=$seed; done
"$BANDITFS" aggregate "$R/quickstart" "$R/quickstart-seed-2" "$R/quickstart-seed-3" --force --out "$R/aggregate" \
  >/dev/null
# FIRST on real data: scikit-learn's diabetes with 20 noise columns (README's CSV example).
/usr/bin/python3 scripts/examples_diabetes_csv.py "$R/diabetes.csv" >/dev/null
printf '[data]\nsource = "csv"\npath = "%s"\ntarget = "progression"\n[method]\nname = "first"\n[run]\nseed = 1\n' \
  "$R/diabetes.csv" >"$R/first.toml"
run first "$R/first.toml"
# FUSE on a simulated table of 30 columns, 5 of them real (select = "shadow", the default).
printf '[data]\nsource = "simulate"\ndgp = "friedman1"\nn = 500\np = 30\n[method]\nname = "fuse"\niterations = 3000\n[run]\nseed = 1\n' \
  >"$R/fuse.toml"
run fuse "$R/fuse.toml"
# cmab-scores on the paper's design (jobs/paper004/cmab_hte_fig2.toml's data), by signal (select = "shadow", the
# default) instead of the paper's top 5.
printf '[data]\nsource = "simulate"\ndgp = "cmab-hte"\nn = 50000\np = 10\nseed = 1\n[method]\nname = "cmab-scores"\n[run]\nseed = 1\n' \
  >"$R/cmab.toml"
run cmab "$R/cmab.toml"

for name in quickstart first fuse cmab aggregate; do
  /usr/bin/python3 scripts/report.py "$R/$name" >/dev/null
  /usr/bin/python3 tests/e2e/browser_check.py "$R/$name/report.html" "$R/$name/screen.png" --width 1280 --full
  /usr/bin/python3 - "$R/$name/screen.png" "docs/figures/report_$name.png" <<'PYEOF'
import sys
from PIL import Image
Image.open(sys.argv[1]).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(sys.argv[2], optimize=True)
PYEOF
  echo "docs/figures/report_$name.png: $(stat -c %s "docs/figures/report_$name.png") bytes"
done

#!/usr/bin/env bash
# Quick start: installs what is missing, builds Release (with the Python package, put on python3's path), runs
# jobs/quickstart.toml (simulated Friedman #1, no external data), prints the top features and where the result, the
# report and the plot are.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-deps.sh
bash scripts/build.sh -DBANDITFS_BUILD_TESTS=OFF
bash scripts/link-python.sh build   # /usr/bin/python3 -c "import banditfs" from any directory (docs/python.md)
./build/banditfs run jobs/quickstart.toml
out=results/quickstart
/usr/bin/python3 scripts/plot_trajectories.py "$out/result.h5" "$out/trajectories.png" \
  --title "banditfs quick start: friedman1, p = 200, random forest, TTTS"
report=$(/usr/bin/python3 scripts/report.py "$out")
echo "report:  $report (open it in a browser: the run's facts, the top features, the trajectories; one page)"
echo "picture: $out/trajectories.png (inclusion-probability trajectories, selected in blue, truth outlined; top-25 bars)"

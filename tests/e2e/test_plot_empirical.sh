#!/usr/bin/env bash
# scripts/plot_empirical.py on a small synthetic result.h5: every legend entry has the colour of the lines it stands
# for (and every drawn line a legend entry), --truth is honoured, result.h5's /truth is used (and said) without it,
# and no unverified ranking is printed.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
$PY - "$ROOT/scripts" "$WORK" <<'PYEOF' && ok || fail "plot_empirical.py checks"
import contextlib, io, json, sys
import h5py, numpy as np
import matplotlib
matplotlib.use("Agg")
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
sys.path.insert(0, sys.argv[1])
import plot_empirical

work = sys.argv[2]
names = ["mom1m", "mom12m", "beta", "bm", "ep", "sic2_10", "macro_dp", "noise1", "noise2", "noise3"]
rng = np.random.default_rng(1)
traj = rng.random((30, len(names))).astype(np.float32)
with h5py.File(f"{work}/result.h5", "w") as f:
    f["trajectory"] = traj
    f["feature_names"] = np.array(names, dtype=h5py.string_dtype())
    f["importance"] = traj[-1].astype(np.float64)
    f["truth"] = np.array([0, 1, 2], dtype=np.int32)  # the planted features: mom1m, mom12m, beta
with open(f"{work}/truth.json", "w") as f:
    json.dump({"strong": ["mom1m"], "planted": ["mom1m", "mom12m", "beta"]}, f)

saved = []
original_savefig = Figure.savefig
def capture(self, *args, **kwargs):
    saved.append(self)
    return original_savefig(self, *args, **kwargs)
Figure.savefig = capture

def run(*extra):
    saved.clear()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = plot_empirical.main([f"{work}/result.h5", f"{work}/fig", *extra])
    assert code == 0, code
    return out.getvalue()

def planted_column(text):
    """{feature: its "planted" cell} of the top-features table."""
    lines = [line.split("|") for line in text.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in lines[0]]
    at, planted = header.index("feature"), header.index("planted")
    return {r[at].strip(): r[planted].strip() for r in lines[1:] if len(r) == len(header)}

problems = []
# 1. The legend against the lines, with --truth (every group present).
text = run("--truth", f"{work}/truth.json")
ax = saved[0].axes[0]
drawn = set()
for artist in list(ax.collections) + list(ax.lines):
    colours = artist.get_colors() if hasattr(artist, "get_colors") else [artist.get_color()]
    drawn.update(tuple(round(c, 4) for c in to_rgb(colour)) for colour in colours)
drawn.discard((0.0, 0.0, 0.0))  # the dashed 0.5 line
legend = {tuple(round(c, 4) for c in to_rgb(h.get_color())) for h in ax.get_legend().get_lines()}
if drawn - legend: problems.append(f"lines drawn in colours the legend does not show: {sorted(drawn - legend)}")
if legend - drawn: problems.append(f"legend colours no line has: {sorted(legend - drawn)}")
# 2. --truth is honoured: mom1m strong, mom12m and beta weak.
planted = planted_column(text)
if (planted.get("mom1m"), planted.get("mom12m"), planted.get("beta")) != ("strong", "weak", "weak"):
    problems.append(f"--truth not honoured: {planted}")
if "truth: " + f"{work}/truth.json" not in text: problems.append("the truth used is not said (--truth)")
# 3. Without --truth, result.h5's /truth is used, and said.
text = run()
planted = planted_column(text)
if not all(planted.get(n) for n in ("mom1m", "mom12m", "beta")) or planted.get("bm"):
    problems.append(f"result.h5's /truth not used: {planted}")
if "truth: result.h5's /truth" not in text: problems.append("the truth used is not said (/truth)")
# 4. No ranking from memory.
if "unverified" in text or "from memory" in text: problems.append("an unverified ranking is printed")
for p in problems: print("FAIL:", p, file=sys.stderr)
sys.exit(1 if problems else 0)
PYEOF
finish

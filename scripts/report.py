#!/usr/bin/python3
"""Write RESULT_DIR/report.html: one self-contained page about a banditfs result, for any method.

The page holds, in this order: the job and data facts (method, estimator, data origin, n, p, task, seed, run time,
stop reason, selection rule, truth metrics, missing counts, the summary of several runs); one legend of the colour
rule shared by every picture (scripts/banditfs_style.py); the top features by importance with their interval, and
their selection frequency with the threshold when the result summarizes several runs (/stability: `banditfs
aggregate`, stability selection); the bandit's trajectories; each method's own picture (FIRST's forward path, FUSE's
most-visited path and reward, cmab-scores' HIE/HDD/filter scores side by side); a table of the top features; the job.
Truth, when known (/truth), is marked in every picture and table.

Images are inline PNG (data: URIs); the page loads nothing else and needs no JavaScript. Nothing but
RESULT_DIR/report.html is written, through a temporary file in RESULT_DIR renamed over it. A directory that is
missing, holds no result.h5 or run.json, or whose set is torn (result.h5 does not match the size and digest run.json
pins) is refused: exit 1 and a message naming the file.

Usage: report.py RESULT_DIR [--top 20]
Runs with Debian's python3-h5py / python3-matplotlib / python3-numpy (Agg backend, no display).
"""
import argparse
import base64
import html
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import banditfs_style as style  # noqa: E402
import report_data  # noqa: E402
import report_figures  # noqa: E402

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 0 auto;
       max-width: 1280px; padding: 20px 28px; color: #1a1a1a; background: #fff; }
h1 { font-size: 1.5em; margin: 0 0 4px 0; }
h2 { font-size: 1.15em; margin: 28px 0 8px 0; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
.lead { font-size: 1.05em; color: #333; margin: 2px 0 14px 0; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr)); gap: 2px 24px; }
.facts div { display: flex; gap: 8px; padding: 3px 0; border-bottom: 1px dotted #e3e3e3; font-size: 0.92em; }
.facts b { flex: 0 0 108px; color: #555; font-weight: 600; }
.facts span { flex: 1 1 auto; overflow-wrap: anywhere; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 22px; align-items: center; font-size: 0.92em;
          background: #f6f6f6; padding: 8px 12px; border-radius: 4px; }
.sw { display: inline-block; width: 16px; height: 12px; vertical-align: middle; margin-right: 5px; }
figure { margin: 10px 0 22px 0; }
figure img { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.9em; color: #444; margin-top: 4px; }
table { border-collapse: collapse; font-size: 0.88em; }
th, td { padding: 3px 9px; text-align: right; border-bottom: 1px solid #eee; }
th { background: #f3f3f3; } td.name, th.name { text-align: left; }
tr.sel td.name { color: SELECTED_COLOUR; font-weight: 600; }
pre { background: #f6f6f6; padding: 10px; font-size: 0.85em; overflow-x: auto; }
.note { color: #666; font-size: 0.88em; }
""".replace("SELECTED_COLOUR", style.SELECTED)


def esc(value):
    return html.escape(str(value))


def number(value):
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.4g}"
    if isinstance(value, np.integer):
        return str(int(value))
    return str(value)


def seconds(value):
    value = float(value)
    return f"{value:.2f} s" if value < 120 else f"{value / 60:.1f} min ({value:.0f} s)"


def method_line(r):
    """'bandit — policy ttts, estimator random_forest, metric r2': the method and its own string facts."""
    skip = {"feature_columns", "estimator"}  # the estimator has its own line
    parts = [f"{k} {v}" for k, v in r["facts"].items() if isinstance(v, str) and k not in skip and "/" not in k]
    return r["attrs"].get("method", "?") + (" \u2014 " + ", ".join(parts) if parts else "")


def estimator_of(r):
    if "estimator" in r["facts"]:
        return r["facts"]["estimator"]
    job = r["job"].get("estimator")
    return job.get("name", "") if isinstance(job, dict) else ""


def selection_facts(r):
    value, label = report_figures.method_threshold(r)
    rows = [("selected", f"{int(r['selected'].sum())} of {len(r['names'])} features")]
    if r["stability"]:
        pi = r["stability_attrs"].get("threshold")
        rows.append(("rule", f"selection frequency \u2265 {pi:g} over {r['stability_attrs'].get('runs', '?')} runs"
                     if pi is not None else "selection frequency over several runs"))
    elif label:
        rows.append(("rule", label))
    for key in ("shadows", "shadow_quantile"):
        if key in r["facts"]:
            rows.append((key.replace("_", " "), number(r["facts"][key])))
    return rows


def stability_facts(r):
    """The summary of several runs: its attributes (runs, threshold, and what stability selection adds) and, for an
    aggregate, the runs' seeds."""
    rows = []
    for key, value in r["stability_attrs"].items():
        if key not in ("threshold", "runs"):  # both in the rule's line
            rows.append((f"stability {key}", number(value)))
    sources = r["run_json"].get("stability", {}).get("sources", []) if isinstance(r["run_json"], dict) else []
    if sources:
        rows.append(("runs' seeds", ", ".join(str(s.get("seed", "?")) for s in sources)))
    return rows


def truth_facts(r):
    if r["truth"] is None:
        return [("truth", "not known")]
    a = r["attrs"]
    rows = [("truth", f"{int(r['truth'].sum())} true features known")]
    if "power" in a:
        rows.append(("power, FDP", f"{a['power']:.3g}, {a.get('fdp', float('nan')):.3g} (Hamming {a.get('hamming')})"))
    if a.get("separation_iteration", -1) not in (-1, None) and r["trajectory"] is not None:
        rows.append(("separated", f"after iteration {a['separation_iteration']}"))
    return rows


def missing_facts(r):
    if r["missing"] is None:
        return []
    m = r["missing"]
    with_missing = [(int(m[k]), r["names"][k]) for k in range(len(m)) if m[k] > 0]
    text = f"{len(with_missing)} features have missing cells"
    if with_missing:
        worst = sorted(with_missing, key=lambda t: -t[0])[:5]
        text += ": " + ", ".join(f"{name} {count}" for count, name in worst) + (" \u2026" if len(with_missing) > 5 else "")
    rows = [("missing", text)]
    dropped = r["attrs"].get("rows_without_target", 0)
    if dropped:
        rows.append(("rows dropped", f"{dropped} without a target"))
    return rows


def timing_facts(r):
    a = r["attrs"]
    rows = [("run time", seconds(a["wall_seconds"]) if "wall_seconds" in a else "not recorded")]
    others = [(k[:-8], v) for k, v in a.items() if k.endswith("_seconds") and k != "wall_seconds" and v]
    if others:
        rows.append(("of which", ", ".join(f"{k} {seconds(v)}" for k, v in others)))
    return rows


def facts(r):
    """The facts of the job and its data as (label, text) pairs, in reading order."""
    a = r["attrs"]
    n, how = report_data.data_rows(r)
    unit = a.get("iteration_unit", "iterations")
    if r["stability"] and r["stability_attrs"].get("runs") == a.get("iterations"):
        unit = "runs"  # an aggregate counts its runs
    rows = [("method", method_line(r))]
    if estimator_of(r):
        rows.append(("estimator", estimator_of(r)))
    rows += [("data", a.get("data_origin", "?")), ("task", a.get("task", "?")),
             ("n (rows)", f"{n} ({how})" if n is not None else how), ("p (features)", str(len(r["names"])))]
    rows += [("seed", f"{a.get('seed', '?')} (ranks {a.get('ranks', '?')}, threads {a.get('threads', '?')})"),
             (unit, str(a.get("iterations", "?"))), ("stop", a.get("stop_reason", "?"))]
    rows += timing_facts(r) + selection_facts(r) + truth_facts(r)
    if "interval" in a:
        rows.append(("interval", f"level {a['interval']:g} (importance_lo, importance_hi)"))
    rows += stability_facts(r) + missing_facts(r)
    rows.append(("banditfs", a.get("version", "?")))
    return rows


def lead(r):
    """The one sentence a reader sees first under the title."""
    a, p = r["attrs"], len(r["names"])
    chosen = [r["names"][k] for k in report_figures.top_order(r, p) if r["selected"][k]]
    text = f"{len(chosen)} of {p} features selected"
    if chosen:
        text += ": " + ", ".join(chosen[:8]) + (" \u2026" if len(chosen) > 8 else "")
    if r["truth"] is not None and "power" in a:
        text += f". Against the known truth: power {a['power']:.2f}, false discovery proportion {a.get('fdp', 0):.2f}"
    return text + "."


def legend_html(r):
    """The colour rule once for the whole page (the entries this result has: no truth entry when it is unknown)."""
    def swatch(css):
        return f'<span class="sw" style="{css}"></span>'
    items = [swatch(f"background:{style.SELECTED}") + "selected",
             swatch(f"background:{style.NOT_SELECTED}") + "not selected"]
    if r["truth"] is not None:
        items.append(swatch(f"background:#fff;border:2px solid {style.TRUTH};box-sizing:border-box")
                     + f"{style.TRUTH_MARK} true feature (black outline, star before its name or at its line's end)")
    if r["stability"] or report_figures.method_threshold(r)[0] is not None:  # a line is drawn
        items.append(swatch(f"border-top:2px dashed {style.THRESHOLD};height:0") + "selection threshold")
    if r["lo"] is not None:
        items.append(swatch(f"border-top:1.5px solid {style.INTERVAL};height:0") + "interval")
    return '<div class="legend">' + "".join(f"<span>{i}</span>" for i in items) + "</div>"


def table_html(r, top):
    order = report_figures.top_order(r, top)
    freq = r["stability"].get("selection_frequency")
    columns = [c for c in str(r["facts"].get("feature_columns", "")).split(",") if c and c in r["datasets"]]
    head = ["rank", "feature", "name", report_figures.meaning_of(r)]
    head += ["lo", "hi"] if r["lo"] is not None else []
    head += ["frequency"] if freq is not None else []
    head += columns + ["selected"] + (["true"] if r["truth"] is not None else [])
    out = ["<table><tr>" + "".join(f'<th{" class=name" if h == "name" else ""}>{esc(h)}</th>' for h in head) + "</tr>"]
    for i, k in enumerate(order, 1):
        cells = [str(r["rank"][k]) if r["rank"] is not None else str(i), str(k),
                 esc(style.label(r["names"][k], r["truth"] is not None and r["truth"][k])), number(r["importance"][k])]
        cells += [number(r["lo"][k]), number(r["hi"][k])] if r["lo"] is not None else []
        cells += [f"{float(freq[k]):.2f}"] if freq is not None else []
        cells += [esc(number(r["datasets"][c][k])) for c in columns]
        cells += ["\u2713" if r["selected"][k] else ""] + (["\u2605" if r["truth"][k] else ""]
                                                              if r["truth"] is not None else [])
        cls = ' class="sel"' if r["selected"][k] else ""
        out.append(f"<tr{cls}>" + "".join(f'<td{" class=name" if j == 2 else ""}>{c}</td>'
                                          for j, c in enumerate(cells)) + "</tr>")
    return "\n".join(out) + "</table>"


def page(r, pictures, directory, top):
    a = r["attrs"]
    title = f"banditfs report: {a.get('method', '?')} on {a.get('data_origin', '?')}"
    if r["stability"]:
        title += f", summary of {r['stability_attrs'].get('runs', 'several')} runs"
    facts_html = "".join(f"<div><b>{esc(k)}</b><span>{esc(v)}</span></div>" for k, v in facts(r))
    figures = "".join(
        f'<figure><img alt="{esc(caption)}" src="data:image/png;base64,{base64.b64encode(data).decode()}">'
        f"<figcaption>{esc(caption)}</figcaption></figure>" for caption, data in pictures)
    job = a.get("job", "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{esc(title)}</title><style>{CSS}</style></head>
<body>
<h1>{esc(title)}</h1>
<p class="lead">{esc(lead(r))}</p>
<div class="facts">{facts_html}</div>
<h2>Pictures</h2>
{legend_html(r)}
{figures}
<h2>Top {min(top, len(r["names"]))} features</h2>
{table_html(r, top)}
<p class="note">All {len(r["names"])} features: summary.csv; every number: run.json and result.h5 in
{esc(os.path.abspath(directory))}.</p>
{f"<h2>Job</h2><details><summary>the job as run (every key, defaults included)</summary><pre>{esc(job)}</pre>"
   "</details>" if job else ""}
</body></html>
"""


def write_atomic(directory, text):
    """Writes RESULT_DIR/report.html through a temporary file renamed over it (nothing else is touched)."""
    target = os.path.join(directory, "report.html")
    fd, tmp = tempfile.mkstemp(prefix=".report.html.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result_dir", help="a banditfs output directory (result.h5, summary.csv, run.json)")
    parser.add_argument("--top", type=int, default=20, help="features in the top chart and table (default 20)")
    args = parser.parse_args(argv)
    try:
        h5, run_json = report_data.check_directory(args.result_dir)
        r = report_data.read_result(h5, run_json)
        text = page(r, report_figures.all_pictures(r) if r["names"] else [], args.result_dir, max(args.top, 1))
        target = write_atomic(args.result_dir, text)
    except report_data.ReportError as e:
        print(f"report.py: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"report.py: error: cannot write the report into '{args.result_dir}': {e}", file=sys.stderr)
        return 1
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())

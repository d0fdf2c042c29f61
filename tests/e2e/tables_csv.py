#!/usr/bin/python3
"""Writes a small table as a user's CSV comes (tests/e2e/test_tables.sh, test_bad_input_tables.sh).

Columns: date (ISO days, to be excluded), x1 (N(0,1), empty cells), x2 (N(0,1), NA and nan cells), x3 (N(0,1),
unrelated to y), color (text: red / green / blue, some cells empty), y (text: "up" / "down", some cells empty).
y is "up" when x1 + 1.5 [color = red] + 0.3 e > 0.5: x1 and color matter, x2 and x3 do not.

Options add one defect each (the bad cases): --labels up,down,flat (a third label value), --all-missing (a column
"vacant" with no value), --inf (x2's fourth cell "inf"), --levels N (a column "store" with N levels, each on rows/N
rows), --id (a column "id" with one value per row).

  /usr/bin/python3 tests/e2e/tables_csv.py OUT.csv [--rows 240] [--seed 1] [defect options]
"""
import argparse
import datetime

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--rows", type=int, default=240)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--labels", default="up,down", help="the label values: first = x1 high, second = low, then more")
    ap.add_argument("--all-missing", action="store_true")
    ap.add_argument("--inf", action="store_true")
    ap.add_argument("--levels", type=int, default=0)
    ap.add_argument("--id", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    n = args.rows
    x = rng.standard_normal((n, 3))
    color = rng.choice(["red", "green", "blue"], size=n)
    score = x[:, 0] + 1.5 * (color == "red") + 0.3 * rng.standard_normal(n)
    labels = args.labels.split(",")
    y = np.where(score > 0.5, labels[0], labels[1]).astype(object)
    for k, extra in enumerate(labels[2:]):
        y[k::7] = extra  # every 7th row from k: a third value, and so on
    cells = {
        "date": [(datetime.date(2021, 1, 1) + datetime.timedelta(days=i)).isoformat() for i in range(n)],
        "x1": [f"{v:.4f}" for v in x[:, 0]],
        "x2": [f"{v:.4f}" for v in x[:, 1]],
        "x3": [f"{v:.4f}" for v in x[:, 2]],
        "color": list(color),
        "y": list(y),
    }
    for i in range(3, n, 20):
        cells["x1"][i] = ""
    for i in range(5, n, 25):
        cells["x2"][i] = "NA" if i % 2 else "nan"
    for i in range(7, n, 30):
        cells["color"][i] = ""
    for i in range(11, n, 40):
        cells["y"][i] = ""
    if args.inf:
        cells["x2"][3] = "inf"
    if args.all_missing:
        cells["vacant"] = [""] * n
    if args.levels:
        cells["store"] = [f"s{i % args.levels:03d}" for i in range(n)]
    if args.id:
        cells["id"] = [f"c{i:05d}" for i in range(n)]
    names = list(cells)
    with open(args.out, "w") as f:
        f.write(",".join(names) + "\n")
        for i in range(n):
            f.write(",".join(cells[c][i] for c in names) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Method fuse ([FUSE]; the core and its wiring — the paper's benchmarks are not built yet): a run on a
# binary simulation writes result.h5 with /fuse's datasets and summary.csv's columns, the same job and seed give
# the same bytes at 1 and 2 threads and for the batch's own rank count, and each bad input of the specification gives one
# message, exit ≠ 0 and no result.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
fuse_job() {  # fuse_job [METHOD-LINES] [DATA-LINES]
  printf '[method]\nname = "fuse"\niterations = 400\nreward_subsample = 40\ntop = 12\n%s\n[data]\nsource = "simulate"\ndgp = "friedman1"\nn = 160\np = 12\n%s\n[run]\nseed = 4\n' \
    "${1:-}" "${2:-}"
}
run_job a "$(fuse_job 'batch = 4')" --set run.threads=1 >/dev/null 2>"$WORK/a.err" && ok || fail "fuse run: $(cat "$WORK/a.err")"
run_job b "$(fuse_job 'batch = 4')" --set run.threads=2 >/dev/null 2>"$WORK/b.err" && ok || fail "fuse run: $(cat "$WORK/b.err")"
same=$(compare_datasets "$WORK/out-a/result.h5" "$WORK/out-b/result.h5")
[ "$same" = same ] && ok || fail "1 vs 2 threads: $same"
$PY - "$WORK/out-a/result.h5" <<'PYEOF' && ok || fail "result contents"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
p = f["importance"].shape[0]
assert p == 12 and f.attrs["method"] in ("fuse", b"fuse")
assert f["fuse/reward"].shape == (400,) and f["fuse/final_size"].shape == (400,)
r = f["fuse/reward"][()]
assert ((r >= 0) & (r <= 1)).all()
assert f["fuse/grave_count"].shape == (p,) and f["fuse/stop_grave"].shape == (p + 1,)
assert f["fuse/grave_count"][()].sum() == f["fuse/final_size"][()].sum(), "every final feature counted once"
assert sorted(f["rank"][()]) == list(range(1, p + 1))
assert len(f["selected"][()]) <= 20
# select = "shadow" (the default) with two searches of 200 iterations: each searches k copies of each of the 12
# features beside them, none in any output; the selected set is the features whose g-RAVE beats their search's
# threshold (search_threshold) in both searches, and importance is the mean of the searches' g-RAVE (search_grave).
g = f["fuse"]
assert g.attrs["select"] in ("shadow", b"shadow") and g.attrs["shadows"] == 12 * g.attrs["shadow_copies"]
assert g.attrs["searches"] == 2 and "shadow_threshold" not in g.attrs
rows, t = g["search_grave"][()], g["search_threshold"][()]
assert rows.shape == (2, p) and t.shape == (2,)
imp = f["importance"][()]
assert np.allclose(imp, rows.mean(axis=0), rtol=0, atol=1e-15)
assert list(f["selected"][()]) == [j for j in range(p) if (rows[:, j] > t).all()], (list(f["selected"][()]), t)
assert (f["fuse/path"][()] < p).all() and f["fuse/on_path"].shape == (p,)
assert all(f[n].shape[0] == p for n in ("feature_names", "importance", "rank", "fuse/grave_count"))
assert (f["fuse/final_size"][()] <= p).all()
PYEOF
grep -c . "$WORK/out-a/summary.csv" | grep -qx 13 && ok || fail "summary.csv has a row per feature and none for a shadow"
grep -Eq 'select = "shadow": .* features have a g-RAVE above the (maximum|[0-9]+(st|nd|rd|th) largest) of [0-9]+ shadows.* g-RAVE in each of 2 searches \(false selections expected: at most .*\)' "$WORK/out-a/banditfs.log" && ok ||
  fail "the log says what the shadow rule selected: $(grep -i shadow "$WORK/out-a/banditfs.log")"
/usr/bin/python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["fuse"]; assert f["select"] == "shadow" and f["searches"] == 2' \
  "$WORK/out-a/run.json" && ok || fail "run.json records the shadow rule"
# One search: one threshold, the fact shadow_threshold, and selected = importance above it.
run_job one "$(fuse_job 'searches = 1')" >/dev/null 2>"$WORK/one.err" && ok || fail "searches = 1: $(cat "$WORK/one.err")"
$PY - "$WORK/out-one/result.h5" <<'PYEOF' && ok || fail "one search: the threshold fact"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
g, imp = f["fuse"], f["importance"][()]
assert g.attrs["searches"] == 1 and "search_grave" not in g and "search_threshold" not in g
t = g.attrs["shadow_threshold"]
assert list(f["selected"][()]) == [j for j in range(len(imp)) if imp[j] > t], (list(f["selected"][()]), t)
PYEOF
grep -Eq 'select = "shadow": .* features have a g-RAVE above [0-9.e-]+, the (maximum|[0-9]+(st|nd|rd|th) largest) of [0-9]+ shadows.* g-RAVE \(false selections expected: at most .*\)' "$WORK/out-one/banditfs.log" && ok ||
  fail "one search: the log names the threshold: $(grep -i shadow "$WORK/out-one/banditfs.log")"
head -1 "$WORK/out-a/summary.csv" | grep -qx 'feature,name,importance,selected,rank,grave_count,on_path' && ok ||
  fail "summary.csv header: $(head -1 "$WORK/out-a/summary.csv")"
run_job top "$(fuse_job 'select = "rave"')" >/dev/null 2>"$WORK/top.err" && ok || fail "select = rave: $(cat "$WORK/top.err")"
/usr/bin/python3 -c 'import h5py, sys; f = h5py.File(sys.argv[1]); assert len(f["selected"][()]) == 12 and "shadow_threshold" not in f["fuse"].attrs' \
  "$WORK/out-top/result.h5" && ok || fail "select = rave keeps the top 12 and has no shadows"
run_job path "$(fuse_job 'select = "path"
heuristic = "continuous"')" >/dev/null 2>"$WORK/path.err" && ok || fail "continuous, path: $(cat "$WORK/path.err")"
run_job rave "$(fuse_job 'heuristic = "continuous"
untried = "rave"')" >/dev/null 2>"$WORK/rave.err" && ok || fail "continuous, untried = rave: $(cat "$WORK/rave.err")"
run_job rand "$(fuse_job 'heuristic = "rand"')" >/dev/null 2>"$WORK/rand.err" && ok || fail "rand: $(cat "$WORK/rand.err")"

# A result.h5 where a checkpoint is expected is named as a result, not as another method's checkpoint.
cp "$WORK/out-a/result.h5" "$WORK/out-a/checkpoint.h5"
expect_error as_checkpoint "this is a run's result (result.h5), not a checkpoint" -- \
  run_job a "$(fuse_job 'batch = 4')" --resume
rm -f "$WORK/out-a/checkpoint.h5"

expect_error regression_target 'data.task = "regression": method fuse needs a binary target' \
  -- run_job regression_target "$(fuse_job '' 'task = "regression"')"
awk 'BEGIN { srand(5); print "a,b,y"; for (i = 0; i < 30; i++) printf "%.4f,%.4f,%d\n", rand(), rand(), i % 3 }' >"$WORK/three.csv"
expect_error three_classes "three.csv" -- run_job three_classes "$(printf '[method]\nname = "fuse"\niterations = 10\nreward_subsample = 10\n[data]\nsource = "csv"\npath = "%s"\ntarget = "y"\n' "$WORK/three.csv")"
expect_error untried_unknown 'method.untried = "all" is not one of "first", "rave"' \
  -- run_job untried_unknown "$(fuse_job 'untried = "all"')"
expect_error q_zero "method.q" -- run_job q_zero "$(fuse_job 'q = 0')"
expect_error shadow_copies_zero "method.shadow_copies = 0 is out of range" -- run_job shadow_copies_zero "$(fuse_job 'shadow_copies = 0')"
expect_error shadow_max_false_zero "method.shadow_max_false = 0 is out of range" -- \
  run_job shadow_max_false_zero "$(fuse_job 'shadow_max_false = 0')"
expect_error q_one "method.q" -- run_job q_one "$(fuse_job 'q = 1')"
expect_error k_too_large "method.k = 160 needs more training rows than the 160" -- run_job k_too_large "$(fuse_job 'k = 160')"
expect_error subsample_too_large "method.reward_subsample = 161 is more than the 160 rows" \
  -- run_job subsample_too_large "$(fuse_job)" --set method.reward_subsample=161
# top-k against p (the rule cmab-scores' select_top follows): refused for select = "rave", not read for "path".
expect_error top_too_large "method.top = 13 is more than the 12 features of simulate:friedman1" \
  -- run_job top_too_large "$(fuse_job 'select = "rave"')" --set method.top=13
expect_error shadows_too_many "method.shadows = 13 is more than the 12 features of simulate:friedman1" \
  -- run_job shadows_too_many "$(fuse_job)" --set method.shadows=13
expect_error shadow_quantile_zero "method.shadow_quantile" -- run_job shadow_quantile_zero "$(fuse_job 'shadow_quantile = 0')"
expect_error searches_path 'method.searches = 2 with select = "path": the path is one search' \
  -- run_job searches_path "$(fuse_job 'select = "path"
searches = 2')"
expect_error searches_more_than_iterations "method.iterations = 3 is fewer than the 4 searches that share them" \
  -- run_job searches_more_than_iterations "$(fuse_job 'searches = 4')" --set method.iterations=3
expect_error searches_too_many "method.searches = 65 is out of range" -- run_job searches_too_many "$(fuse_job 'searches = 65')"
run_job top_path "$(fuse_job 'select = "path"')" --set method.top=13 --set method.iterations=40 >/dev/null \
  2>"$WORK/top_path.err" && ok || fail "select = path with top > p: $(cat "$WORK/top_path.err")"
finish

#!/usr/bin/env bash
# Bad tables (README, the data section): a column with no value, an Inf cell, a column with too many levels (a
# shop code, an id), a label with three values and a positive_label that is not one of the two. Each, for every
# (X, y) method, gives exactly one stderr line "banditfs: error: ..." naming the file and the column (or the
# values), exit ≠ 0, and no result (result.h5, summary.csv, run.json). (Redirected, stderr also carries the run's log
# lines, "[time] level ...", as a batch log would: those are not counted.)
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

# table NAME [tables_csv.py options]: writes $WORK/NAME.csv and prints its path.
table() {
  local name="$1"
  shift
  $PY "$(dirname "$0")/tables_csv.py" "$WORK/$name.csv" "$@" && echo "$WORK/$name.csv"
}
# job METHOD CSV [DATA-LINES]: a short run of the method on the CSV (binary y, positive "up", date excluded).
job() {
  local data
  data=$(printf '[data]\nsource = "csv"\npath = "%s"\ntarget = "y"\ntask = "binary"\nexclude = ["date"]\n%s' "$2" \
    "${3:-positive_label = \"up\"}")
  case "$1" in
    bandit) printf '%s\n[estimator]\nname = "hgb"\nn_estimators = 10\n[bandit]\niterations = 4\n' "$data" ;;
    first) printf '[method]\nname = "first"\n%s\n' "$data" ;;
    fuse) printf '[method]\nname = "fuse"\niterations = 20\nreward_subsample = 20\ntop = 2\n%s\n' "$data" ;;
  esac
}
# expect_one_line NAME METHOD CSV "fragment"... -- [DATA-LINES]: the run fails with one stderr line besides the log's,
# the error, naming the file and each fragment, and leaves no result.
expect_one_line() {
  local name="$1" method="$2" csv="$3"
  shift 3
  local fragments=()
  while [ "$1" != "--" ]; do fragments+=("$1"); shift; done
  shift
  local err code
  err=$(run_job "$name" "$(job "$method" "$csv" "$@")" 2>&1 >/dev/null)
  code=$?
  local where="$name ($method)"
  if [ $code -eq 0 ]; then fail "$where: exit code 0"; return; fi
  err=$(grep -v '^\[[0-9:]*\] ' <<<"$err")
  if [ "$(grep -c . <<<"$err")" -ne 1 ]; then fail "$where: not one line: $err"; return; fi
  if ! grep -q "^banditfs: error: " <<<"$err"; then fail "$where: not a 'banditfs: error:' line: $err"; return; fi
  for frag in "$csv" "${fragments[@]}"; do
    if ! grep -qF -- "$frag" <<<"$err"; then fail "$where: '$frag' not in: $err"; return; fi
  done
  for out in result.h5 summary.csv run.json; do
    if [ -e "$WORK/out-$name/$out" ]; then fail "$where: wrote $out"; return; fi
  done
  ok
}

empty=$(table empty --all-missing)
inf=$(table inf --inf)
store=$(table store --rows 1000 --levels 70)  # 14 or 15 rows a level: none pooled
id=$(table id --id)
three=$(table three --labels up,down,flat)
pair=$(table pair)
for m in bandit first fuse; do
  expect_one_line "vacant_$m" "$m" "$empty" "vacant" -- 'positive_label = "up"'
  expect_one_line "inf_$m" "$m" "$inf" "x2" "inf" -- 'positive_label = "up"'
  expect_one_line "store_$m" "$m" "$store" "store" "70" "data.exclude" "data.max_levels" -- 'positive_label = "up"'
  expect_one_line "id_$m" "$m" "$id" "id" "data.exclude" -- 'positive_label = "up"'
  expect_one_line "three_$m" "$m" "$three" "y" "up" "down" "flat" -- 'positive_label = "up"'
  expect_one_line "absent_$m" "$m" "$pair" "positive_label" "rise" "up" "down" -- 'positive_label = "rise"'
done
# The date column, not excluded, is refused like the id, naming it and data.exclude.
no_exclude=$(job first "$pair" | sed '/^exclude = /d')
expect_error date_first "date" -- run_job date_first "$no_exclude"
grep -qF "data.exclude" <(run_job date_first_hint "$no_exclude" 2>&1) && ok || fail "date: no data.exclude in the error"

# The limit is the job's: with data.max_levels above the store's 70 levels the table runs.
run_job store_raised "$(job first "$store" 'positive_label = "up"
max_levels = 80')" >/dev/null 2>"$WORK/store_raised.err" && ok || fail "max_levels = 80: $(cat "$WORK/store_raised.err")"

finish

#!/usr/bin/env bash
# scripts/report.py in a real browser: a tiny result of each method (bandit, first, fuse, cmab-scores) and an
# aggregate of two bandit seeds; report.py writes report.html and nothing else; the page is self-contained (every
# image inline, no URL), holds the method's own picture and the summary of several runs where there is one; headless
# Chromium loads it without a console error (browser_check.py, DevTools protocol) and its screenshot is not blank.
# The checker itself must catch a page with a console error and a missing image. A missing, empty or torn directory is
# refused with exit 1 and a message naming the file. Skips (exit 77) only when no chromium is installed.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
REPORT="$ROOT/scripts/report.py"
CHECK="$ROOT/tests/e2e/browser_check.py"
if ! command -v chromium >/dev/null 2>&1; then
  echo "SKIPPED: no chromium on PATH (scripts/install-deps.sh installs Debian's chromium)"
  exit 77
fi

# The checker catches what it must: a console.error, an uncaught exception and an image that does not load.
printf '<!DOCTYPE html><html><body><p>x</p><img src="missing.png"><script>console.error("planted error");
throw new Error("planted exception");</script></body></html>\n' >"$WORK/bad.html"
out=$($PY "$CHECK" "$WORK/bad.html" "$WORK/bad.png" 2>&1)
code=$?
[ $code -eq 1 ] && grep -q "planted error" <<<"$out" && grep -q "planted exception" <<<"$out" &&
  grep -qi "missing.png\|ERR_FILE_NOT_FOUND\|Failed to load" <<<"$out" && ok ||
  fail "browser_check.py missed the planted console errors (exit $code): $out"

# Tiny results of each method (the jobs of test_aggregate/test_fuse/test_cmab, smaller).
tiny_job >"$WORK/bandit.toml"
for seed in 1 2; do
  "$BANDITFS" run "$WORK/bandit.toml" --quiet --set run.seed=$seed --out "$WORK/seed-$seed" >/dev/null 2>&1 ||
    fail "bandit run of seed $seed"
done
cp -r "$WORK/seed-1" "$WORK/out-bandit"
"$BANDITFS" aggregate "$WORK/seed-1" "$WORK/seed-2" --out "$WORK/out-aggregate" >/dev/null 2>&1 || fail "aggregate"
run_job first "$(printf '[method]\nname = "first"\n[data]\nsource = "simulate"\ndgp = "ishigami"\nn = 200\np = 6\n[run]\nseed = 2\n')" \
  >/dev/null 2>"$WORK/first.err" || fail "first run: $(cat "$WORK/first.err")"
run_job fuse "$(printf '[method]\nname = "fuse"\niterations = 300\nreward_subsample = 40\n[data]\nsource = "simulate"\ndgp = "friedman1"\nn = 160\np = 10\n[run]\nseed = 4\n')" \
  >/dev/null 2>"$WORK/fuse.err" || fail "fuse run: $(cat "$WORK/fuse.err")"
run_job cmab "$(printf '[method]\nname = "cmab-scores"\n[data]\nsource = "simulate"\ndgp = "cmab-hte"\nn = 4000\np = 10\nseed = 5\n[run]\nseed = 5\n')" \
  >/dev/null 2>"$WORK/cmab.err" || fail "cmab-scores run: $(cat "$WORK/cmab.err")"

# name:a phrase its page must hold (the method's own picture, or the summary of several runs).
for item in "bandit:moved over the iterations" "first:FIRST&#x27;s forward selection" \
  "fuse:FUSE&#x27;s search" "cmab:HIE and HDD" "aggregate:how often the runs selected each"; do
  name=${item%%:*} phrase=${item#*:}
  dir="$WORK/out-$name"
  before=$(cd "$dir" && ls -A | sort | tr '\n' ' ')
  sums=$(cd "$dir" && sha256sum result.h5 summary.csv run.json)
  if ! $PY "$REPORT" "$dir" >"$WORK/$name.out" 2>&1; then fail "$name: report.py failed: $(cat "$WORK/$name.out")"; continue; fi
  ok
  after=$(cd "$dir" && ls -A | sort | tr '\n' ' ')
  [ "$after" = "$(printf '%s\n' $before report.html | sort -u | tr '\n' ' ')" ] && ok ||
    fail "$name: report.py left other files: before '$before', after '$after'"
  [ "$(cd "$dir" && sha256sum result.h5 summary.csv run.json)" = "$sums" ] && ok || fail "$name: report.py changed the result"
  grep -qx "$dir/report.html" "$WORK/$name.out" && ok || fail "$name: report.py did not print the page: $(cat "$WORK/$name.out")"
  html="$dir/report.html"
  grep -qF "$phrase" "$html" && ok || fail "$name: the page lacks '$phrase'"
  # Self-contained: every src is a data: URI, no http(s) URL anywhere in an attribute.
  ! grep -oE '(src|href)="[^"]*"' "$html" | grep -vE '(src|href)="data:' | grep -q . && ok ||
    fail "$name: the page loads something: $(grep -oE '(src|href)="[^"]{0,40}' "$html" | grep -v data: | head -3)"
  want=2  # the top features and the method's own picture; an aggregate has the top features with frequencies only
  [ "$name" = aggregate ] && want=1
  [ "$(grep -o '<img ' "$html" | wc -l)" -ge $want ] && ok || fail "$name: fewer than $want pictures"
  out=$($PY "$CHECK" "$html" "$WORK/$name.png" 2>&1)
  code=$?
  [ $code -eq 0 ] && ok || fail "$name: chromium: exit $code: $out"
  # Not blank: many colours and some ink (a white page has 1 colour and ink 0).
  $PY - "$out" <<'PYEOF' && ok || fail "$name: the screenshot looks blank: $out"
import re, sys
m = re.search(r"colours (\d+), ink ([0-9.]+)", sys.argv[1])
assert m and int(m.group(1)) > 50 and float(m.group(2)) > 0.02, sys.argv[1]
PYEOF
  [ "$(stat -c %s "$WORK/$name.png" 2>/dev/null || echo 0)" -gt 20000 ] && ok || fail "$name: the screenshot is tiny"
done
grep -q "selection frequency" "$WORK/out-aggregate/report.html" && grep -q "stability runs\|over 2 runs" "$WORK/out-aggregate/report.html" &&
  ok || fail "the aggregate's page does not show its summary of 2 runs"
grep -q "&#x2605;\|★" "$WORK/out-bandit/report.html" && ok || fail "the truth is not marked in the bandit's table"

# Refused: a missing directory, a directory without a result, a torn set; exit 1, the file named, nothing written.
expect_refusal() {  # NAME FRAGMENT DIR
  local err code
  err=$($PY "$REPORT" "$3" 2>&1 >/dev/null)
  code=$?
  [ $code -eq 1 ] && grep -qF -- "$2" <<<"$err" && [ ! -e "$3/report.html" ] && ok ||
    fail "$1: exit $code, message: $err"
}
expect_refusal missing "'$WORK/nowhere' is not a directory" "$WORK/nowhere"
mkdir -p "$WORK/empty"
expect_refusal empty "'$WORK/empty/result.h5' does not exist" "$WORK/empty"
cp -r "$WORK/seed-2" "$WORK/torn"
cp "$WORK/seed-1/result.h5" "$WORK/torn/result.h5"  # another run's result beside this run.json
expect_refusal torn "'$WORK/torn/result.h5' does not match the run.json beside it" "$WORK/torn"
rm "$WORK/torn/run.json"
expect_refusal no-manifest "'$WORK/torn/run.json' does not exist" "$WORK/torn"
finish

#!/usr/bin/env bash
# Simulate gkx-like and prepare-gkx refuse every bad size or non-finite option with one
# "banditfs: error:" line naming the option, a non-zero exit and no output; prepare-gkx reads another vintage of the
# characteristics file (reporting the differences on stderr and in the panel), --strict refuses it, and CRSP's
# missing-return codes and returns below -100% never reach y.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

# ---- simulate gkx-like: each case writes (would write) into $WORK/out-NAME, which must not appear.
sim_error() {  # sim_error NAME FRAGMENT OPTIONS...
  local name="$1" fragment="$2"
  shift 2
  expect_error "$name" "$fragment" -- "$BANDITFS" simulate gkx-like --out "$WORK/out-$name" "$@"
  [ ! -e "$WORK/out-$name" ] && ok || fail "$name: simulate gkx-like left $WORK/out-$name behind"
}
sim_error signal_nan "--signal-scale must be a finite number, not nan" --months 2 --stocks 50 --signal-scale nan
sim_error signal_inf "--signal-scale must be a finite number" --months 2 --stocks 50 --signal-scale inf
sim_error signal_minus_inf "--signal-scale must be a finite number" --months 2 --stocks 50 --signal-scale -inf
sim_error signal_huge "--signal-scale 1e+308 is too large" --months 2 --stocks 50 --signal-scale 1e308
sim_error months_zero "--months must be at least 1" --months 0 --stocks 50
sim_error months_fraction "--months must be a whole number" --months 1.5 --stocks 50
sim_error months_nan "--months must be a whole number, not nan" --months nan --stocks 50
sim_error months_past_9999 "--months must be at most" --months 10000000 --stocks 50
sim_error stocks_few "--stocks must be at least 10" --months 2 --stocks 5
sim_error stocks_inf "--stocks must be a whole number" --months 2 --stocks inf
sim_error stocks_huge "--stocks 99999999999 would need about" --months 2 --stocks 99999999999
# No message carries a 309-digit range bound (CLI11's PositiveNumber).
err=$("$BANDITFS" simulate gkx-like --out "$WORK/out-len" --months 0 2>&1 >/dev/null)
[ ${#err} -lt 200 ] && ok || fail "--months 0: a long message: $err"

# ---- data for prepare-gkx
data="$WORK/data"
"$BANDITFS" simulate gkx-like --out "$data" --months 2 --stocks 200 --seed 2 >/dev/null 2>"$WORK/err" ||
  fail "simulate gkx-like failed: $(cat "$WORK/err")"
# A failed rerun into the same directory (a full disk: a file-size limit, SIGXFSZ ignored) exits 1 and leaves the
# previous four files as they were, with no .tmp file beside them.
before=$(cd "$data" && sha256sum characteristics.csv returns.csv riskfree.csv truth.json)
err=$( (trap '' XFSZ; ulimit -f 64; "$BANDITFS" simulate gkx-like --out "$data" --months 3 --stocks 300 --seed 3) \
  2>&1 >/dev/null); code=$?
[ "$code" -eq 1 ] && [[ "$err" == *"characteristics.csv.tmp"* ]] && ok ||
  fail "simulate gkx-like on a full disk: exit $code, message: $err"
[ "$(cd "$data" && sha256sum characteristics.csv returns.csv riskfree.csv truth.json)" == "$before" ] && ok ||
  fail "a failed simulate gkx-like changed the previous files"
[ -z "$(ls "$data" | grep '\.tmp$')" ] && ok || fail "a failed simulate gkx-like left $(ls "$data")"
prep() {  # prep OUT [extra options]: prepare-gkx of $data's CSVs into OUT
  local out="$1"
  shift
  "$BANDITFS" prepare-gkx --characteristics "$data/characteristics.csv" --returns "$data/returns.csv" \
    --riskfree "$data/riskfree.csv" --from 2010-01 --to 2010-02 --out "$out" "$@"
}
attr() {  # attr FILE NAME: a root attribute of an HDF5 file
  $PY -c 'import sys,h5py; v=h5py.File(sys.argv[1])["/"].attrs[sys.argv[2]]; print(v.decode() if isinstance(v, bytes) else v)' "$1" "$2"
}
prep_error() {  # prep_error NAME FRAGMENT [options]: refused, no panel and no tmp file in $WORK/out-NAME
  local name="$1" fragment="$2"
  shift 2
  mkdir -p "$WORK/out-$name"
  expect_error "$name" "$fragment" -- prep "$WORK/out-$name/panel.h5" "$@"
  [ -z "$(ls -A "$WORK/out-$name")" ] && ok || fail "$name: prepare-gkx left $(ls "$WORK/out-$name") behind"
}
prep_error memory_zero "--memory-mb must be at least 1" --memory-mb 0
prep_error memory_nan "--memory-mb must be a finite number" --memory-mb nan
prep_error memory_inf "--memory-mb must be a finite number" --memory-mb inf
prep_error memory_huge "--memory-mb must be at most" --memory-mb 1e300

# ---- another vintage: an older list (ipo and salerev instead of secured and salerec).
old="$WORK/old_vintage.csv"
sed '1s/,secured,/,ipo,/; 1s/,salerec,/,salerev,/' "$data/characteristics.csv" >"$old"
"$BANDITFS" prepare-gkx --characteristics "$old" --returns "$data/returns.csv" --riskfree "$data/riskfree.csv" \
  --from 2010-01 --to 2010-02 --out "$WORK/old.h5" >/dev/null 2>"$WORK/err"
code=$?
[ $code -eq 0 ] && ok || fail "another vintage refused without --strict: $(cat "$WORK/err")"
grep -q "banditfs: warning: prepare-gkx: .*old_vintage.csv.*2 missing (secured, salerec).*(ipo, salerev)" "$WORK/err" &&
  ok || fail "no warning naming the missing and the other columns: $(cat "$WORK/err")"
[ "$(attr "$WORK/old.h5" prepare.characteristics_missing 2>&1)" = "secured, salerec" ] && ok ||
  fail "prepare.characteristics_missing: $(attr "$WORK/old.h5" prepare.characteristics_missing 2>&1)"
[ "$(attr "$WORK/old.h5" prepare.characteristics_extra 2>&1)" = "ipo, salerev" ] && ok ||
  fail "prepare.characteristics_extra: $(attr "$WORK/old.h5" prepare.characteristics_extra 2>&1)"
mkdir -p "$WORK/out-strict"
expect_error strict "old_vintage.csv: 2 of the 94 characteristic columns are missing" -- \
  "$BANDITFS" prepare-gkx --characteristics "$old" --returns "$data/returns.csv" --riskfree "$data/riskfree.csv" \
  --from 2010-01 --to 2010-02 --strict --out "$WORK/out-strict/panel.h5"
[ -z "$(ls -A "$WORK/out-strict")" ] && ok || fail "--strict left output behind"
# The simulated file is the standard vintage: no warning, even with --strict.
prep "$WORK/standard.h5" --strict >/dev/null 2>"$WORK/err" && ! grep -q warning "$WORK/err" && ok ||
  fail "the standard file warned or failed: $(cat "$WORK/err")"

# ---- returns: CRSP codes are missing values, a return below -1 is dropped and counted; y stays >= -1 - rf.
$PY - "$data/returns.csv" "$WORK/returns_codes.csv" <<'PYEOF'
import sys
lines = open(sys.argv[1]).read().splitlines()
out = [lines[0]]
codes = ["-66.0", "-77", "-88", "-99.0", "-1.5"]
for k, line in enumerate(lines[1:]):
    permno, month, ret = line.split(",")
    out.append(",".join([permno, month, codes[k] if k < len(codes) else ret]))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PYEOF
"$BANDITFS" prepare-gkx --characteristics "$data/characteristics.csv" --returns "$WORK/returns_codes.csv" \
  --riskfree "$data/riskfree.csv" --from 2010-01 --to 2010-02 --out "$WORK/codes.h5" >"$WORK/report" 2>"$WORK/err" ||
  fail "prepare-gkx with CRSP codes failed: $(cat "$WORK/err")"
grep -q "returns_codes.csv: 1 return(s) below -1" "$WORK/err" && ok || fail "no warning for -1.5: $(cat "$WORK/err")"
[ "$(attr "$WORK/codes.h5" prepare.returns_crsp_missing_codes)" -ge 4 ] && ok || fail "CRSP codes not counted"
[ "$(attr "$WORK/codes.h5" prepare.returns_below_minus_one)" = 1 ] && ok || fail "returns below -1 not counted"
[ "$(attr "$WORK/codes.h5" prepare.dropped_return_below_minus_one)" = 1 ] && ok || fail "the row with -1.5 not dropped"
miny=$($PY -c 'import sys,h5py; print(float(h5py.File(sys.argv[1])["y"][()].min()) >= -1.01)' "$WORK/codes.h5")
[ "$miny" = True ] && ok || fail "a y below -101% reached the panel"
finish

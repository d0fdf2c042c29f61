#!/usr/bin/env bash
# Every method's checkpoint (FIRST, FUSE, the bandit, cmab-scores) carries a seal, its size and digest
# (methods/common/checkpoint_seal.hpp), checked before --resume reads anything of it: a checkpoint with one byte
# changed — in the seal, in HDF5's superblock, at its last byte — or truncated to half is refused with an error naming
# the file, exit code ≠ 0, and the checkpoint is left byte for byte as it was. The intact checkpoint then resumes.
source "$(dirname "$0")/lib.sh"

# interrupt NAME JOB: runs JOB into $WORK/NAME with a checkpoint after every round and stops it with SIGTERM once the
# first checkpoint is written; true when the run stopped with exit 0 and left $WORK/NAME/checkpoint.h5.
interrupt() {
  local out="$WORK/$1" job="$2" pid code
  "$BANDITFS" run "$job" --quiet --out "$out" --set run.checkpoint_every=1 >/dev/null 2>"$WORK/$1.err" &
  pid=$!
  for _ in $(seq 600); do [ -s "$out/checkpoint.h5" ] && break; sleep 0.05; done
  kill -TERM "$pid"
  wait "$pid"
  code=$?
  [ "$code" -eq 0 ] && [ -s "$out/checkpoint.h5" ] && [ ! -e "$out/result.h5" ]
}

# refused NAME JOB WHAT: --resume must fail naming the checkpoint and leave it as it was ($WORK/NAME.damaged).
refused() {
  local out="$WORK/$1" job="$2" what="$3" err code
  err=$("$BANDITFS" run "$job" --quiet --out "$out" --resume 2>&1 >/dev/null)
  code=$?
  [ "$code" -ne 0 ] && grep -qF "checkpoint '$out/checkpoint.h5'" <<<"$err" && grep -q "refusing to resume" <<<"$err" &&
    ok || fail "$1, $what: exit $code, not refused naming the checkpoint: $err"
  cmp -s "$out/checkpoint.h5" "$WORK/$1.damaged" && ok || fail "$1, $what: the refused checkpoint was changed or removed"
}

# flip FILE OFFSET: inverts the bits of the byte at OFFSET (negative: from the end).
flip() {
  /usr/bin/python3 - "$1" "$2" <<'PYEOF'
import sys
path, at = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
data[at] ^= 0xFF
open(path, "wb").write(bytes(data))
PYEOF
}

# check_method NAME JOB: the refusals above for one method's checkpoint.
check_method() {
  local name="$1" job="$2" out="$WORK/$1"
  if ! interrupt "$name" "$job"; then
    fail "$name: no checkpoint from an interrupted run: $(cat "$WORK/$name.err")"
    return
  fi
  cp "$out/checkpoint.h5" "$WORK/$name.saved"
  # 40: a digit of the digest in the seal; 600: HDF5's superblock, after the 512-byte user block; -1: the last byte.
  for at in 40 600 -1; do
    cp "$WORK/$name.saved" "$out/checkpoint.h5"
    flip "$out/checkpoint.h5" "$at"
    cp "$out/checkpoint.h5" "$WORK/$name.damaged"
    refused "$name" "$job" "byte $at changed"
  done
  cp "$WORK/$name.saved" "$out/checkpoint.h5"
  truncate -s $(($(stat -c %s "$out/checkpoint.h5") / 2)) "$out/checkpoint.h5"
  cp "$out/checkpoint.h5" "$WORK/$name.damaged"
  refused "$name" "$job" "truncated"
  # The intact checkpoint resumes and finishes.
  cp "$WORK/$name.saved" "$out/checkpoint.h5"
  "$BANDITFS" run "$job" --quiet --out "$out" --resume >/dev/null 2>"$WORK/$name.err" && [ -s "$out/result.h5" ] &&
    ok || fail "$name: the intact checkpoint did not resume: $(cat "$WORK/$name.err")"
}

"$BANDITFS" simulate friedman-mod --n 2500 --p 300 --rho 0.5 --seed 4 --out "$WORK/first.h5" >/dev/null ||
  fail "simulate friedman-mod failed"
printf '[method]\nname = "first"\n[data]\nsource = "hdf5"\npath = "%s"\n[run]\nseed = 9\n' "$WORK/first.h5" \
  >"$WORK/first.toml"
"$BANDITFS" simulate madelon-like --n 400 --p 40 --seed 2 --out "$WORK/fuse.h5" >/dev/null ||
  fail "simulate madelon-like failed"
printf '[method]\nname = "fuse"\niterations = 5000\n[data]\nsource = "hdf5"\npath = "%s"\ntask = "binary"\n[run]\nseed = 5\n' \
  "$WORK/fuse.h5" >"$WORK/fuse.toml"

tiny_job | sed 's/^iterations = 8/iterations = 3000/' >"$WORK/bandit.toml"

check_method first "$WORK/first.toml"
check_method fuse "$WORK/fuse.toml"
check_method bandit "$WORK/bandit.toml"
printf '[method]\nname = "cmab-scores"\n[data]\nsource = "simulate"\ndgp = "cmab-hte"\nn = 100000\np = 384\n[run]\nseed = 2\nthreads = 1\n' \
  >"$WORK/cmab.toml"
check_method cmab "$WORK/cmab.toml"

finish

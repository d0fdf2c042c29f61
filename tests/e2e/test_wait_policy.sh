#!/usr/bin/env bash
# Idle OpenMP threads (ours and XGBoost's, one libgomp) wait passively unless the user chose: banditfs re-executes
# itself with OMP_WAIT_POLICY=passive when neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set. libgomp reads the
# variables once, from the environment the program image started with, which is /proc/PID/environ: the test reads
# that of a running job, and the log line that says which policy applies and who set it.
source "$(dirname "$0")/lib.sh"

printf '[method]\nname = "cmab-scores"\n[data]\nsource = "simulate"\ndgp = "cmab-hte"\nn = 100000\np = 384\n' \
  >"$WORK/job.toml"
printf '[run]\nseed = 2\nthreads = 2\n' >>"$WORK/job.toml"

# start_environ NAME [VAR=VALUE...]: runs the job with the variables (and without OMP_WAIT_POLICY / GOMP_SPINCOUNT
# otherwise) into $WORK/NAME; prints the OpenMP variables of the running program's start environment (or why not).
start_environ() {
  local name="$1"
  shift
  env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT "$@" "$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/$name" \
    >/dev/null 2>"$WORK/$name.err" &
  local pid=$! seen=""
  for _ in $(seq 500); do
    # the exec replaces the environment in place: wait for the log, written after it, then read the environment
    if [ -s "$WORK/$name/banditfs.log" ]; then
      seen=$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -E '^(OMP_WAIT_POLICY|GOMP_SPINCOUNT)=' | sort |
        tr '\n' ' ')
      break
    fi
    sleep 0.01
  done
  wait "$pid" || seen="(the run failed: $(cat "$WORK/$name.err"))"
  echo "$seen"
}

seen=$(start_environ default)
[ "$seen" == "OMP_WAIT_POLICY=passive " ] && ok || fail "default: libgomp's start environment holds '$seen'"
grep -q "OpenMP wait policy passive (set by banditfs" "$WORK/default/banditfs.log" && ok ||
  fail "default: the log does not name the policy: $(grep -i openmp "$WORK/default/banditfs.log")"

seen=$(start_environ active OMP_WAIT_POLICY=active)
[ "$seen" == "OMP_WAIT_POLICY=active " ] && ok || fail "a user's OMP_WAIT_POLICY=active was not kept: '$seen'"
grep -q "OpenMP wait policy from the environment: OMP_WAIT_POLICY=active" "$WORK/active/banditfs.log" && ok ||
  fail "active: the log does not name the user's policy"

seen=$(start_environ spin GOMP_SPINCOUNT=1000)
[ "$seen" == "GOMP_SPINCOUNT=1000 " ] && ok || fail "a user's GOMP_SPINCOUNT was overridden: '$seen'"

# The results do not depend on the policy.
a=$(/usr/bin/python3 "$ROOT/tests/e2e/h5_fingerprints.py" "$WORK/default/result.h5")
b=$(/usr/bin/python3 "$ROOT/tests/e2e/h5_fingerprints.py" "$WORK/active/result.h5")
[ -n "$a" ] && [ "$a" == "$b" ] && ok || fail "the result depends on the wait policy"
finish

#!/usr/bin/env bash
# How idle OpenMP threads wait and how many a run takes, chosen at start from the load of the run's CPUs
# (cli/wait_policy.hpp): idle CPUs keep libgomp's default (spinning briefly); busy ones get OMP_WAIT_POLICY=passive,
# through a re-execution, and no more threads than the CPUs left free. A user's OMP_WAIT_POLICY or GOMP_SPINCOUNT is
# kept and decides alone. libgomp reads the variables once, from the environment the program image started with,
# which is /proc/PID/environ: the test reads that of a running job, and the log lines that say which policy applies,
# who set it and how many threads the run took. BANDITFS_CPU_BUSY forces the load; one case measures a real one.
source "$(dirname "$0")/lib.sh"
unset OMP_WAIT_POLICY

printf '[method]\nname = "cmab-scores"\n[data]\nsource = "simulate"\ndgp = "cmab-hte"\nn = 100000\np = 384\n' \
  >"$WORK/job.toml"
printf '[run]\nseed = 2\nthreads = 2\n' >>"$WORK/job.toml"

# start_environ NAME [VAR=VALUE...] [-- PREFIX...]: runs the job with the variables (and without OMP_WAIT_POLICY /
# GOMP_SPINCOUNT / BANDITFS_CPU_BUSY otherwise) into $WORK/NAME, the command after PREFIX when given; prints the
# OpenMP variables of the running program's start environment (or why not).
start_environ() {
  local name="$1" prefix=()
  shift
  local vars=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do vars+=("$1"); shift; done
  [ $# -gt 0 ] && { shift; prefix=("$@"); }
  env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT -u BANDITFS_CPU_BUSY "${vars[@]}" "${prefix[@]}" "$BANDITFS" run \
    "$WORK/job.toml" --quiet --out "$WORK/$name" >/dev/null 2>"$WORK/$name.err" &
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
threads_of() { grep -o '"threads": [0-9]*' "$WORK/$1/run.json" | grep -o '[0-9]*$'; }

cpus=$(nproc)
seen=$(start_environ busy BANDITFS_CPU_BUSY="$cpus")
[ "$seen" == "OMP_WAIT_POLICY=passive " ] && ok || fail "busy CPUs: libgomp's start environment holds '$seen'"
grep -q "OpenMP wait policy passive (set by banditfs: $cpus.00 of the $cpus CPUs" "$WORK/busy/banditfs.log" && ok ||
  fail "busy: the log does not name the policy and the load: $(grep -i openmp "$WORK/busy/banditfs.log")"
[ "$(threads_of busy)" == 1 ] && ok || fail "busy: the run took $(threads_of busy) threads, not the 1 CPU left"
grep -q "threads 1 (of 2 asked: CPUs busy)" "$WORK/busy/banditfs.log" && ok || fail "busy: the log hides the cap"

seen=$(start_environ idle BANDITFS_CPU_BUSY=0)
[ "$seen" == "" ] && ok || fail "idle CPUs: libgomp's default expected, the start environment holds '$seen'"
grep -q "OpenMP wait policy libgomp's default (idle threads spin briefly): 0.00 of the" "$WORK/idle/banditfs.log" &&
  ok || fail "idle: the log does not say so: $(grep -i openmp "$WORK/idle/banditfs.log")"
[ "$(threads_of idle)" == 2 ] && ok || fail "idle: the run took $(threads_of idle) threads, not the 2 asked"

# A real load: the run confined to CPU 0, which a busy loop keeps busy.
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
sleep 0.2
seen=$(start_environ measured -- taskset -c 0)
kill "$hog"
[ "$seen" == "OMP_WAIT_POLICY=passive " ] && ok || fail "a busy CPU was not measured as busy: '$seen'"
[ "$(threads_of measured)" == 1 ] && ok || fail "measured: the run took $(threads_of measured) threads on 1 CPU"

seen=$(start_environ active OMP_WAIT_POLICY=active)
[ "$seen" == "OMP_WAIT_POLICY=active " ] && ok || fail "a user's OMP_WAIT_POLICY=active was not kept: '$seen'"
grep -q "OpenMP wait policy from the environment: OMP_WAIT_POLICY=active" "$WORK/active/banditfs.log" && ok ||
  fail "active: the log does not name the user's policy"
[ "$(threads_of active)" == 2 ] && ok || fail "a user's policy: the run took $(threads_of active) threads, not 2"

seen=$(start_environ spin GOMP_SPINCOUNT=1000)
[ "$seen" == "GOMP_SPINCOUNT=1000 " ] && ok || fail "a user's GOMP_SPINCOUNT was overridden: '$seen'"

# The results do not depend on the policy or the threads.
a=$(/usr/bin/python3 "$ROOT/tests/e2e/h5_fingerprints.py" "$WORK/busy/result.h5")
for other in idle active; do
  b=$(/usr/bin/python3 "$ROOT/tests/e2e/h5_fingerprints.py" "$WORK/$other/result.h5")
  [ -n "$a" ] && [ "$a" == "$b" ] && ok || fail "the result of '$other' differs from the busy run's"
done
finish

#!/usr/bin/env bash
# Threads on a busy node: the bandit's time per iteration with gbm, hgb and random_forest at 1 and 2 threads, on an
# idle machine and with one busy process beside the run (`yes > /dev/null`, pinned nowhere), for each OpenMP wait
# policy asked for. The job is the README's gbm example on simulated data (relative reward, threshold 0.02, 10
# permutations per feature; gbm learning_rate 0.05, 200 trees, 50 leaves; hgb and random_forest as in the README's
# other examples); the seconds are run.json's per_iteration_seconds.
#
#   scripts/bench/busy_threads.sh [BUILD=build] [ITERATIONS=40] [N=1000] [P=100] [POLICIES="default spin"]
#
# POLICIES, each a setting of the run's environment:
#   default  nothing set: banditfs's choice from the load of its CPUs at start (cli/wait_policy.hpp): libgomp's
#            default on idle CPUs, passive waiting and no more threads than the free CPUs on busy ones
#   passive  OMP_WAIT_POLICY=passive with every thread asked for
#   spin     GOMP_SPINCOUNT=300000: libgomp's own default when nothing is set (idle threads spin ~3 ms)
#   short    GOMP_SPINCOUNT=10000 (a spin of about 0.1 ms, then sleep): a middle way, should passive cost too much
#            on an idle machine
#   active   OMP_WAIT_POLICY=active (idle threads spin for minutes)
# REPEATS (environment, default 1) runs each cell that many times and reports the median. The machine must be
# otherwise quiet: the busy process is the only load that belongs in the table. Writes only a temporary directory.
set -euo pipefail
build="$(cd "${1:-build}" && pwd)"
iterations="${2:-40}"
n="${3:-1000}"
p="${4:-100}"
policies="${5:-default spin}"
repeats="${REPEATS:-1}"
work="$(mktemp -d)"
busy_pid=""
stop_busy() {
  if [ -n "$busy_pid" ]; then
    kill "$busy_pid" 2>/dev/null || true
    wait "$busy_pid" 2>/dev/null || true
    busy_pid=""
  fi
}
trap 'stop_busy; rm -rf "$work"' EXIT
unset OMP_NUM_THREADS  # run.threads decides

estimator_lines() {  # estimator_lines NAME: the [estimator] section
  case "$1" in
    gbm) printf 'name = "gbm"\nlearning_rate = 0.05\nn_estimators = 200\nmax_leaves = 50\n' ;;
    hgb) printf 'name = "hgb"\n' ;;
    random_forest) printf 'name = "random_forest"\nn_estimators = 100\nmax_depth = 10\n' ;;
  esac
}

job() {  # job ESTIMATOR THREADS
  printf '[data]\nsource = "simulate"\ndgp = "friedman1"\nn = %d\np = %d\n[estimator]\n%s\n[reward]\nrule = "relative"\n' \
    "$n" "$p" "$(estimator_lines "$1")"
  printf 'threshold = 0.02\nrepeats = 10\n[bandit]\npolicy = "ttts"\niterations = %d\nstop = "iterations"\n' \
    "$iterations"
  printf '[run]\nseed = 7\nthreads = %d\n' "$2"
}

seconds_per_iteration() {  # seconds_per_iteration POLICY ESTIMATOR THREADS: the median over $repeats runs
  local policy="$1" estimator="$2" threads="$3" runs=()
  local -a environment=(env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT)
  case "$policy" in
    default) ;;
    passive) environment+=(OMP_WAIT_POLICY=passive) ;;
    spin) environment+=(GOMP_SPINCOUNT=300000) ;;
    short) environment+=(GOMP_SPINCOUNT=10000) ;;
    active) environment+=(OMP_WAIT_POLICY=active) ;;
    *) echo "unknown policy '$policy' (default, passive, spin, short, active)" >&2; exit 2 ;;
  esac
  job "$estimator" "$threads" >"$work/job.toml"
  for _ in $(seq "$repeats"); do
    rm -rf "$work/out"
    "${environment[@]}" "$build/banditfs" run "$work/job.toml" --quiet --out "$work/out" >/dev/null 2>"$work/err" || {
      echo "run failed ($policy, $estimator, $threads threads): $(cat "$work/err")" >&2
      exit 1
    }
    runs+=("$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["timings"]["per_iteration_seconds"])' \
      "$work/out/run.json")")
    used=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["threads"])' "$work/out/run.json")
  done
  printf '%s\n' "${runs[@]}" | sort -g | awk -v used="$used" '{ v[NR] = $1 } END {
    print ((NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), used }'
}

echo "bandit per-iteration time, ms (n = $n, p = $p, $iterations iterations, median of $repeats run(s)); $(nproc) cores"
printf '%-8s %-6s %-14s %10s %10s %8s %s\n' policy load estimator "1 thread" "2 threads" "2t / 1t" "(threads taken when 2 asked)"
for policy in $policies; do
  for load in idle busy; do
    if [ "$load" == busy ]; then
      yes >/dev/null &
      busy_pid=$!
    fi
    for estimator in gbm hgb random_forest; do
      read -r one _ <<<"$(seconds_per_iteration "$policy" "$estimator" 1)"
      read -r two taken <<<"$(seconds_per_iteration "$policy" "$estimator" 2)"
      awk -v policy="$policy" -v load="$load" -v e="$estimator" -v a="$one" -v b="$two" -v t="$taken" 'BEGIN {
        printf "%-8s %-6s %-14s %10.1f %10.1f %8.2f (%d)\n", policy, load, e, 1000 * a, 1000 * b, b / a, t }'
    done
    stop_busy
  done
done

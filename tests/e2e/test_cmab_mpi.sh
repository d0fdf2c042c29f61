#!/usr/bin/env bash
# cmab-scores under mpirun: each rank reads only its share of each wave of 64-column blocks and scores
# it; result.h5's datasets are byte-identical to a one-process run at another thread count, for 1–4 ranks, with the
# default select = "shadow" (each shadow's row shuffle keyed by its feature) and with select = "top". p = 150
# makes several waves at 1 and 2 ranks and ranks with different shares at 3 and 4. A one-process checkpoint resumes
# on 2 ranks with the uninterrupted result.
source "$(dirname "$0")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
"$BANDITFS" simulate cmab-hte --n 6000 --p 150 --seed 11 --out "$WORK/log.h5" >/dev/null || fail "simulate"
for select in shadow top; do
  lines=$([ "$select" = top ] && printf 'select = "top"\nselect_top = 5' || true)
  printf '[method]\nname = "cmab-scores"\n%s\n[data]\nsource = "hdf5"\npath = "%s"\n[run]\nseed = 2\n' \
    "$lines" "$WORK/log.h5" >"$WORK/job-$select.toml"
  "$BANDITFS" run "$WORK/job-$select.toml" --quiet --out "$WORK/local-$select" --set run.threads=1 >/dev/null \
    2>"$WORK/err-local" || fail "local run ($select): $(cat "$WORK/err-local")"
  for k in 1 2 3 4; do
    if timeout 120 mpirun -n "$k" "$BANDITFS" run "$WORK/job-$select.toml" --quiet --out "$WORK/mpi-$select-$k" \
      --set run.threads=2 >/dev/null 2>"$WORK/err-$k"; then
      same=$(compare_datasets "$WORK/local-$select/result.h5" "$WORK/mpi-$select-$k/result.h5")
      attrs=$(/usr/bin/python3 -c 'import h5py, sys; print(*(dict(h5py.File(f)["cmab"].attrs).get("shadow_threshold") for f in sys.argv[1:]))' \
        "$WORK/local-$select/result.h5" "$WORK/mpi-$select-$k/result.h5")
      [ "$same" = same ] && [ "${attrs% *}" = "${attrs#* }" ] && ok || fail "$select, mpirun -n $k: $same; thresholds $attrs"
    else
      fail "$select, mpirun -n $k failed: $(cat "$WORK/err-$k")"
    fi
  done
done

# A checkpoint of a one-process run (SIGTERM after a wave of 64 columns), resumed on 2 ranks (waves of 128): the
# uninterrupted result. A simulated source is slow enough per wave for the signal to land mid-run.
printf '[method]\nname = "cmab-scores"\n[data]\nsource = "simulate"\ndgp = "cmab-hte"\nn = 100000\np = 384\n' \
  >"$WORK/slow.toml"
printf '[run]\nseed = 2\nthreads = 1\ncheckpoint_every = 1\n' >>"$WORK/slow.toml"
"$BANDITFS" run "$WORK/slow.toml" --quiet --out "$WORK/slow-whole" >/dev/null 2>"$WORK/err-whole" ||
  fail "slow run: $(cat "$WORK/err-whole")"
"$BANDITFS" run "$WORK/slow.toml" --quiet --out "$WORK/slow-cut" >/dev/null 2>"$WORK/err-cut" &
pid=$!
for _ in $(seq 600); do [ -s "$WORK/slow-cut/checkpoint.h5" ] && break; sleep 0.02; done
kill -TERM "$pid"
wait "$pid" || fail "SIGTERM: exit code $?"
if [ -e "$WORK/slow-cut/result.h5" ] || [ ! -s "$WORK/slow-cut/checkpoint.h5" ]; then
  fail "SIGTERM did not leave a checkpoint without a result (the run finished first?)"
elif timeout 120 mpirun -n 2 "$BANDITFS" run "$WORK/slow.toml" --quiet --out "$WORK/slow-cut" --resume >/dev/null \
  2>"$WORK/err-resume"; then
  same=$(compare_datasets "$WORK/slow-whole/result.h5" "$WORK/slow-cut/result.h5")
  [ "$same" = same ] && ok || fail "resumed on 2 ranks: $same"
else
  fail "resume on 2 ranks failed: $(cat "$WORK/err-resume")"
fi
finish

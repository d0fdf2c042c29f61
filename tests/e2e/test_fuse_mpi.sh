#!/usr/bin/env bash
# fuse under mpirun: every rank makes the same descents and the rewards of a round go through the
# Executor, so result.h5's datasets are byte-identical to a one-process run, for 1–4 ranks, at B = 1 and B = 16, with the
# default select = "shadow" (the shadows' row shuffles keyed by feature, never by rank) and at B = 16 with the top 10.
source "$(dirname "$0")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
for batch in 1 16 16rave; do
  select=$([ "$batch" = 16rave ] && echo 'select = "rave"' || true)
  printf '[method]\nname = "fuse"\niterations = 240\nreward_subsample = 40\ntop = 10\n%s\nbatch = %s\n[data]\nsource = "simulate"\ndgp = "friedman1"\nn = 150\np = 10\n[run]\nseed = 6\n' \
    "$select" "${batch%rave}" >"$WORK/job$batch.toml"
  "$BANDITFS" run "$WORK/job$batch.toml" --quiet --out "$WORK/local$batch" --set run.threads=1 >/dev/null \
    2>"$WORK/err-local$batch" || fail "local run B=$batch: $(cat "$WORK/err-local$batch")"
  for k in 1 2 3 4; do
    if timeout 120 mpirun -n "$k" "$BANDITFS" run "$WORK/job$batch.toml" --quiet --out "$WORK/mpi$batch-$k" \
      --set run.threads=2 >/dev/null 2>"$WORK/err$batch-$k"; then
      same=$(compare_datasets "$WORK/local$batch/result.h5" "$WORK/mpi$batch-$k/result.h5")
      [ "$same" = same ] && ok || fail "B=$batch, mpirun -n $k: $same"
    else
      fail "B=$batch, mpirun -n $k failed: $(cat "$WORK/err$batch-$k")"
    fi
  done
done
finish

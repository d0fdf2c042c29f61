#!/usr/bin/env bash
# The same job and seed give byte-identical datasets in result.h5; the thread count does not change them.
source "$(dirname "$0")/lib.sh"


for estimator in random_forest gbm lasso mlp; do
  tiny_job | sed "s/name = \"random_forest\"/name = \"$estimator\"/; /n_estimators\|max_depth/d" >"$WORK/$estimator.toml"
  for run in a b; do
    "$BANDITFS" run "$WORK/$estimator.toml" --quiet --out "$WORK/$estimator-$run" --set run.threads=2 >/dev/null 2>&1 ||
      fail "$estimator run $run failed"
  done
  "$BANDITFS" run "$WORK/$estimator.toml" --quiet --out "$WORK/$estimator-t1" --set run.threads=1 >/dev/null 2>&1 ||
    fail "$estimator 1-thread run failed"
  result=$(compare_datasets "$WORK/$estimator-a/result.h5" "$WORK/$estimator-b/result.h5")
  [ "$result" = same ] && ok || fail "$estimator: same seed gave different datasets: $result"
  result=$(compare_datasets "$WORK/$estimator-a/result.h5" "$WORK/$estimator-t1/result.h5")
  [ "$result" = same ] && ok || fail "$estimator: 1 vs 2 threads gave different datasets: $result"
done

# A different seed gives a different run (the comparison above can fail).
"$BANDITFS" run "$WORK/random_forest.toml" --quiet --out "$WORK/other-seed" --set run.seed=4 >/dev/null 2>&1
result=$(compare_datasets "$WORK/random_forest-a/result.h5" "$WORK/other-seed/result.h5")
[ "$result" != same ] && ok || fail "a different seed gave identical datasets"

finish

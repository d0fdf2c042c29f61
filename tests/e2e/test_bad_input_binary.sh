#!/usr/bin/env bash
# A bad binary target (data.task = "binary") gives one clear message naming data.task, the file and the values, a
# non-zero exit and no result: the labels are validated when the data opens, before anything is written.
source "$(dirname "$0")/lib.sh"

# binary_job CSV [EXTRA-DATA-LINE]: the tiny job on a CSV whose target column is y, with data.task = "binary".
binary_job() {
  local extra=""
  [ -n "${2:-}" ] && extra="\n$2"
  tiny_job | sed "s|source = \"simulate\"|source = \"csv\"\npath = \"$1\"\ntarget = \"y\"\ntask = \"binary\"$extra|"
}
# write_csv NAME LABEL...: 60 rows of three features; y cycles through the labels given.
write_csv() {
  local name="$1"
  shift
  awk -v labels="$*" 'BEGIN { n = split(labels, l, " "); srand(7); print "a,b,c,y";
    for (i = 0; i < 60; i++) printf "%.4f,%.4f,%.4f,%s\n", rand(), rand(), rand(), l[i % n + 1] }' >"$WORK/$name.csv"
  echo "$WORK/$name.csv"
}

three=$(write_csv three 0 1 2)
task='data.task = "binary": '
expect_error three_classes "${task}y in '$three' has 3 distinct values (0, 1, 2); binary targets need exactly two" \
  -- run_job three_classes "$(binary_job "$three")"

one=$(write_csv one 1)
expect_error one_class "${task}y in '$one' has 1 distinct value (1)" -- run_job one_class "$(binary_job "$one")"

pair=$(write_csv pair 2 5)
absent="${task}data.positive_label = 3 is not one of the 2 distinct values of y in '$pair' (2, 5)"
expect_error absent_positive "$absent" \
  -- run_job absent_positive "$(binary_job "$pair" "positive_label = 3")"
no_positive="${task}y in '$pair' has 2 distinct values (2, 5), neither {0, 1} nor {-1, 1}; set data.positive_label"
expect_error pair_without_positive "$no_positive" \
  -- run_job pair_without_positive "$(binary_job "$pair")"

# reward.metric = "r2" does not score a binary target: config refuses it, naming both keys.
r2_job="$(tiny_job | sed 's|source = "simulate"|source = "simulate"\ntask = "binary"|')
[reward]
metric = \"r2\""
expect_error r2_metric "reward.metric" -- run_job r2_metric "$r2_job"
expect_error r2_task "data.task" -- run_job r2_task "$r2_job"

finish

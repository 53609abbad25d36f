#!/usr/bin/env bash
# One `fuda simulate` batch split into N shards, played side by side with GNU parallel
# and merged: the report is the one a single run prints. Shards finished before an
# interruption are kept, and running the same command again plays only the others
# (GNU parallel's --resume-failed, from the job log): a long batch on one machine can
# be stopped and taken up again.
#
#   scripts/shards/parallel.sh rulesets/sangohana.fuda 8 --games 100000 --seed 7 \
#       --agents greedy,random,random
#
# Arguments: the ruleset, N, then any options of `fuda simulate` but --shard, --json
# and --threads (each shard plays on one thread; GNU parallel runs one shard per core).
# The shard reports and GNU parallel's job log go to $OUT (default: shards/; remove it
# before another batch), the merged text report to standard output (MERGE=--json for
# JSON). Exit code: the merge's (1 when a game of the batch failed, or when $OUT holds
# shards of another batch).
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 FILE N [fuda simulate options…]" >&2
  exit 2
fi
file=$1
n=$2
shift 2
export FUDA=${FUDA:-fuda}
export OUT=${OUT:-shards}
mkdir -p "$OUT"

# Plays shard $1 of $2 (then the ruleset and options) into $OUT/part-$1.json. Exit code
# 1 from fuda means some games failed: the report counts them and the merge reports
# them, so the shard is done. The report is written under another name first, so that
# a shard cut short leaves no file for the merge to take for a whole one.
shard() {
  local i=$1 n=$2 status=0
  shift 2
  "$FUDA" simulate "$@" --shard "$i/$n" --threads 1 --json >"$OUT/part-$i.json.tmp" || status=$?
  if [ "$status" -le 1 ]; then
    mv "$OUT/part-$i.json.tmp" "$OUT/part-$i.json"
    return 0
  fi
  return "$status"
}
export -f shard

# -q passes each argument as it is (a path or a --set value with spaces in it).
seq 0 $((n - 1)) | parallel -q --joblog "$OUT/joblog" --resume-failed --halt soon,fail=1 \
  shard {} "$n" "$file" "$@"
"$FUDA" merge ${MERGE:-} "$OUT"/part-*.json

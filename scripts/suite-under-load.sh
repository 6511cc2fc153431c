#!/bin/bash
# Runs the README's test command N times in a row with two CPU hogs a
# core (`yes > /dev/null`), as a user's busy machine: the build first,
# then the hogs, then the runs. One line a run in LOGDIR/summary.txt
# (exit status, seconds, load before and after, tests passed and failed),
# each run's output in LOGDIR/runK.log.
# Usage: scripts/suite-under-load.sh N LOGDIR
set -u
n=${1:?runs}; dir=${2:?log folder}
mkdir -p "$dir"
cd "$(dirname "$0")/.."
cargo test --profile quick -q --no-run >/dev/null 2>&1
pids=()
for _ in $(seq 1 $((2 * $(nproc)))); do yes > /dev/null & pids+=($!); done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
for r in $(seq 1 "$n"); do
  s=$(date +%s); l1=$(cut -d' ' -f1 /proc/loadavg)
  cargo test --profile quick -q --no-fail-fast > "$dir/run$r.log" 2>&1; rc=$?
  e=$(date +%s); l2=$(cut -d' ' -f1 /proc/loadavg)
  counts=$(grep -h 'test result' "$dir/run$r.log" | awk '{p+=$4; f+=$6} END {print "passed", p, "failed", f}')
  echo "run $r rc=$rc secs=$((e - s)) load=$l1..$l2 $counts" >> "$dir/summary.txt"
done

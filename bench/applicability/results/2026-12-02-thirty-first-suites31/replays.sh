#!/usr/bin/env bash
# usage: replays.sh RUNDIR — every finding's printed replay line, 3 times (scripts/replaycount.sh), in the module's src, with that run's binary
export CGO_ENABLED=1 GOFLAGS=-mod=mod GOWORK=off  # as bench/applicability.sh runs interleave
rd="$1"; bin="$rd/bin/interleave"; root=/tmp/suites31/tree-b5a8
for sub in "$rd"/*/; do
  [ -f "$sub/module" ] || continue
  jq -r '.findings[]?.replay // empty' "$sub/interleave.json" | while read -r line; do
    args=${line#interleave }
    echo "== $line"
    nice -n 10 $root/scripts/replaycount.sh -n 3 -C "$sub/src" -bin "$bin" -- $args 2>&1 | tail -4
    echo "exit ${PIPESTATUS[0]}"
  done
done

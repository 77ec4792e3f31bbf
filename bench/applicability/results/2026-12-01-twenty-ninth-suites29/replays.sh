#!/usr/bin/env bash
# usage: replays.sh RUNDIR  — every finding's schedule replayed 3 times, from the module's src, with that run's binary
rd="$1"; bin="${BIN:-$rd/bin/interleave}"
export GOMODCACHE=/tmp/suites29/modcache GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=1
for sub in "$rd"/*/; do
  [ -f "$sub/module" ] || continue
  for f in $(grep -o 'schedule: [^ ]*\.json' "$rd/summary.md" | awk '{print $2}' | grep -F "$sub"); do
    for i in 1 2 3; do
      out=$(cd "$sub/src" && nice -n 10 "$bin" replay "$f" 2>&1); rc=$?
      echo "$(basename $f) try $i exit $rc: $(printf '%s\n' "$out" | grep -E '^(REPRODUCED|NOT REPRODUCED|DIVERGED|did not|replaying)' | grep -v '^replaying' | head -1 | cut -c1-160)"
    done
  done
done

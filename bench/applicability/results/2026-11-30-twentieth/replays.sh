#!/usr/bin/env bash
# every finding's printed replay line, from the module's copy, one at a time
set4=${1:-/tmp/applic19/set4}
for d in $set4/github.com_*/ $set4/golang.org_*/; do
  [ -f $d/interleave.json ] || continue
  jq -r '(.findings // [])[] | .replay' $d/interleave.json | while read -r line; do
    [ -z "$line" ] && continue
    echo "== $(basename $d): $line"
    (cd $d/src && eval "nice -n 10 $set4/bin/${line}" 2>&1 | grep -E 'REPRODUCED|PASSED|DIFFERENT|DIVERG|replaying |did not' | head -3; echo "exit ${PIPESTATUS[0]}")
  done
done

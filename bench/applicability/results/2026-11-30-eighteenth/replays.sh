#!/usr/bin/env bash
# every finding's printed replay line, from the module's copy, one at a time
for m in chanx channels freecache groupcache go-memdb fastcache buntdb; do
  d=$(ls -d /tmp/applic18/$m/github.com_*/)
  jq -r '.findings[]? | .replay' $d/interleave.json | while read -r line; do
    [ -z "$line" ] && continue
    echo "== $m: $line"
    (cd $d/src && eval "nice -n 10 /tmp/applic18/$m/bin/${line}" 2>&1 | grep -E '^(REPRODUCED|PASSED|DIFFERENT|replaying|interleave replay: (the|it))' | head -3; echo "exit ${PIPESTATUS[0]}")
  done
done

#!/usr/bin/env bash
# Runs every finding's printed replay line of one run, from the module's
# copy, with the binary that run built; appends each output and exit code
# to replays-<label>.txt here.
# Usage: replays.sh <run dir under /tmp/applic26> <label>
here="$(cd "$(dirname "$0")" && pwd)"
run="$1" label="$2"
res="$(ls -d "$run"/*/ | grep -v '/bin/$' | head -1)"
bin="$run/bin/interleave"
jq -r '.findings[]?.replay // empty' "$res/interleave.json" | while read -r _ _ sched; do
	echo "== $sched"
	out="$(cd "$res/src" && GOWORK=off GOFLAGS=-mod=mod nice -n 10 "$bin" replay "$sched" 2>&1)"
	rc=$?
	printf '%s\n' "$out" | grep -iE -A1 'reproduc|diverg|replaying'
	echo "exit $rc"
done >>"$here/replays-$label.txt"

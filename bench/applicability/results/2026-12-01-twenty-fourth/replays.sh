#!/usr/bin/env bash
# Runs every finding's printed replay line (and its same-cause schedules)
# from its module's copy, as the user would, with the run's own binary.
# Usage: replays.sh /tmp/applic24/<module dir> ...
for dir in "$@"; do
	for m in "$dir"/*/; do
		[ -f "$m/interleave.json" ] || continue
		(cd "$m/src" && for f in $(jq -r '.findings[] | (.replay, (.sameCause // [] | .[] | (.replay // ("interleave replay " + .schedule))))' ../interleave.json | sed 's/^interleave replay //'); do
			echo "== $f"
			nice -n 10 "$dir/bin/interleave" replay "$f" 2>&1 | grep -v '^interleave replay:' | head -4
			echo "exit ${PIPESTATUS[0]}"
		done)
	done
done

#!/usr/bin/env bash
# Counts how often a replay line reproduces: runs it N times, each a fresh
# `interleave replay` (its own instrumentation, build and process), and
# prints "K of N reproduced". Counts, not times: a loaded machine changes
# neither.
#
#   scripts/replaycount.sh [-n 10] [-C DIR] [-bin INTERLEAVE] -- replay [flags] SCHEDULE.json
#
# The arguments after -- are the report's replay line without the program
# name ("replay -tries 5 x.json"); -C is where it runs (default: here);
# -bin a built interleave (default: go run of this checkout). Exit 0 when
# every run reproduced, 1 when one did not, 2 on bad usage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=10 dir=. bin=
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-C) dir=$2; shift 2 ;;
	-bin) bin=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "replaycount: unknown flag $1" >&2; exit 2 ;;
	esac
done
if [ $# -lt 2 ] || [ "$1" != replay ] || ! [ "$n" -ge 1 ] 2>/dev/null; then
	echo "usage: scripts/replaycount.sh [-n 10] [-C DIR] [-bin INTERLEAVE] -- replay [flags] SCHEDULE.json" >&2
	exit 2
fi
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/interleave
	trap 'rm -rf "$(dirname "$bin")"' EXIT
	(cd "$root" && go build -o "$bin" ./cmd/interleave)
fi
reproduced=0
for i in $(seq 1 "$n"); do
	status=0
	out=$(cd "$dir" && "$bin" "$@" 2>&1) || status=$?
	# interleave replay exits 1 with REPRODUCED when the failure came back.
	if [ $status -eq 1 ] && grep -q '^REPRODUCED' <<<"$out"; then
		reproduced=$((reproduced + 1))
		echo "replaycount: run $i: reproduced"
	else
		echo "replaycount: run $i: exit $status: $(grep -m1 -E '^(PASS|DIFFERENT|interleave replay:.*(diverged|not))' <<<"$out" || tail -n1 <<<"$out")"
	fi
done
echo "replaycount: $reproduced of $n reproduced: $*"
[ "$reproduced" -eq "$n" ]

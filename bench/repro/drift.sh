#!/bin/sh
# Measures -line-drift on logs whose code is this checkout's (the kernel
# logs of checks/dynamic/failurelog/testdata, in the kernels module): a
# match there that is not at the log's own lines is a false match (another
# failure a few lines away in the same functions). For each log and each
# drift it runs repro with one seed and a bound on schedules and prints
# the exit, the schedules and whether the match was off the log's lines.
#
# Usage: bench/repro/drift.sh [-drifts "0 1 3"] [-out DIR]
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
drifts="0 1 3"
out=""
while [ $# -gt 0 ]; do
	case "$1" in
	-drifts) drifts=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	*) echo "usage: $0 [-drifts \"0 1 3\"] [-out DIR]" >&2; exit 2 ;;
	esac
done
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/interleave-drift.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin="$out/interleave"
go build -o "$bin" ./cmd/interleave
logs="$root/checks/dynamic/failurelog/testdata"
printf '%-12s %-6s %-5s %-9s %s\n' LOG DRIFT EXIT SCHEDULES MATCH
# name and the flags its log needs (the all-asleep deadlock is without -race).
for spec in "panic.log" "race.log" "timeout.log" "asleep.log -race=false" "fatal-v.log" "json.log"; do
	# shellcheck disable=SC2086
	set -- $spec
	log=$1
	shift
	for d in $drifts; do
		r="$out/$log.$d.txt"
		set +e
		(cd "$root/checks/dynamic/testdata/kernels" && nice -n 10 "$bin" repro -seed 1 -budget 2m -count 200 -workers 1 -line-drift "$d" -schedules "$out/schedules" "$@" "$logs/$log") >/dev/null 2>"$r"
		code=$?
		set -e
		schedules=$(sed -n 's/.* after \([0-9]*\) schedules.*/\1/p' "$r" | head -1)
		[ -z "$schedules" ] && schedules=$(sed -n 's/^interleave repro: not reproduced: \([0-9]*\) schedules.*/\1/p' "$r")
		match=-
		if [ $code -eq 1 ]; then
			match="at the log's lines"
			grep -q 'matched within -line-drift' "$r" && match="OFF the log's lines (false match)"
		fi
		printf '%-12s %-6s %-5s %-9s %s\n' "$log" "$d" "$code" "${schedules:--}" "$match"
	done
done
echo "repro output in $out"

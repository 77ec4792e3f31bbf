#!/usr/bin/env bash
# Replays every finding of a bench/applicability.sh run with the line its
# report printed: each line N times (scripts/replaycount.sh: a fresh
# `interleave replay` each time), in the module's copy, with the run's own
# interleave binary. Prints one line per finding and a total, and writes
# them to DIR/replays.md. Counts, not times: a loaded machine changes
# neither.
#
# Usage: bench/applicability-replays.sh [-n 3] DIR
#
# DIR is the -out of bench/applicability.sh. Exit 0 when every run of
# every line reproduced, 1 when one did not, 2 on bad usage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=3
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-*) echo "applicability-replays: unknown flag $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ] || ! [ "$n" -ge 1 ] 2>/dev/null; then
	echo "usage: bench/applicability-replays.sh [-n 3] DIR" >&2
	exit 2
fi
if ! [ -d "$1" ]; then
	echo "applicability-replays: $1 is not a directory" >&2
	exit 2
fi
dir=$(cd "$1" && pwd)
bin=$dir/bin/interleave
if ! [ -x "$bin" ]; then
	echo "applicability-replays: $bin is missing: is $dir the -out of bench/applicability.sh?" >&2
	exit 2
fi
command -v jq >/dev/null || { echo "applicability-replays: needs jq" >&2; exit 2; }
out=$dir/replays.md
: >"$out"
lines=0 full=0 runs=0 reproduced=0
for mod in "$dir"/*/; do
	[ -f "$mod/interleave.json" ] && [ -d "$mod/src" ] || continue
	name=$(basename "$mod")
	while IFS=$'\t' read -r rule replay; do
		[ -n "$replay" ] || continue
		# The report's line starts with the program's name.
		read -r -a args <<<"${replay#interleave }"
		log=$(bash "$root/scripts/replaycount.sh" -n "$n" -C "$mod/src" -bin "$bin" -- "${args[@]}" 2>&1 || true)
		k=$(sed -n 's/^replaycount: \([0-9]*\) of [0-9]* reproduced.*/\1/p' <<<"$log" | tail -n1)
		k=${k:-0}
		lines=$((lines + 1)) runs=$((runs + n)) reproduced=$((reproduced + k))
		[ "$k" -eq "$n" ] && full=$((full + 1))
		echo "| $name | $rule | $k of $n | \`$replay\` |" | tee -a "$out"
	done < <(jq -r '.findings[]? | [.rule, (.replay // "")] | @tsv' "$mod/interleave.json")
done
echo "applicability-replays: $full of $lines lines reproduced on every run; $reproduced of $runs runs reproduced" | tee -a "$out"
[ "$full" -eq "$lines" ]

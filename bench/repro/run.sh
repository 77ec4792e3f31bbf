#!/bin/sh
# Runs `interleave repro` on real CI failure logs from public issue trackers.
#
# Each case is logs/NAME.log (the log as pasted in the issue) beside
# logs/NAME.meta (module=, version=, issue=, shows=, and optionally
# flags= for repro). For each it fetches module@version from the Go module
# proxy into a writable copy, runs repro there with the budget, then runs
# the replay line repro printed, and prints one row: what the log was read
# as (kind, test), repro's exit status, schedules and seconds to the
# reproduction, the whole run's seconds, whether the schedule replays, and
# NEAR: the failures met that are the log's but for line numbers, by the
# -line-drift that accepts them ("1:368" = 368 at one line), when not
# reproduced; BOUND: the schedules stopped at the step bound (repro exits
# 6 when all were: inconclusive, not a miss).
#
# Usage: bench/repro/run.sh [-budget 2m] [-out DIR] [-only NAME] [-flags "-line-drift 1"]
# (-flags: more repro flags for every log, after the .meta's)
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
budget=2m
out=""
only=""
extra=""
while [ $# -gt 0 ]; do
	case "$1" in
	-budget) budget=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	-only) only=$2; shift 2 ;;
	-flags) extra=$2; shift 2 ;;
	*) echo "usage: $0 [-budget 2m] [-out DIR] [-only NAME] [-flags FLAGS]" >&2; exit 2 ;;
	esac
done
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/interleave-realrepro.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin="$out/interleave"
go build -o "$bin" ./cmd/interleave
export GOFLAGS=-mod=mod

meta() { sed -n "s/^$1=//p" "$2" | head -1; }

printf '%-22s %-13s %-26s %-5s %-9s %-8s %-8s %-10s %-6s %s\n' LOG KIND TEST EXIT SCHEDULES SEARCH TOTAL REPLAY BOUND NEAR
for m in "$root"/bench/repro/logs/*.meta; do
	name=$(basename "$m" .meta)
	if [ -n "$only" ] && [ "$only" != "$name" ]; then
		continue
	fi
	log="$root/bench/repro/logs/$name.log"
	mod=$(meta module "$m")
	ver=$(meta version "$m")
	flags=$(meta flags "$m")
	src="$out/src/$name"
	if [ ! -d "$src" ]; then
		dir=$(cd "$out" && go mod download -json "$mod@$ver" 2>/dev/null | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
		if [ -z "$dir" ]; then
			printf '%-22s %s\n' "$name" "$mod@$ver: not served by the module proxy"
			continue
		fi
		mkdir -p "$out/src"
		cp -R "$dir" "$src"
		chmod -R u+w "$src"
		# A module from before go.mod (+incompatible), before go.sum or
		# with an old go line: a go.mod, then tidy once.
		if [ ! -f "$src/go.mod" ]; then
			(cd "$src" && go mod init "$mod" >"$out/$name.init.txt" 2>&1) || true
		fi
		(cd "$src" && go mod tidy >"$out/$name.tidy.txt" 2>&1) || true
	fi
	t0=$(date +%s.%N)
	set +e
	# shellcheck disable=SC2086
	(cd "$src" && nice -n 10 "$bin" repro -budget "$budget" -workers 1 $flags $extra "$log") >"$out/$name.report.txt" 2>"$out/$name.repro.txt"
	code=$?
	set -e
	t1=$(date +%s.%N)
	total=$(echo "$t0 $t1" | awk '{printf "%.1fs", $2-$1}')
	r="$out/$name.repro.txt"
	kind=$(sed -n 's/^interleave repro: the log shows an* \([a-z-]*\) at line.*/\1/p' "$r" | head -1)
	test=$(sed -n 's/^interleave repro: test \([^ ]*\) of .*/\1/p' "$r" | head -1)
	sub=$(sed -n 's/^interleave repro: the log names its subtest \([^;]*\);.*/\1/p' "$r" | head -1)
	[ -n "$sub" ] && test=$sub
	line=$(grep 'interleave repro: reproduced' "$r" || true)
	schedules=$(echo "$line" | sed -n 's/.* after \([0-9]*\) schedules.*/\1/p')
	search=$(echo "$line" | sed -n 's/.*schedules, \([0-9.]*s\) of search.*/\1/p')
	if [ -z "$schedules" ]; then
		schedules=$(sed -n 's/^interleave repro: not reproduced: \([0-9]*\) schedules.*/\1/p' "$r")
	fi
	bound=$(sed -n 's/^interleave repro: \([0-9]*\) of \([0-9]*\) schedules of .* stopped at the step bound.*/\1/p' "$r" | head -1)
	if [ -z "$schedules" ]; then
		schedules=$(sed -n 's/^interleave repro: [0-9]* of \([0-9]*\) schedules of .* stopped at the step bound.*/\1/p' "$r" | head -1)
	fi
	replay=-
	cmd=$(sed -n 's/^interleave repro: replay: interleave //p' "$r")
	if [ -n "$cmd" ]; then
		set +e
		# shellcheck disable=SC2086
		(cd "$src" && nice -n 10 "$bin" $cmd) >"$out/$name.replay.txt" 2>&1
		rc=$?
		set -e
		if [ $rc -eq 1 ]; then replay=reproduced; else replay="exit $rc"; fi
		if grep -q 'matched within -line-drift' "$r"; then replay="$replay(drift)"; fi
	fi
	near=$(sed -n 's/^interleave repro: \([0-9]*\) of the failures met are the log.s but for line numbers, -line-drift \([0-9]*\) accepts.*/\2:\1/p' "$r" | paste -sd, -)
	printf '%-22s %-13s %-26s %-5s %-9s %-8s %-8s %-10s %-6s %s\n' "$name" "${kind:--}" "${test:--}" "$code" "${schedules:--}" "${search:--}" "$total" "$replay" "${bound:--}" "${near:--}"
done
echo "sources, repro output and replays in $out"

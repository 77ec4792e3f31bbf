#!/bin/sh
# Time to reproduce a CI failure log with `interleave repro`.
#
# For each case it runs a bug kernel (checks/dynamic/testdata/kernels) with
# plain `go test -race -count=N` until the run fails, keeps that output as
# the log (behind the command line, as a CI log shows it), runs
# `interleave repro` on the log and replays the schedule it writes. It
# prints, per log: the stress runs it took to get the log, repro's exit
# status, schedules and seconds to the reproduction (search, and in all
# with the instrumented build), and whether the schedule replays.
#
# The all-goroutines-asleep log comes from a run without -race: with the
# race detector on, the runtime's deadlock check does not fire and the test
# hangs until its timeout instead (which is the timeout case).
#
# Usage: bench/dynamic/repro.sh [-budget 60s] [-out DIR] [-only NAME]
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
budget=60s
out=""
only=""
while [ $# -gt 0 ]; do
	case "$1" in
	-budget) budget=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	-only) only=$2; shift 2 ;;
	*) echo "usage: $0 [-budget 60s] [-out DIR] [-only NAME]" >&2; exit 2 ;;
	esac
done
if [ -z "$out" ]; then
	out=$(mktemp -d "${TMPDIR:-/tmp}/interleave-repro.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin="$out/interleave"
go build -o "$bin" ./cmd/interleave
kernels="$root/checks/dynamic/testdata/kernels"

# name  package  test  go-test-flags  (stress attempts: up to 10 runs)
cases='panic-close       ./chans ^TestCloseClosed$        -race -count=20000
panic-nilmap      ./syncs ^TestNilMapInitOrder$    -race -count=20000
race-counter      ./syncs ^TestUnsyncCounter$      -race -count=100
race-once         ./syncs ^TestWriteOutsideOnce$   -race -count=1000
race-dcl          ./syncs ^TestDoubleCheckedInit$  -race -count=1000
fatal-unlock      ./locks ^TestDoubleUnlock$       -race -count=50000
testfail-lost     ./locks ^TestLostUpdate$         -race -count=20000
timeout-abba      ./locks ^TestABBA$               -race -count=100000 -timeout=15s
timeout-rlock     ./locks ^TestRecursiveRLock$     -race -count=100000 -timeout=15s
timeout-pingpong  ./chans ^TestPingPongDeadlock$   -race -count=100000 -timeout=15s
asleep-abba       ./locks ^TestABBA$               -count=100000 -timeout=0'

printf '%-18s %-6s %-10s %-5s %-10s %-9s %-9s %s\n' LOG RUNS STRESS EXIT SCHEDULES SEARCH TOTAL REPLAY
echo "$cases" | while read -r name pkg run flags; do
	if [ -n "$only" ] && [ "$only" != "$name" ]; then
		continue
	fi
	log="$out/$name.log"
	runs=0
	failed=no
	start=$(date +%s)
	while [ $runs -lt 10 ]; do
		runs=$((runs + 1))
		# A deadlock with -timeout=0 never ends by itself: 120s caps it.
		# shellcheck disable=SC2086
		if (cd "$kernels" && echo "+ go test $flags -run '$run' $pkg" && timeout 120 go test $flags -run "$run" $pkg) >"$log" 2>&1; then
			continue
		fi
		failed=yes
		break
	done
	stress="$(($(date +%s) - start))s"
	if [ $failed = no ]; then
		printf '%-18s %-6s %-10s %s\n' "$name" "$runs" "$stress" "the stress runs never failed: no log"
		continue
	fi
	t0=$(date +%s.%N)
	set +e
	(cd "$kernels" && "$bin" repro -budget "$budget" -schedules "$out/schedules/$name" -format json -o "$out/$name.json" "$log") 2>"$out/$name.repro.txt"
	code=$?
	set -e
	t1=$(date +%s.%N)
	total=$(echo "$t0 $t1" | awk '{printf "%.1fs", $2-$1}')
	line=$(grep 'interleave repro: reproduced' "$out/$name.repro.txt" || true)
	schedules=$(echo "$line" | sed -n 's/.* after \([0-9]*\) schedules.*/\1/p')
	search=$(echo "$line" | sed -n 's/.*schedules, \([0-9.]*s\) of search.*/\1/p')
	replay=-
	sched=$(sed -n 's/^interleave repro: schedule: //p' "$out/$name.repro.txt")
	if [ -n "$sched" ]; then
		set +e
		(cd "$kernels" && "$bin" replay "$sched") >"$out/$name.replay.txt" 2>&1
		rc=$?
		set -e
		if [ $rc -eq 1 ]; then replay=reproduced; else replay="exit $rc"; fi
	fi
	printf '%-18s %-6s %-10s %-5s %-10s %-9s %-9s %s\n' "$name" "$runs" "$stress" "$code" "${schedules:--}" "${search:--}" "$total" "$replay"
done
echo "logs, reports and schedules in $out"

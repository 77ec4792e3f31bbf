#!/usr/bin/env bash
# Runs one package's tests under CPU load, to show whether they depend on
# the machine's speed: scripts/loadtest.sh [-k K] [-n N] PKG [go test flags]
# (e.g. scripts/loadtest.sh -k 8 -n 5 ./checks/dynamic/rt -run 'TestLeftover').
# K processes (default 8) spin on the CPU at nice 10 while the test runs N
# times (default 3), each an uncached `go test -count=1 [flags] PKG` at the
# same nice level. Prints each run's result, its CPU seconds and the load
# average, then "passed P of N"; a failed run's output is kept and named.
# Exits non-zero when a run failed.
set -euo pipefail
cd "$(dirname "$0")/.."
k=8
n=3
while [ $# -gt 0 ]; do
	case $1 in
	-k) k=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -lt 1 ] || ! [[ $k =~ ^[0-9]+$ ]] || ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: scripts/loadtest.sh [-k K] [-n N] PKG [go test flags]" >&2
	exit 2
fi
pkg=$1
shift
out=$(mktemp -d "${TMPDIR:-/tmp}/loadtest.XXXXXX")
burners=()
stop() {
	for p in "${burners[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${burners[@]}"; do
		wait "$p" 2>/dev/null || true
	done
}
trap stop EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < k; i++)); do
	nice -n 10 bash -c 'while :; do :; done' &
	burners+=($!)
done
# Built before the load matters: the runs then measure the test, not the
# compiler.
nice -n 10 go test -count=1 -run '^$' "$pkg" >/dev/null
passed=0
for ((i = 1; i <= n; i++)); do
	load0=$(cut -d' ' -f1 /proc/loadavg)
	status=0
	/usr/bin/time -f '%U %S %e' -o "$out/time" nice -n 10 go test -count=1 "$@" "$pkg" >"$out/run$i" 2>&1 || status=$?
	read -r u s e < <(tail -n 1 "$out/time") || true
	load1=$(cut -d' ' -f1 /proc/loadavg)
	cpu=$(awk -v u="${u:-0}" -v s="${s:-0}" 'BEGIN { printf "%.1f", u + s }')
	if [ $status -eq 0 ]; then
		passed=$((passed + 1))
		echo "run $i: pass, ${e:-?}s elapsed, ${cpu}s CPU, load $load0 -> $load1, $k burners"
	else
		echo "run $i: FAIL (exit $status), ${e:-?}s elapsed, ${cpu}s CPU, load $load0 -> $load1, $k burners; output: $out/run$i"
		grep -E -- '^(\s*--- FAIL|FAIL|panic:)|_test\.go:[0-9]+:' "$out/run$i" | head -20 || true
	fi
done
echo "passed $passed of $n: $pkg $*"
[ "$passed" -eq "$n" ]

#!/bin/sh
# CPU seconds (user+sys) of one test process of interleave's: an
# instrumented test binary (as `interleave test` builds it) running one
# schedule as its rt config file says, from the package's directory, n
# times in turn for each binary given (before and after a change to rt):
# CPU seconds, unlike wall time, hold on a loaded machine.
#
# Usage: bench/dynamic/processcpu.sh -config FILE -dir DIR [-n 3] BIN...
set -eu
n=3
config=
dir=.
while [ $# -gt 0 ]; do
	case "$1" in
	-config) config="$2"; shift 2 ;;
	-dir) dir="$2"; shift 2 ;;
	-n) n="$2"; shift 2 ;;
	-*) echo "processcpu: unknown flag $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ -z "$config" ] || [ $# -eq 0 ]; then
	echo "usage: bench/dynamic/processcpu.sh -config FILE -dir DIR [-n 3] BIN..." >&2
	exit 2
fi
[ -f "$config" ] || { echo "processcpu: no config file $config" >&2; exit 2; }
for bin in "$@"; do
	[ -x "$bin" ] || { echo "processcpu: $bin is not an executable" >&2; exit 2; }
done
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
	for bin in "$@"; do
		(cd "$dir" && INTERLEAVE_CONFIG="$config" /usr/bin/time -f "%U %S %e" -o "$tmp" "$bin" -test.run '^TestInterleave' >/dev/null 2>&1) || true
		read -r u s e <"$tmp"
		echo "$bin run $((i + 1)): $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') s CPU ($u user, $s sys), $e s wall, load $(cut -d' ' -f1 /proc/loadavg)"
	done
	i=$((i + 1))
done

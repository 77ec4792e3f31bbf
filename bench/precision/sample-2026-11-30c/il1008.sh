#!/usr/bin/env bash
# il1008.sh: the opt-in rule IL1008 alone on every module of this sample
# whose default check finished (counts.tsv outcome 0 or 1), in the source
# trees sample-c2.sh left in OUT, with its binary and packages, one at a
# time under nice -n 10. Reported apart from the default figures.
# Usage: OUT=/tmp/sample-c-run bench/precision/sample-2026-11-30c/il1008.sh
set -u
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/sample-c-run}"
for mv in $(awk -F'	' '$2 == "checked" && ($5 == "0" || $5 == "1") {print $1}' "$here/counts.tsv"); do
	name="${mv//\//_}"
	res="$OUT/$name"
	pats="$(cat "$res/command")"
	pats="${pats#interleave check -format json -o findings.json }"
	start=$SECONDS
	(cd "$res/src" && GOWORK=off GOFLAGS=-mod=mod timeout 390 nice -n 10 "$OUT/interleave" check -disable all -enable IL1008 $pats >"$here/il1008-$name.txt" 2>"$res/il1008.stderr")
	echo "$mv rc=$? $((SECONDS - start))s IL1008=$(grep -c ': IL1008 ' "$here/il1008-$name.txt")"
done

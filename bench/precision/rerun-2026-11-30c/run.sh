#!/usr/bin/env bash
# run.sh re-runs `interleave check` (default settings, or ARGS) on the
# 19 modules of sample 2026-11-30c that were reached (rows 1-19 of
# ../sample-2026-11-30c/list.md, with the packages their rows fix), one
# at a time under nice -n 10 with the sample's 390 s limit, and writes
# one line per finding (module file:line rule) to OUT/<module>.txt and
# all of them to OUT/all.txt. Used to compare a mechanism's before and
# after on the sample's true and false findings.
#
# Usage: BIN=/path/to/interleave OUT=/tmp/dir [ARGS='-disable all -enable IL1008'] \
#   [ROWS='1 8 9 12 19'] bench/precision/rerun-2026-11-30c/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
list="$here/../sample-2026-11-30c/list.md"
[ -n "${BIN:-}" ] && [ -n "${OUT:-}" ] || { echo "BIN and OUT are needed" >&2; exit 2; }
LIMIT="${LIMIT:-390}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
: >"$OUT/all.txt"
for row in ${ROWS:-$(seq 1 19)}; do
	line="$(grep -E "^\| $row \| " "$list")"
	mv="$(awk -F' [|] ' '{print $2}' <<<"$line")"
	pats="$(awk -F' [|] ' '{print $3}' <<<"$line" | sed 's/ |$//')"
	name="${mv//\//_}"
	src="$OUT/src/$name"
	if [ ! -d "$src" ]; then
		dir="$(GOFLAGS=-mod=mod go mod download -json "$mv" | jq -r .Dir)"
		mkdir -p "$OUT/src"
		cp -r "$dir" "$src"
		chmod -R u+w "$src"
		(cd "$src" && GOFLAGS=-mod=mod go mod download all >/dev/null 2>&1 || true)
	fi
	start=$SECONDS
	status=0
	rm -f "$OUT/$name.json"
	# shellcheck disable=SC2086 # pats and ARGS are lists
	(cd "$src" && GOWORK=off GOFLAGS=-mod=mod timeout "$LIMIT" nice -n 10 "$BIN" check ${ARGS:-} -format json -o "$OUT/$name.json" $pats 2>"$OUT/$name.stderr") || status=$?
	jq -r --arg m "$mv" '.findings[]? | "\($m) \(.pos.file):\(.pos.line) \(.rule)"' "$OUT/$name.json" >"$OUT/$name.txt" 2>/dev/null || : >"$OUT/$name.txt"
	cat "$OUT/$name.txt" >>"$OUT/all.txt"
	echo "$mv exit $status, $(wc -l <"$OUT/$name.txt") findings, $((SECONDS - start)) s, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done

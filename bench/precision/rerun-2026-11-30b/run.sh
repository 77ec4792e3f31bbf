#!/usr/bin/env bash
# run.sh re-runs `interleave check` (default settings) on the eleven
# modules of sample 2026-11-30b that had default findings, with the
# packages their rows in ../sample-2026-11-30b/list.md fix, one at a time
# under nice -n 10, and writes one line per finding (file:line rule) to
# OUT/<module>.txt and all of them to OUT/all.txt. Used to compare a
# mechanism's before and after on the sample's true and false findings.
#
# Usage: BIN=/path/to/interleave OUT=/tmp/dir bench/precision/rerun-2026-11-30b/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
list="$here/../sample-2026-11-30b/list.md"
[ -n "${BIN:-}" ] && [ -n "${OUT:-}" ] || { echo "BIN and OUT are needed" >&2; exit 2; }
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
: >"$OUT/all.txt"
for row in 3 7 9 13 15 30 34 42 50 52 56; do
	line="$(grep -E "^\| $row \| " "$list")"
	mv="$(awk -F' [|] ' '{print $2}' <<<"$line")"
	pats="$(awk -F' [|] ' '{print $3}' <<<"$line" | sed 's/ |$//')"
	name="${mv//\//_}"
	dir="$(GOFLAGS=-mod=mod go mod download -json "$mv" | jq -r .Dir)"
	src="$OUT/src/$name"
	if [ ! -d "$src" ]; then
		mkdir -p "$OUT/src"
		cp -r "$dir" "$src"
		chmod -R u+w "$src"
		(cd "$src" && GOFLAGS=-mod=mod go mod download all >/dev/null 2>&1 || true)
	fi
	start=$SECONDS
	status=0
	# shellcheck disable=SC2086 # pats is a list
	(cd "$src" && GOWORK=off GOFLAGS=-mod=mod nice -n 10 "$BIN" check -format json -o "$OUT/$name.json" $pats 2>"$OUT/$name.stderr") || status=$?
	jq -r --arg m "$mv" '.findings[]? | "\($m) \(.pos.file):\(.pos.line) \(.rule)"' "$OUT/$name.json" >"$OUT/$name.txt" || true
	cat "$OUT/$name.txt" >>"$OUT/all.txt"
	echo "$mv exit $status, $(wc -l <"$OUT/$name.txt") findings, $((SECONDS - start)) s, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done

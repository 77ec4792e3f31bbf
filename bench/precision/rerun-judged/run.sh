#!/usr/bin/env bash
# run.sh re-runs `interleave check` (default settings) on the packages that
# hold the judged default findings of the independent samples (judged.tsv,
# written by judged.py), one module at a time under nice -n 10, each
# module's finding directories as its patterns (./dir), and writes one line
# per finding (module file:line rule) to OUT/<module>.txt and OUT/all.txt.
# compare.py then says which judged findings are still reported.
#
# Usage: BIN=/path/to/interleave OUT=/tmp/dir [MODULES='mod@v ...'] [LIMIT=600] \
#   bench/precision/rerun-judged/run.sh
#        python3 bench/precision/rerun-judged/compare.py OUT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ -n "${BIN:-}" ] && [ -n "${OUT:-}" ] || { echo "BIN and OUT are needed" >&2; exit 2; }
LIMIT="${LIMIT:-600}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
: >"$OUT/all.txt"
mods="${MODULES:-$(cut -f3 "$here/judged.tsv" | awk '!seen[$0]++')}"
for mv in $mods; do
	pats="$(awk -F'\t' -v m="$mv" '$3 == m {d = $4; sub(/\/?[^\/]*$/, "", d); print (d == "" ? "." : "./" d)}' "$here/judged.tsv" | sort -u | tr '\n' ' ')"
	[ -n "$pats" ] || { echo "$mv: not in judged.tsv" >&2; exit 2; }
	name="${mv//\//_}"
	src="$OUT/src/$name"
	if [ ! -d "$src" ]; then
		dir="$(GOFLAGS=-mod=mod go mod download -json "$mv" | jq -r .Dir)"
		mkdir -p "$OUT/src"
		cp -r "$dir" "$src"
		chmod -R u+w "$src"
		(cd "$src" && { [ -e go.mod ] || GOFLAGS=-mod=mod go mod init "${mv%@*}" >/dev/null 2>&1; GOFLAGS=-mod=mod go mod download all >/dev/null 2>&1 || GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || true; })
	fi
	start=$SECONDS
	status=0
	rm -f "$OUT/$name.json"
	# shellcheck disable=SC2086 # pats is a list
	(cd "$src" && GOWORK=off GOFLAGS=-mod=mod timeout "$LIMIT" nice -n 10 "$BIN" check -format json -o "$OUT/$name.json" $pats 2>"$OUT/$name.stderr") || status=$?
	echo "$status" >"$OUT/$name.exit"
	# A finding's related positions follow it, marked "related" (grouped
	# findings list the other sites of one defect there).
	jq -r --arg m "$mv" '.findings[]? | "\($m) \(.pos.file):\(.pos.line) \(.rule)", (.rule as $r | .related[]? | "\($m) \(.file):\(.line) \($r) related")' "$OUT/$name.json" >"$OUT/$name.txt" 2>/dev/null || : >"$OUT/$name.txt"
	cat "$OUT/$name.txt" >>"$OUT/all.txt"
	echo "$mv ($pats) exit $status, $(grep -vc ' related$' "$OUT/$name.txt") findings, $((SECONDS - start)) s, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done

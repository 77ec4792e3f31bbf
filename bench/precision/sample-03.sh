#!/usr/bin/env bash
# sample-03.sh reproduces the precision sample 2026-12-03 (issue 24; the
# rule: sample-2026-12-03/RULE.md): default rules only, on Go modules of
# public GitHub repositories that the search tool's find_repos look-up lists
# for ten fixed substrings (its answers copied to find_repos.tsv), minus
# every path a sample listed, drew or named; a seeded 150 resolved at the
# proxy's latest version; rows with >= 10 lock/atomic lines in a seeded
# order; sample-02i.sh's packages, warm-up, check and watchdog. A thin
# wrapper over samplegraph.sh; only the candidate source is new.
#
# Usage: GOMODCACHE=/tmp/sample/modcache bench/precision/sample-03.sh candidates|candidates-b|precount|precount-b|list|list-ab|select
#        GOMODCACHE=/tmp/sample/modcache GOCACHE=/tmp/sample/gocache \
#          BIN=/tmp/sample/bin/interleave BIN_COMMIT=<commit> OUT=/tmp/sample/run-03 \
#          bench/precision/sample-03.sh run|render
set -euo pipefail
dir0="$(cd "$(dirname "$0")" && pwd)"
SAMPLE=2026-12-03
here="$dir0/sample-$SAMPLE"
STOP="${STOP:-2026-12-03 07:55 UTC}"
KILLAT="${KILLAT:-2026-12-03 08:05 UTC}"
OUT="${OUT:-/tmp/sample/run-03}"
. "$dir0/samplegraph.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# outlist: every earlier sample's named*.tsv paths and every path a sample
# listed or drew, lower-cased (RULE.md step 2 compares case-insensitively).
outlist() {
	{ for f in "$dir0"/sample-*/named*.tsv; do [ "${f%/*}" = "$here" ] || cut -f1 "$f"; done; drawn; } |
		tr '[:upper:]' '[:lower:]' | sort -u
}

# latest1 PATH: PATH TAB module TAB version, or PATH TAB TAB TAB failed.
latest1() {
	local j
	j="$(cd "$tmp" && GOFLAGS=-mod=mod timeout 60 go list -m -json "$1@latest" 2>/dev/null)" || j=
	if [ -z "$j" ]; then
		printf '%s\t\t\tfailed\n' "$1"
		return
	fi
	printf '%s\t%s\t%s\tok\n' "$1" "$(jq -r .Path <<<"$j")" "$(jq -r .Version <<<"$j")"
}

# resolve_drawn DRAWN RESOLVED CANDIDATES: each drawn path at the proxy's
# latest (RESOLVED, in $here); the resolved modules neither out ($tmp/out)
# nor named are the CANDIDATES (in $here).
resolve_drawn() {
	export -f latest1
	export tmp
	mkdir -p "$tmp/res"
	awk '{ print $1 "\t" NR }' "$1" | xargs -P 4 -L 1 bash -c 'latest1 "$0" >"$tmp/res/$1"'
	cat "$tmp"/res/* /dev/null | sort >"$here/$2"
	# The resolved module must not be out or named either.
	awk -F'\t' '$4 == "ok" { print $2 "\t" $3 }' "$here/$2" | sort -u >"$tmp/mods"
	named "$tmp/mods" "$tmp/modnamed"
	awk -F'\t' 'NR == FNR { out[tolower($1)] = 1; next } !(tolower($1) in out) && $3 == "unnamed" { print $1 "\t" $2 }' "$tmp/out" "$tmp/modnamed" >"$here/$3"
}

case "${1:-}" in
candidates)
	# RULE.md steps 1-3. find_repos.tsv: substring TAB owner/name TAB
	# file_versions, the look-ups' answers as the session copied them.
	cut -f2 "$here/find_repos.tsv" | sed 's|^|github.com/|' | sort -u >"$here/repos.tsv"
	outlist >"$tmp/out"
	awk 'NR == FNR { out[$1] = 1; next } !(tolower($1) in out) { print $1 "\t-" }' "$tmp/out" "$here/repos.tsv" >"$tmp/new.tsv"
	named "$tmp/new.tsv" "$here/named.tsv"
	awk -F'\t' '$3 == "unnamed" { print $1 }' "$here/named.tsv" >"$tmp/unnamed"
	seeded 150 2026120331 "$tmp/unnamed" "$tmp/drawn150"
	resolve_drawn "$tmp/drawn150" resolved.tsv candidates.tsv
	echo "answers $(wc -l <"$here/find_repos.tsv"), repos $(wc -l <"$here/repos.tsv"), not out $(wc -l <"$tmp/new.tsv"), unnamed $(wc -l <"$tmp/unnamed"), drawn $(wc -l <"$tmp/drawn150"), resolved $(grep -c $'\tok$' "$here/resolved.tsv"), candidates $(wc -l <"$here/candidates.tsv")" >&2
	;;
candidates-b)
	# RULE.md step 5: a seeded 150 of the unnamed paths step 3 did not draw.
	outlist >"$tmp/out"
	cut -f1 "$here/candidates.tsv" | tr '[:upper:]' '[:lower:]' >>"$tmp/out"
	cut -f1 "$here/resolved.tsv" >"$tmp/drawn150"
	awk -F'\t' '$3 == "unnamed" { print $1 }' "$here/named.tsv" | grep -vxFf "$tmp/drawn150" >"$tmp/rest" || true
	seeded 150 2026120333 "$tmp/rest" "$tmp/drawnb"
	resolve_drawn "$tmp/drawnb" resolved-b.tsv candidates-b.tsv
	echo "rest $(wc -l <"$tmp/rest"), drawn $(wc -l <"$tmp/drawnb"), resolved $(grep -c $'\tok$' "$here/resolved-b.tsv"), candidates-b $(wc -l <"$here/candidates-b.tsv")" >&2
	;;
precount) precount candidates.tsv precount.tsv ;;
precount-b) precount candidates-b.tsv precount-b.tsv ;;
list) seeded_list precount.tsv:2026120332 ;;
list-ab) seeded_list precount.tsv:2026120332 precount-b.tsv:2026120334 ;;
select) SAMPLE=$SAMPLE exec "$dir0/sample-30g.sh" select ;;
render) graph_loop render ;;
run) graph_run "$0" ;;
loop)
	echo $$ >"$OUT/loop.pid" # setsid made it the session's leader: its id is the session's
	graph_loop run
	;;
*) echo "usage: sample-03.sh candidates|candidates-b|precount|precount-b|list|list-ab|select|run|render" >&2; exit 2 ;;
esac

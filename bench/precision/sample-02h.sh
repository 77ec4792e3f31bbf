#!/usr/bin/env bash
# sample-02h.sh reproduces the precision sample 2026-12-02h (issue 24; the
# rule: sample-2026-12-02h/RULE.md): default rules only, on the fifth level
# of the dependency graph (the go.mod requires of sample 2026-12-02g's 500
# candidates) minus the earlier levels, every path a sample listed or drew,
# and named paths; source B (go-partial.tsv's served modules) only as
# RULE.md step 5 says; source C (RULE-C.md) only as its step 12 says. Rows with ≥ 10 lock/atomic lines, in an order fixed
# by a seed; sample-02g.sh's packages, warm-up, check and watchdog. A thin
# wrapper over samplegraph.sh.
#
# Usage: GOMODCACHE=/tmp/sample/modcache bench/precision/sample-02h.sh candidates|candidates-b|candidates-c|precount|precount-b|precount-c|list|list-ab|list-abc|select
#        GOMODCACHE=/tmp/sample/modcache GOCACHE=/tmp/sample/gocache \
#          BIN=/tmp/sample/bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-02h.sh run|render
set -euo pipefail
dir0="$(cd "$(dirname "$0")" && pwd)"
SAMPLE=2026-12-02h
here="$dir0/sample-$SAMPLE"
STOP="${STOP:-2026-12-02 16:45 UTC}"
KILLAT="${KILLAT:-2026-12-02 16:52 UTC}"
OUT="${OUT:-/tmp/sample/run}"
. "$dir0/samplegraph.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
case "${1:-}" in
candidates)
	# The earlier levels are out: 2026-12-02 (first), d (second), f
	# (third), g (fourth).
	for s in 2026-12-02 2026-12-02d 2026-12-02f 2026-12-02g; do cut -f1 "$dir0/sample-$s/named.tsv"; done >"$tmp/levels"
	graph_candidates "$dir0/sample-2026-12-02g/candidates.tsv" 2026120236 "$tmp/levels"
	;;
candidates-b)
	for s in 2026-12-02 2026-12-02d 2026-12-02f 2026-12-02g; do cut -f1 "$dir0/sample-$s/named.tsv"; done >"$tmp/levels"
	cut -f2 "$here/dependencies.tsv" >"$tmp/a"
	partial_candidates 2026120237 "$tmp/levels" "$tmp/a"
	;;
candidates-c)
	# RULE-C.md: the sixth level (the requires of A's candidates) and the
	# requires of go-partial.tsv's served modules, minus the five levels,
	# this sample's sources A and B and every path a sample listed or drew.
	for s in 2026-12-02 2026-12-02d 2026-12-02f 2026-12-02g 2026-12-02h; do cut -f1 "$dir0/sample-$s/named.tsv"; done >"$tmp/levels"
	cut -f1 "$here/named-b.tsv" >>"$tmp/levels"
	{
		cat "$here/candidates.tsv"
		awk -F'\t' 'NR > 1 && $2 ~ /^v/ { print $1 "\t" $2 }' /work/.library/env/packages/go-partial.tsv
	} | sort -u >"$tmp/roots"
	CAND=-c graph_candidates "$tmp/roots" 2026120240 "$tmp/levels"
	;;
precount) precount candidates.tsv precount.tsv ;;
precount-b) precount candidates-b.tsv precount-b.tsv ;;
precount-c) precount candidates-c.tsv precount-c.tsv ;;
list) seeded_list precount.tsv:2026120238 ;;
list-ab) seeded_list precount.tsv:2026120238 precount-b.tsv:2026120239 ;;
list-abc) seeded_list precount.tsv:2026120238 precount-b.tsv:2026120239 precount-c.tsv:2026120241 ;;
select) SAMPLE=$SAMPLE exec "$dir0/sample-30g.sh" select ;;
render) graph_loop render ;;
run) graph_run "$0" ;;
loop)
	echo $$ >"$OUT/loop.pid" # setsid made it the session's leader: its id is the session's
	graph_loop run
	;;
*) echo "usage: sample-02h.sh candidates|candidates-b|candidates-c|precount|precount-b|precount-c|list|list-ab|list-abc|select|run|render" >&2; exit 2 ;;
esac

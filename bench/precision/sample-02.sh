#!/usr/bin/env bash
# sample-02.sh reproduces the precision sample 2026-12-02 (issue 24 items 3,
# 4): default rules only on the dependency modules of the modules listed by
# the samples 2026-12-01, -01b and -01c, unnamed in the repository.
# `candidates` reads each listed module's go.mod through the Go module proxy
# (`go list -m -json`, the .mod file only), takes every require (direct and
# indirect), keeps one version a path (the highest by `sort -V`), and drops
# every path (a trailing /vN removed) that `git grep -i -F` finds in the
# repository outside sample-2026-12-02*/: candidates.tsv, and
# dependencies.tsv (which listed module requires what). Over 300 rows,
# Python's random.Random(20261202).sample of 300, sorted. `precount` is
# sample-01c.sh's (the module zip's lock/atomic lines; list.md: 10 or more,
# most first), `select` sample-30g.sh's (packages.md), `run` and `render`
# sample-01c.sh's procedure (a `go vet` warm-up, then the timed default
# check) with a 900 s warm-up. `rerun` and `rerender` do the same for
# sample-2026-12-02b/packages.md: the four modules whose checks hit the
# limit in the samples 2026-12-01 and -01b, with those samples' packages.
#
# Usage: GOMODCACHE=/tmp/sample30/modcache bench/precision/sample-02.sh candidates|precount|select
#        GOMODCACHE=/tmp/sample30/modcache GOCACHE=/tmp/sample30/gocache \
#          BIN=/tmp/sample30/bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-02.sh run|render|rerun|rerender
set -euo pipefail
dir0="$(cd "$(dirname "$0")" && pwd)"
here="$dir0/sample-2026-12-02"
case "${1:-}" in
run | render)
	SAMPLE=2026-12-02 LIST="$here/packages.md" STOP="${STOP:-2026-12-02 00:10 UTC}" LIMIT="${LIMIT:-420}" \
		OUT="${OUT:-/tmp/sample30/run}" OPTIN= MAXFINDINGS=none WARMUP=1 WARMLIMIT="${WARMLIMIT:-900}" \
		exec "$dir0/sample-30e.sh" "$@"
	;;
rerun | rerender)
	mode="${1#re}"
	SAMPLE=2026-12-02b LIST="${here}b/packages.md" STOP="${STOP:-2026-12-02 00:20 UTC}" LIMIT="${LIMIT:-420}" \
		OUT="${OUT:-/tmp/sample30/runb}" OPTIN= MAXFINDINGS=none WARMUP=1 WARMLIMIT="${WARMLIMIT:-900}" \
		exec "$dir0/sample-30e.sh" "$mode"
	;;
precount) SAMPLE=2026-12-02 exec "$dir0/sample-01c.sh" precount ;;
select) SAMPLE=2026-12-02 exec "$dir0/sample-30g.sh" select ;;
candidates) ;;
*) echo "usage: sample-02.sh candidates|precount|select|run|render|rerun|rerender" >&2; exit 2 ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The listed modules, in the order of the three list.md files.
sed -n 's/^| [0-9]* | \([^ |]*\)@\([^ |]*\) | .*|$/\1\t\2/p' \
	"$dir0"/sample-2026-12-01/list.md "$dir0"/sample-2026-12-01b/list.md "$dir0"/sample-2026-12-01c/list.md >"$tmp/listed.tsv"
[ -s "$tmp/listed.tsv" ] || { echo "sample-02.sh: no listed modules" >&2; exit 1; }
# One listed module's requires: module, required path, version, direct|indirect.
requires1() {
	local gomod
	gomod="$(cd "$tmp" && GOFLAGS=-mod=mod timeout 120 go list -m -json "$1@$2" 2>/dev/null | jq -r '.GoMod // empty')" || gomod=
	if [ -z "$gomod" ]; then
		printf '%s@%s\t\t\tmod-failed\n' "$1" "$2"
		return
	fi
	go mod edit -json "$gomod" | jq -r --arg m "$1@$2" '.Require[]? | [$m, .Path, .Version, (if .Indirect then "indirect" else "direct" end)] | @tsv'
}
export -f requires1
export tmp
xargs -P 4 -L 1 bash -c 'requires1 "$0" "$1"' <"$tmp/listed.tsv" | sort >"$tmp/dependencies.tsv"
if grep -q 'mod-failed' "$tmp/dependencies.tsv"; then
	echo "sample-02.sh: some go.mod files were not read:" >&2
	grep 'mod-failed' "$tmp/dependencies.tsv" >&2
fi
# One version a path: the highest by sort -V.
awk -F'\t' '$2 != ""' "$tmp/dependencies.tsv" | cut -f2,3 | sort -u | sort -t$'\t' -k1,1 -k2,2V |
	awk -F'\t' '{ v[$1] = $2 } END { for (p in v) print p "\t" v[p] }' | sort >"$tmp/required.tsv"
# Named: the path (a trailing /vN removed) anywhere in the repository but this sample.
repo="$(cd "$dir0/../.." && pwd)"
named1() {
	local p="$1" q
	q="$(printf '%s' "$p" | sed 's#/v[0-9][0-9]*$##')"
	if git -C "$repo" grep -q -i -F -e "$q" -- . ':!bench/precision/sample-2026-12-02' ':!bench/precision/sample-2026-12-02b'; then
		printf '%s\t%s\tnamed\n' "$p" "$2"
	else
		printf '%s\t%s\tunnamed\n' "$p" "$2"
	fi
}
export -f named1
export repo
xargs -P 2 -L 1 bash -c 'named1 "$0" "$1"' <"$tmp/required.tsv" | sort >"$tmp/named.tsv"
awk -F'\t' '$3 == "unnamed" { print $1 "\t" $2 }' "$tmp/named.tsv" >"$tmp/unnamed.tsv"
python3 - "$tmp/unnamed.tsv" "$tmp/candidates.tsv" <<'EOF'
import random, sys
rows = open(sys.argv[1]).read().splitlines()
if len(rows) > 300:
    rows = random.Random(20261202).sample(rows, 300)
open(sys.argv[2], "w").write("".join(r + "\n" for r in sorted(rows)))
EOF
mkdir -p "$here"
cp "$tmp/dependencies.tsv" "$tmp/named.tsv" "$tmp/candidates.tsv" "$here/"
echo "listed $(wc -l <"$tmp/listed.tsv"), required paths $(wc -l <"$tmp/required.tsv"), unnamed $(wc -l <"$tmp/unnamed.tsv"), candidates $(wc -l <"$here/candidates.tsv")" >&2

#!/usr/bin/env bash
# sample-01c.sh reproduces the precision sample 2026-12-01c (issue 24 items
# 3, 4): default rules only on the most lock-heavy unnamed modules.
# `precount` fetches every module of sample-2026-12-01c/candidates.tsv
# through the Go module proxy and counts, over the whole module zip, the
# non-test Go lines calling a lock or an atomic (sample-30g.sh's regex and
# excluded directories): precount.tsv, and list.md (the modules with 10 or
# more such lines, most first, ties by path). `select` is sample-30g.sh's
# (the module's directories with at least 10 such lines, most first, at
# most 6 and 30,000 non-test lines) on that list.md. `run` and `render` are
# sample-30e.sh's procedure on packages.md, default rules only, with an
# untimed warm-up (`go vet` of the patterns: downloads and compiles the
# dependencies into GOCACHE) before each timed check, so the limit
# measures the analysis, not fetching and compiling.
#
# Usage: GOMODCACHE=/tmp/sample29/modcache bench/precision/sample-01c.sh precount|select
#        GOMODCACHE=/tmp/sample29/modcache GOCACHE=/tmp/sample29/gocache \
#          BIN=/tmp/sample29/bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-01c.sh run|render
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/sample-2026-12-01c"
case "${1:-}" in
run | render)
	SAMPLE=2026-12-01c LIST="$here/packages.md" STOP="${STOP:-21:38}" LIMIT="${LIMIT:-420}" \
		OUT="${OUT:-/tmp/sample29/run}" OPTIN= MAXFINDINGS=none WARMUP=1 WARMLIMIT="${WARMLIMIT:-300}" \
		exec "$(dirname "$0")/sample-30e.sh" "$@"
	;;
select) SAMPLE=2026-12-01c exec "$(dirname "$0")/sample-30g.sh" select ;;
precount) ;;
*) echo "usage: sample-01c.sh precount|select|run|render" >&2; exit 2 ;;
esac
# sample-02.sh sets SAMPLE: the precount of that sample's candidates.tsv.
here="${here%/*}/sample-${SAMPLE:-2026-12-01c}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# One module: its lock/atomic lines and lines over the zip's non-test files.
count1() {
	local m="$1" v="$2" dir
	dir="$(cd "$tmp" && GOFLAGS=-mod=mod timeout 300 go mod download -json "$m@$v" 2>/dev/null | jq -r .Dir)" || dir=
	if [ -z "$dir" ] || [ "$dir" = null ]; then
		printf '%s\t%s\tdownload-failed\t\n' "$m" "$v"
		return
	fi
	(cd "$dir" && find . -regextype posix-extended -type d \
		-regex '.*/(vendor|testdata|examples?|e2e|\..+|fake[^/]*|[^/]*(test|mock)[^/]*)' -prune \
		-o -type f -name '*.go' ! -name '*_test.go' -print0 |
		xargs -0 -r cat /dev/null |
		awk -v m="$m" -v v="$v" '
			/\.(R|Try|TryR)?Lock\(\)|atomic\.[A-Z][A-Za-z0-9]*\(|\.(Load|Store|Swap|CompareAndSwap)\(/ { n++ }
			{ l++ }
			END { printf "%s\t%s\t%d\t%d\n", m, v, n, l }')
}
export -f count1
export tmp
printf 'module\tversion\tlock/atomic lines\tlines\n' >"$tmp/precount.tsv"
# Four downloads at a time; the order of the rows does not matter (sorted below).
xargs -P 4 -L 1 bash -c 'count1 "$0" "$1"' <"$here/candidates.tsv" | sort >>"$tmp/precount.tsv"
{
	echo "# Sample ${SAMPLE:-2026-12-01c}: the modules (written by ../sample-01c.sh precount)"
	echo
	echo "The candidates with 10 or more non-test lines calling a lock or an atomic in"
	echo "their module zip (precount.tsv), most first, ties by module path (RULE.md step 2)."
	echo
	echo "| # | module@version | packages |"
	echo "|---|---|---|"
	awk -F'\t' 'NR > 1 && $3 ~ /^[0-9]+$/ && $3 >= 10' "$tmp/precount.tsv" | sort -t$'\t' -k3,3nr -k1,1 |
		awk -F'\t' '{ printf "| %d | %s@%s | select |\n", NR, $1, $2 }'
} >"$tmp/list.md"
cp "$tmp/precount.tsv" "$tmp/list.md" "$here/"

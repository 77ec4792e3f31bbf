#!/usr/bin/env bash
# sample-30g.sh reproduces the finding lists of the precision sample
# 2026-11-30g (issue 24): packages of large modules. `select` fetches each
# module of sample-2026-11-30g/list.md through the Go module proxy and
# writes packages.md there (RULE.md step 3: its directories with at least
# 10 lock or atomic call lines, most first, at most 6 and 30,000 non-test
# lines; selection.tsv lists every directory with 10 or more). `run` and
# `render` are sample-30e.sh's procedure on packages.md with this
# sample's stop time, limit and output directory.
#
# Usage: bench/precision/sample-30g.sh select
#        BIN=/tmp/sample19-bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-30g.sh run|render
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/sample-${SAMPLE:-2026-11-30g}" # sample-30h.sh sets SAMPLE
case "${1:-}" in
run | render)
	SAMPLE=2026-11-30g LIST="$here/packages.md" STOP="${STOP:-16:05}" LIMIT="${LIMIT:-900}" \
		OUT="${OUT:-/tmp/sample19-run}" exec "$(dirname "$0")/sample-30e.sh" "$@"
	;;
select) ;;
*) echo "usage: sample-30g.sh select|run|render" >&2; exit 2 ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
{
	echo "# Sample 2026-11-30g: the packages (written by ../sample-30g.sh select)"
	echo
	echo "The rows of list.md with the directories RULE.md step 3 chooses."
	echo
	echo "| # | module@version | packages |"
	echo "|---|---|---|"
} >"$tmp/packages.md"
printf 'module\tdirectory\tlock/atomic lines\tlines\ttaken\n' >"$tmp/selection.tsv"
i=0
while read -r mv; do
	i=$((i + 1))
	dir="$(cd "$tmp" && GOFLAGS=-mod=mod timeout 300 go mod download -json "$mv" | jq -r .Dir)" || dir=
	if [ -z "$dir" ] || [ "$dir" = null ]; then
		echo "| $i | $mv |  |" >>"$tmp/packages.md"
		echo "$mv: not downloaded" >&2
		continue
	fi
	# Per directory: lock/atomic call lines and lines of its non-test files.
	(cd "$dir" && find . -regextype posix-extended -type d \
		-regex '.*/(vendor|testdata|examples?|e2e|\..+|fake[^/]*|[^/]*(test|mock)[^/]*)' -prune \
		-o -type f -name '*.go' ! -name '*_test.go' -print0 |
		xargs -0 -r awk '
			FNR == 1 { d = FILENAME; sub(/\/[^\/]*$/, "", d) }
			/\.(R|Try|TryR)?Lock\(\)|atomic\.[A-Z][A-Za-z0-9]*\(|\.(Load|Store|Swap|CompareAndSwap)\(/ { n[d]++ }
			{ l[d]++ }
			END { for (d in l) printf "%s\t%d\t%d\n", d, n[d], l[d] }') |
		awk -F'\t' '$2 >= 10' | sort -t$'\t' -k2,2nr -k1,1 >"$tmp/dirs"
	pats=
	taken=0
	total=0
	while IFS=$'\t' read -r d n l; do
		t=no
		if [ "$taken" -lt 6 ] && [ $((total + l)) -le 30000 ]; then
			t=yes
			taken=$((taken + 1))
			total=$((total + l))
			pats="$pats $d"
		fi
		printf '%s\t%s\t%s\t%s\t%s\n' "$mv" "$d" "$n" "$l" "$t" >>"$tmp/selection.tsv"
	done <"$tmp/dirs"
	echo "| $i | $mv | ${pats# } |" >>"$tmp/packages.md"
	echo "$mv: ${pats:- none} ($total lines)" >&2
done < <(sed -n 's/^| [0-9]* | \([^ |]*@[^ |]*\) | select |$/\1/p' "$here/list.md")
cp "$tmp/packages.md" "$tmp/selection.tsv" "$here/"

#!/usr/bin/env bash
# sample-02c.sh reproduces the precision samples 2026-12-02c and -02d (issue
# 24): default rules only. c: the unnamed dependency paths of
# sample-2026-12-02/named.tsv that sample30 did not draw. d: the requires of
# those 857 paths (second level), minus the first level and the listed
# modules, unnamed in the repository (the rule: sample-2026-12-02c/RULE.md).
# `candidates3`, `precount3`, `select3`, `run3`, `render3`: sample
# 2026-12-02e, the unnamed second-level paths d's draw left out.
# `candidates`/`candidates2` write candidates.tsv (and named.tsv, d's
# dependencies.tsv); `precount`/`precount2` are sample-01c.sh's (list.md),
# `select`/`select2` sample-30g.sh's (packages.md), `run`/`run2` and
# `render`/`render2` sample-01c.sh's procedure (a `go vet` warm-up of at most
# 300 s, a module whose warm-up hits it not checked, then the timed default
# check, 420 s).
#
# Usage: GOMODCACHE=/tmp/sample33/modcache bench/precision/sample-02c.sh candidates|candidates2|precount|precount2|select|select2
#        GOMODCACHE=/tmp/sample33/modcache GOCACHE=/tmp/sample33/gocache \
#          BIN=/tmp/sample33/bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-02c.sh run|render|run2|render2
set -euo pipefail
dir0="$(cd "$(dirname "$0")" && pwd)"
c="$dir0/sample-2026-12-02c"
d="$dir0/sample-2026-12-02d"
first="$dir0/sample-2026-12-02"
runsample() {
	local s="$1" out="$2"
	shift 2
	SAMPLE="$s" LIST="$dir0/sample-$s/packages.md" STOP="${STOP:-2026-12-02 10:05 UTC}" LIMIT="${LIMIT:-420}" \
		OUT="${OUT:-$out}" OPTIN= MAXFINDINGS=none WARMUP=1 WARMLIMIT="${WARMLIMIT:-300}" WARMSKIP=1 \
		exec "$dir0/sample-30e.sh" "$@"
}
case "${1:-}" in
run | render) runsample 2026-12-02c /tmp/sample33/run "$1" ;;
run2 | render2) runsample 2026-12-02d /tmp/sample33/run2 "${1%2}" ;;
run3 | render3) runsample 2026-12-02e /tmp/sample33/run3 "${1%3}" ;;
precount) SAMPLE=2026-12-02c exec "$dir0/sample-01c.sh" precount ;;
precount2) SAMPLE=2026-12-02d exec "$dir0/sample-01c.sh" precount ;;
precount3) SAMPLE=2026-12-02e exec "$dir0/sample-01c.sh" precount ;;
select) SAMPLE=2026-12-02c exec "$dir0/sample-30g.sh" select ;;
select2) SAMPLE=2026-12-02d exec "$dir0/sample-30g.sh" select ;;
select3) SAMPLE=2026-12-02e exec "$dir0/sample-30g.sh" select ;;
candidates3)
	# e: the unnamed second-level paths d's random draw left out.
	mkdir -p "$dir0/sample-2026-12-02e"
	cut -f1 "$d/candidates.tsv" | sort -u |
		awk -F'\t' 'NR == FNR { drawn[$1] = 1; next } $3 == "unnamed" && !($1 in drawn) { print $1 "\t" $2 }' - "$d/named.tsv" |
		sort >"$dir0/sample-2026-12-02e/candidates.tsv"
	echo "candidates $(wc -l <"$dir0/sample-2026-12-02e/candidates.tsv")" >&2
	exit 0
	;;
candidates | candidates2) ;;
*) echo "usage: sample-02c.sh candidates|candidates2|candidates3|precount|precount2|precount3|select|select2|select3|run|run2|run3|render|render2|render3" >&2; exit 2 ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
repo="$(cd "$dir0/../.." && pwd)"
# named IN OUT: path<TAB>version rows of IN, marked named|unnamed (RULE.md
# step 3: the path, a trailing /vN removed, in any tracked file outside
# bench/precision/sample-2026-12-02*/, case-insensitively).
named() {
	python3 - "$repo" "$1" "$2" <<'PY'
import os, re, subprocess, sys
repo, inp, out = sys.argv[1:]
files = subprocess.run(["git", "-C", repo, "ls-files", "-z"], capture_output=True, check=True).stdout.split(b"\0")
parts = []
for f in files:
    if not f or f.startswith(b"bench/precision/sample-2026-12-02"):
        continue
    p = os.path.join(repo.encode(), f)
    if os.path.isfile(p):
        with open(p, "rb") as fh:
            parts.append(fh.read().lower())
text = b"\n\0\n".join(parts)
rows = []
for line in open(inp).read().splitlines():
    path, ver = line.split("\t")[:2]
    q = re.sub(r"/v[0-9]+$", "", path).lower().encode()
    rows.append(f"{path}\t{ver}\t{'named' if q in text else 'unnamed'}\n")
open(out, "w").write("".join(sorted(rows)))
PY
}
# draw IN OUT SEED: all rows of IN, or a seeded random 300 of them, sorted.
draw() {
	python3 - "$1" "$2" "$3" <<'PY'
import random, sys
rows = open(sys.argv[1]).read().splitlines()
if len(rows) > 300:
    rows = random.Random(int(sys.argv[3])).sample(rows, 300)
open(sys.argv[2], "w").write("".join(r + "\n" for r in sorted(rows)))
PY
}
if [ "$1" = candidates ]; then
	# The unnamed paths of the first level that sample30 did not draw.
	cut -f1 "$first/candidates.tsv" | sort -u >"$tmp/drawn"
	awk -F'\t' '$3 == "unnamed" { print $1 "\t" $2 }' "$first/named.tsv" | sort |
		awk -F'\t' 'NR == FNR { drawn[$1] = 1; next } !($1 in drawn)' "$tmp/drawn" - >"$tmp/left.tsv"
	named "$tmp/left.tsv" "$tmp/named.tsv"
	awk -F'\t' '$3 == "unnamed" { print $1 "\t" $2 }' "$tmp/named.tsv" >"$tmp/unnamed.tsv"
	draw "$tmp/unnamed.tsv" "$tmp/candidates.tsv" 20261202
	mkdir -p "$c"
	cp "$tmp/named.tsv" "$tmp/candidates.tsv" "$c/"
	echo "not drawn $(wc -l <"$tmp/left.tsv"), unnamed now $(wc -l <"$tmp/unnamed.tsv"), candidates $(wc -l <"$c/candidates.tsv")" >&2
	exit 0
fi
# candidates2: the requires of every first-level path.
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
cut -f1,2 "$first/named.tsv" | xargs -P 4 -L 1 bash -c 'requires1 "$0" "$1"' | sort >"$tmp/dependencies.tsv"
if grep -q 'mod-failed' "$tmp/dependencies.tsv"; then
	echo "sample-02c.sh: some go.mod files were not read:" >&2
	grep 'mod-failed' "$tmp/dependencies.tsv" >&2
fi
# Out: the first level and the listed modules.
{
	cut -f1 "$first/named.tsv"
	sed -n 's/^| [0-9]* | \([^ |@]*\)@[^ |]* | .*|$/\1/p' "$dir0"/sample-2026-12-01/list.md "$dir0"/sample-2026-12-01b/list.md "$dir0"/sample-2026-12-01c/list.md
} | sort -u >"$tmp/out"
awk -F'\t' '$2 != ""' "$tmp/dependencies.tsv" | cut -f2,3 | sort -u | sort -t$'\t' -k1,1 -k2,2V |
	awk -F'\t' '{ v[$1] = $2 } END { for (p in v) print p "\t" v[p] }' | sort |
	awk -F'\t' 'NR == FNR { out[$1] = 1; next } !($1 in out)' "$tmp/out" - >"$tmp/required.tsv"
named "$tmp/required.tsv" "$tmp/named.tsv"
awk -F'\t' '$3 == "unnamed" { print $1 "\t" $2 }' "$tmp/named.tsv" >"$tmp/unnamed.tsv"
draw "$tmp/unnamed.tsv" "$tmp/candidates.tsv" 2026120233
mkdir -p "$d"
cp "$tmp/dependencies.tsv" "$tmp/named.tsv" "$tmp/candidates.tsv" "$d/"
echo "first-level paths $(wc -l <"$first/named.tsv"), second-level paths $(wc -l <"$tmp/required.tsv"), unnamed $(wc -l <"$tmp/unnamed.tsv"), candidates $(wc -l <"$d/candidates.tsv")" >&2

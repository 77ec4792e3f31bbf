#!/usr/bin/env bash
# sample-02f.sh reproduces the precision sample 2026-12-02f (issue 24):
# default rules only, on the third level of the dependency graph (the
# requires of the 535 second-level paths of sample-2026-12-02d/named.tsv,
# minus the first and second levels and every path a sample listed or
# drew, unnamed in the repository; the rule: sample-2026-12-02f/RULE.md).
# `candidates` writes dependencies.tsv, named.tsv and candidates.tsv;
# `precount` is sample-01c.sh's (list.md), `select` sample-30g.sh's
# (packages.md); `run` is sample-02c.sh's procedure (a `go vet` warm-up of
# at most 300 s, a module whose warm-up hits it not checked, then the timed
# default check, 420 s; no row from STOP on) with a watchdog that stops
# whatever still runs at KILLAT and records it in counts.tsv as "stopped";
# `render` writes findings-<module>.txt.
#
# Usage: GOMODCACHE=/tmp/sample34/modcache bench/precision/sample-02f.sh candidates|precount|select
#        GOMODCACHE=/tmp/sample34/modcache GOCACHE=/tmp/sample34/gocache \
#          BIN=/tmp/sample34/bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-02f.sh run|render
set -euo pipefail
dir0="$(cd "$(dirname "$0")" && pwd)"
f="$dir0/sample-2026-12-02f"
d="$dir0/sample-2026-12-02d"
first="$dir0/sample-2026-12-02"
STOP="${STOP:-2026-12-02 12:45 UTC}"
KILLAT="${KILLAT:-2026-12-02 12:55 UTC}"
OUT="${OUT:-/tmp/sample34/run}"
loop() {
	SAMPLE=2026-12-02f LIST="$f/packages.md" STOP="$STOP" LIMIT="${LIMIT:-420}" \
		OUT="$OUT" OPTIN= MAXFINDINGS=none WARMUP=1 WARMLIMIT="${WARMLIMIT:-300}" WARMSKIP=1 \
		exec "$dir0/sample-30e.sh" "$@"
}
case "${1:-}" in
render) loop render ;;
run)
	mkdir -p "$OUT"
	rm -f "$OUT/loop.pid"
	# The loop in a session of its own; the check runs in one more (samplerun.sh's
	# setsid). At KILLAT the watchdog stops every process group of both.
	setsid "$0" loop 2>&1 | tee "$f/run.log" &
	while [ ! -s "$OUT/loop.pid" ]; do sleep 1; done
	lsid="$(cat "$OUT/loop.pid")"
	lsess="$(ps -o sid= -p "$lsid" | tr -d ' ')"
	if [ -z "$lsess" ] || [ "$lsess" = "$(ps -o sid= -p $$ | tr -d ' ')" ]; then
		echo "sample-02f.sh: the loop has no session of its own; no watchdog" >&2
		exit 1
	fi
	(
		now=$(date -u +%s)
		end=$(date -u -d "$KILLAT" +%s)
		while [ "$now" -lt "$end" ]; do
			kill -0 "$lsid" 2>/dev/null || exit 0
			sleep 5
			now=$(date -u +%s)
		done
		kill -0 "$lsid" 2>/dev/null || exit 0
		row="$(sed -n 's/^== [0-9]* \([^ ]*\) .*/\1/p' "$f/run.log" | tail -1)"
		sids="$lsess $(ps -eo sid=,args= | awk -v p="$OUT/interleave" '$2 == p { print $1 }' | sort -u | tr '\n' ' ')"
		for s in $sids; do
			for g in $(ps -eo sid=,pgid= | awk -v s="$s" '$1 == s { print $2 }' | sort -u); do
				kill -TERM -- "-$g" 2>/dev/null || true
			done
		done
		sleep 10
		for s in $sids; do
			for g in $(ps -eo sid=,pgid= | awk -v s="$s" '$1 == s { print $2 }' | sort -u); do
				kill -KILL -- "-$g" 2>/dev/null || true
			done
		done
		printf '%s\tstopped\t\t\t\t\t%s\n' "$row" "$(date -u +%H:%M)" >>"$f/counts.tsv"
		echo "   stopped by the watchdog at $(date -u +%H:%M:%S)" >>"$f/run.log"
	) &
	wait
	exit 0
	;;
loop)
	echo $$ >"$OUT/loop.pid" # setsid made it the session's leader: its id is the session's
	loop run
	;;
precount) SAMPLE=2026-12-02f exec "$dir0/sample-01c.sh" precount ;;
select) SAMPLE=2026-12-02f exec "$dir0/sample-30g.sh" select ;;
candidates) ;;
*) echo "usage: sample-02f.sh candidates|precount|select|run|render" >&2; exit 2 ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
repo="$(cd "$dir0/../.." && pwd)"
# requires1 PATH VERSION: every require of PATH@VERSION's go.mod (the .mod
# file from the proxy), direct and indirect.
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
cut -f1,2 "$d/named.tsv" | xargs -P 4 -L 1 bash -c 'requires1 "$0" "$1"' | sort >"$tmp/dependencies.tsv"
if grep -q 'mod-failed' "$tmp/dependencies.tsv"; then
	echo "sample-02f.sh: some go.mod files were not read:" >&2
	grep 'mod-failed' "$tmp/dependencies.tsv" >&2
fi
# Out: the first and second levels, and every path any sample listed or drew.
{
	cut -f1 "$first/named.tsv"
	cut -f1 "$d/named.tsv"
	cat "$dir0"/sample-*/candidates.tsv | grep -v '^#' | cut -f1
	sed -n 's/^| [0-9]* | \([^ |@]*\)@[^ |]* | .*|$/\1/p' "$dir0"/sample-*/list.md
} | sort -u >"$tmp/out"
awk -F'\t' '$2 != ""' "$tmp/dependencies.tsv" | cut -f2,3 | sort -u | sort -t$'\t' -k1,1 -k2,2V |
	awk -F'\t' '{ v[$1] = $2 } END { for (p in v) print p "\t" v[p] }' | sort |
	awk -F'\t' 'NR == FNR { out[$1] = 1; next } !($1 in out)' "$tmp/out" - >"$tmp/required.tsv"
# named: sample-02c.sh's test (the path, a trailing /vN removed, in any
# tracked file outside bench/precision/sample-2026-12-02*/, case-insensitively).
python3 - "$repo" "$tmp/required.tsv" "$tmp/named.tsv" <<'PY'
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
awk -F'\t' '$3 == "unnamed" { print $1 "\t" $2 }' "$tmp/named.tsv" >"$tmp/unnamed.tsv"
# All of them, or a seeded random 500, sorted.
python3 - "$tmp/unnamed.tsv" "$tmp/candidates.tsv" <<'PY'
import random, sys
rows = open(sys.argv[1]).read().splitlines()
if len(rows) > 500:
    rows = random.Random(2026120234).sample(rows, 500)
open(sys.argv[2], "w").write("".join(r + "\n" for r in sorted(rows)))
PY
mkdir -p "$f"
cp "$tmp/dependencies.tsv" "$tmp/named.tsv" "$tmp/candidates.tsv" "$f/"
echo "second-level paths $(wc -l <"$d/named.tsv"), third-level paths $(wc -l <"$tmp/required.tsv"), unnamed $(wc -l <"$tmp/unnamed.tsv"), candidates $(wc -l <"$f/candidates.tsv")" >&2

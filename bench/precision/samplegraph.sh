# samplegraph.sh is sourced by the dependency-graph sample scripts
# (sample-02h.sh): the steps sample-02f.sh and sample-02g.sh each spelled
# out, as functions of variables the wrapper sets:
#   dir0     bench/precision
#   here     the sample's directory
#   SAMPLE   its name (2026-12-02h)
#   STOP KILLAT OUT LIMIT WARMLIMIT  as in sample-02g.sh
# graph_candidates ROOTS SEED OUTFILE...: the go.mod requires of ROOTS
#   (path TAB version lines), minus the paths in OUTFILE files and named
#   paths; a seeded 500 if more: candidates$CAND.tsv (dependencies$CAND.tsv,
#   named$CAND.tsv beside it; CAND empty or -c).
# partial_candidates SEED EXCLUDE...: go-partial.tsv's served modules not
#   in the EXCLUDE files and unnamed; a seeded 300 if more: candidates-b.tsv.
# precount FILE OUT: sample-01c.sh's count of FILE's modules into OUT.
# seeded_list PRECOUNT:SEED...: list.md, the rows with ≥ 10 lock/atomic
#   lines, sorted by path and shuffled by each file's seed, in turn.
# graph_run: samplerun.sh's loop (WARMUP, WARMSKIP, default rules only) in
#   a session of its own, with a watchdog that stops it at KILLAT.

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

# named IN OUT: sample-02c.sh's test (the path, a trailing /vN removed, in
# any tracked file outside bench/precision/sample-2026-12-02*/,
# case-insensitively); OUT gets path, version, named|unnamed.
named() {
	python3 - "$(cd "$dir0/../.." && pwd)" "$1" "$2" <<'PY'
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

# drawn: every path any earlier sample listed or drew (this one's files
# are not read).
drawn() {
	local f
	for f in "$dir0"/sample-*/candidates*.tsv; do
		[ "${f%/*}" = "$here" ] || grep -v '^#' "$f" | cut -f1
	done
	for f in "$dir0"/sample-*/list.md; do
		[ "${f%/*}" = "$here" ] || sed -n 's/^| [0-9]* | \([^ |@]*\)@[^ |]* | .*|$/\1/p' "$f"
	done
}

# seeded N SEED IN OUT: all of IN's lines, or random.Random(SEED).sample of
# N of them, sorted.
seeded() {
	python3 - "$@" <<'PY'
import random, sys
n, seed, inp, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = open(inp).read().splitlines()
if len(rows) > n:
    rows = random.Random(seed).sample(rows, n)
open(out, "w").write("".join(r + "\n" for r in sorted(rows)))
PY
}

graph_candidates() {
	local roots="$1" seed="$2"
	shift 2
	export -f requires1
	export tmp
	# One file a root: four writers on one pipe interleave long outputs
	# (sample-02g.sh's dependencies.tsv and candidates.tsv have cut lines).
	mkdir -p "$tmp/req"
	awk -F'\t' '{ print $1 "\t" $2 "\t" NR }' "$roots" |
		xargs -P 4 -L 1 bash -c 'requires1 "$0" "$1" >"$tmp/req/$2"'
	cat "$tmp"/req/* /dev/null | sort >"$tmp/dependencies.tsv"
	if grep -q 'mod-failed' "$tmp/dependencies.tsv"; then
		echo "samplegraph.sh: some go.mod files were not read:" >&2
		grep 'mod-failed' "$tmp/dependencies.tsv" >&2
	fi
	{ cat "$@" /dev/null; drawn; } | sort -u >"$tmp/out"
	awk -F'\t' '$2 != ""' "$tmp/dependencies.tsv" | cut -f2,3 | sort -u | sort -t$'\t' -k1,1 -k2,2V |
		awk -F'\t' '{ v[$1] = $2 } END { for (p in v) print p "\t" v[p] }' | sort |
		awk -F'\t' 'NR == FNR { out[$1] = 1; next } !($1 in out)' "$tmp/out" - >"$tmp/required.tsv"
	named "$tmp/required.tsv" "$tmp/named.tsv"
	awk -F'\t' '$3 == "unnamed" { print $1 "\t" $2 }' "$tmp/named.tsv" >"$tmp/unnamed.tsv"
	seeded 500 "$seed" "$tmp/unnamed.tsv" "$tmp/candidates.tsv"
	mkdir -p "$here"
	cp "$tmp/dependencies.tsv" "$here/dependencies${CAND:-}.tsv"
	cp "$tmp/named.tsv" "$here/named${CAND:-}.tsv"
	cp "$tmp/candidates.tsv" "$here/candidates${CAND:-}.tsv"
	echo "roots $(cut -f1 "$tmp/dependencies.tsv" | sort -u | wc -l), new paths $(wc -l <"$tmp/required.tsv"), unnamed $(wc -l <"$tmp/unnamed.tsv"), candidates $(wc -l <"$here/candidates${CAND:-}.tsv")" >&2
}

partial_candidates() {
	local seed="$1"
	shift
	{ cat "$@" /dev/null; drawn; } | sort -u >"$tmp/out"
	awk -F'\t' 'NR > 1 && $2 ~ /^v/ { print $1 "\t" $2 }' /work/.library/env/packages/go-partial.tsv | sort |
		awk -F'\t' 'NR == FNR { out[$1] = 1; next } !($1 in out)' "$tmp/out" - >"$tmp/served.tsv"
	named "$tmp/served.tsv" "$tmp/named-b.tsv"
	awk -F'\t' '$3 == "unnamed" { print $1 "\t" $2 }' "$tmp/named-b.tsv" >"$tmp/unnamed.tsv"
	seeded 300 "$seed" "$tmp/unnamed.tsv" "$tmp/candidates-b.tsv"
	mkdir -p "$here"
	cp "$tmp/named-b.tsv" "$tmp/candidates-b.tsv" "$here/"
	echo "served $(wc -l <"$tmp/served.tsv"), unnamed $(wc -l <"$tmp/unnamed.tsv"), candidates-b $(wc -l <"$here/candidates-b.tsv")" >&2
}

# precount FILE OUT: sample-01c.sh's precount of FILE (a candidates file
# of $here) into OUT (precount.tsv, precount-b.tsv, ...); sample-01c.sh
# reads candidates.tsv and writes precount.tsv and list.md, so the others
# are moved aside and back.
precount() {
	local f="$1" p="$2"
	if [ "$f" != candidates.tsv ]; then
		mv "$here/candidates.tsv" "$tmp/a.tsv"
		[ ! -e "$here/precount.tsv" ] || mv "$here/precount.tsv" "$tmp/pa.tsv"
		cp "$here/$f" "$here/candidates.tsv"
	fi
	[ ! -e "$here/list.md" ] || mv "$here/list.md" "$tmp/list.md"
	SAMPLE="$SAMPLE" "$dir0/sample-01c.sh" precount
	rm -f "$here/list.md" # seeded_list writes it
	[ ! -e "$tmp/list.md" ] || mv "$tmp/list.md" "$here/list.md"
	if [ "$f" != candidates.tsv ]; then
		mv "$here/precount.tsv" "$here/$p"
		mv "$tmp/a.tsv" "$here/candidates.tsv"
		[ ! -e "$tmp/pa.tsv" ] || mv "$tmp/pa.tsv" "$here/precount.tsv"
	fi
}

# seeded_list PRECOUNT:SEED...: list.md, each precount file's rows with
# ≥ 10 lock/atomic lines sorted by path and shuffled by its seed, one
# file's rows after the other's.
seeded_list() {
	python3 - "$here" "$SAMPLE" "$@" <<'PY'
import os, random, sys
here, sample, parts = sys.argv[1], sys.argv[2], [a.split(":") for a in sys.argv[3:]]
rows = []
for name, seed in parts:
    part = []
    for line in open(os.path.join(here, name)).read().splitlines()[1:]:
        m, v, n = line.split("\t")[:3]
        if n.isdigit() and int(n) >= 10:
            part.append(f"{m}@{v}")
    part.sort()
    random.Random(int(seed)).shuffle(part)
    rows += part
out = [f"# Sample {sample}: the modules (written by ../samplegraph.sh seeded_list)", "",
       "The candidates with 10 or more non-test lines calling a lock or an atomic in",
       "their module zip, sorted by path and shuffled by the seeds of RULE.md",
       "(" + ", ".join(f"{n} by {s}" for n, s in parts) + ", in that order).", "",
       "| # | module@version | packages |", "|---|---|---|"]
out += [f"| {i} | {mv} | select |" for i, mv in enumerate(rows, 1)]
open(os.path.join(here, "list.md"), "w").write("\n".join(out) + "\n")
print(f"list.md: {len(rows)} rows", file=sys.stderr)
PY
}

graph_loop() {
	SAMPLE="$SAMPLE" LIST="$here/packages.md" STOP="$STOP" LIMIT="${LIMIT:-420}" \
		OUT="$OUT" OPTIN= MAXFINDINGS=none WARMUP=1 WARMLIMIT="${WARMLIMIT:-300}" WARMSKIP=1 \
		exec "$dir0/sample-30e.sh" "$@"
}

# graph_run SELF: SELF loop in a session of its own (the check runs in one
# more: samplerun.sh's setsid); at KILLAT the watchdog stops every process
# group of both and records the row as stopped.
graph_run() {
	local self="$1"
	mkdir -p "$OUT"
	rm -f "$OUT/loop.pid"
	setsid "$self" loop 2>&1 | tee "$here/run.log" &
	while [ ! -s "$OUT/loop.pid" ]; do sleep 1; done
	lsid="$(cat "$OUT/loop.pid")"
	lsess="$(ps -o sid= -p "$lsid" | tr -d ' ')"
	if [ -z "$lsess" ] || [ "$lsess" = "$(ps -o sid= -p $$ | tr -d ' ')" ]; then
		echo "samplegraph.sh: the loop has no session of its own; no watchdog" >&2
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
		row="$(sed -n 's/^== [0-9]* \([^ ]*\) .*/\1/p' "$here/run.log" | tail -1)"
		sids="$lsess $(ps -eo sid=,args= | awk -v p="$OUT/interleave" '$2 == p { print $1 }' | sort -u | tr '\n' ' ')"
		for s in $sids; do
			for grp in $(ps -eo sid=,pgid= | awk -v s="$s" '$1 == s { print $2 }' | sort -u); do
				kill -TERM -- "-$grp" 2>/dev/null || true
			done
		done
		sleep 10
		for s in $sids; do
			for grp in $(ps -eo sid=,pgid= | awk -v s="$s" '$1 == s { print $2 }' | sort -u); do
				kill -KILL -- "-$grp" 2>/dev/null || true
			done
		done
		printf '%s\tstopped\t\t\t\t\t%s\n' "$row" "$(date -u +%H:%M)" >>"$here/counts.tsv"
		echo "   stopped by the watchdog at $(date -u +%H:%M:%S)" >>"$here/run.log"
	) &
	wait
}

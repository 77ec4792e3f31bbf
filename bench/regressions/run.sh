#!/usr/bin/env bash
# run.sh runs the pull-request job on real concurrency regressions: for each
# pair of bench/regressions/pairs.tsv (release N fine, release N+1 brought a
# concurrency bug in, documented in the project's tracker), it makes a git
# repository whose first commit is N's tree and whose second commit is N+1's
# tree (both from the Go module proxy), runs
#
#   interleave pr -base HEAD~1 -format json -o report.json -v
#
# with the default budget, and prints one line per pair: caught or not (a
# finding whose primary location is in one of the bug's files, with its
# rule), the findings, the review comments the job would post, the tests
# searched and their schedules, the wall time and the exit code.
# docs/regressions.md has the set, how it was chosen, and results.
#
# Usage: bench/regressions/run.sh [-o DIR] [-pairs FILE] [-list] [PAIR_ID ...]
#
#   -o DIR      keep the raw outputs in DIR (default $REGRESS_OUT, else
#               $TMPDIR/interleave-regressions); DIR/results.tsv is the summary
#   -pairs FILE the pairs file (default pairs.tsv next to this script)
#   -list       print the pair IDs and exit
#   PAIR_ID     run only these pairs (default: all)
#
# Extra flags for interleave pr can be given in $REGRESS_PR_FLAGS (the
# figures in docs/regressions.md use none: the default budget).
#
# Per pair, DIR/ID/ holds the repository (repo/), report.json, stderr.log
# (the -v log), stdout.txt, summary.md, diff-hunks.tsv and the downloads'
# JSON. Exit status: 0 when every pair ran (caught or not), 2 on bad input
# (unknown pair, bad pairs file, missing tool) or when a pair could not be
# set up (download failure) or the job itself failed (exit 2, no report).
set -euo pipefail
# The body is one compound command: bash parses all of it before running,
# so editing this file during a run cannot change the run.
{

die() {
	echo "regressions: $*" >&2
	exit 2
}

here="$(cd "$(dirname "$0")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
pairs="$here/pairs.tsv"
out="${REGRESS_OUT:-${TMPDIR:-/tmp}/interleave-regressions}"
list=0
ids=()
while (($# > 0)); do
	case "$1" in
	-o)
		(($# >= 2)) || die "-o needs a directory"
		out="$2"
		shift 2
		;;
	-pairs)
		(($# >= 2)) || die "-pairs needs a file"
		pairs="$2"
		shift 2
		;;
	-list)
		list=1
		shift
		;;
	-h | -help | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*) die "unknown flag $1 (see -h)" ;;
	*)
		ids+=("$1")
		shift
		;;
	esac
done

for tool in go git jq awk; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed"
done
[[ -f "$pairs" ]] || die "pairs file $pairs does not exist"

# The pairs file: a header line, then one tab-separated line per pair:
# id module base head fixed issue files kind tests bug.
header="$(head -n 1 "$pairs")"
[[ "$header" == $'id\tmodule\tbase\thead\tfixed\tissue\tfiles\tkind\ttests\tbug' ]] ||
	die "$pairs: the first line is not the expected header"
declare -A mod base head files
all=()
lineno=1
while IFS=$'\t' read -r id m b h _fixed _issue fs _rest; do
	lineno=$((lineno + 1))
	[[ -z "$id" ]] && continue
	[[ -n "$m" && -n "$b" && -n "$h" && -n "$fs" ]] || die "$pairs:$lineno: pair $id lacks a module, a version or its files"
	[[ -z "${mod[$id]:-}" ]] || die "$pairs:$lineno: pair $id is listed twice"
	mod[$id]="$m"
	base[$id]="$b"
	head[$id]="$h"
	files[$id]="$fs"
	all+=("$id")
done < <(tail -n +2 "$pairs")
((${#all[@]} > 0)) || die "$pairs lists no pair"

if ((list)); then
	printf '%s\n' "${all[@]}"
	exit 0
fi
if ((${#ids[@]} == 0)); then
	ids=("${all[@]}")
fi
for id in "${ids[@]}"; do
	[[ -n "${mod[$id]:-}" ]] || die "unknown pair $id (known: ${all[*]})"
done

mkdir -p "$out"
out="$(cd "$out" && pwd)"
il="$out/interleave"
echo "building interleave from $repo_root" >&2
(cd "$repo_root" && go build -o "$il" ./cmd/interleave) || die "go build ./cmd/interleave failed"

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "interleave commit: $(git -C "$repo_root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$repo_root" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
	echo "go: $(go version)"
	echo "nproc: $(nproc 2>/dev/null || echo unknown)"
	echo "flags: ${REGRESS_PR_FLAGS:-}"
	echo "pairs: ${ids[*]}"
} >"$out/env.txt"

# download MODULE VERSION DEST_JSON prints the module's directory in the
# module cache, or fails with the go command's error.
download() {
	local tmp dir err
	tmp="$(mktemp -d "${TMPDIR:-/tmp}/regress-dl.XXXXXX")"
	if ! (cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$1@$2") >"$3" 2>"$3.stderr"; then
		:
	fi
	rm -rf "$tmp"
	err="$(jq -r '.Error // empty' "$3" 2>/dev/null || true)"
	dir="$(jq -r '.Dir // empty' "$3" 2>/dev/null || true)"
	if [[ -n "$err" || -z "$dir" || ! -d "$dir" ]]; then
		echo "go mod download $1@$2 failed: ${err:-$(tail -n 3 "$3.stderr" 2>/dev/null)}" >&2
		return 1
	fi
	echo "$dir"
}

# tree copies a module directory into the repository's work tree, replacing
# everything but .git, and fetches its dependencies the way a CI job would.
# A module of a multi-module repository (go.opentelemetry.io/otel/sdk/metric)
# keeps its go.mod's replace directives to directories outside it
# ("=> ../..", or "=> ./exporters/x", a nested module the zip leaves out),
# which the proxy's zip does not hold: they are dropped, so those modules
# come from the proxy at the versions go.mod requires. A +incompatible
# release has no go.mod: it gets one (go mod init MODULE, go mod tidy), as
# a CI job of the repository would need to run it in module mode.
tree() {
	find "$2" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
	cp -r "$1/." "$2/"
	chmod -R u+w "$2"
	if [[ ! -f "$2/go.mod" ]]; then
		(cd "$2" && go mod init "$3" >/dev/null 2>&1 && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1) ||
			echo "regressions: go mod init $3 in $2 failed" >&2
	fi
	local old new
	while IFS=$'\t' read -r old new; do
		[[ -n "$old" ]] || continue
		[[ "$new" == ./* && -d "$2/$new" ]] && continue
		(cd "$2" && go mod edit -dropreplace="$old")
	done < <(cd "$2" && go mod edit -json | jq -r '.Replace[]? | select(.New.Version == null and (.New.Path | startswith("../") or startswith("./"))) | .Old.Path + (if .Old.Version then "@" + .Old.Version else "" end) + "\t" + .New.Path')
	(cd "$2" && GOFLAGS=-mod=mod go mod download >/dev/null 2>&1) || true
}

printf 'id\tcaught\trules\tfindings\tcomments\ttests\tschedules\twall_s\texit\n' >"$out/results.tsv"
status=0
export GIT_AUTHOR_NAME=regress GIT_AUTHOR_EMAIL=regress@example.com GIT_COMMITTER_NAME=regress GIT_COMMITTER_EMAIL=regress@example.com
for id in "${ids[@]}"; do
	m="${mod[$id]}"
	d="$out/$id"
	chmod -R u+w "$d" 2>/dev/null || true
	rm -rf "$d"
	mkdir -p "$d/repo"
	echo "== $id: $m ${base[$id]} -> ${head[$id]}" >&2
	if ! bdir="$(download "$m" "${base[$id]}" "$d/download-base.json")" ||
		! hdir="$(download "$m" "${head[$id]}" "$d/download-head.json")"; then
		printf '%s\tERROR\tdownload failed\t-\t-\t-\t-\t-\t-\n' "$id" >>"$out/results.tsv"
		printf '%-20s ERROR: download failed (see %s)\n' "$id" "$d"
		status=2
		continue
	fi
	r="$d/repo"
	git -C "$r" init -q
	tree "$bdir" "$r" "$m"
	git -C "$r" add -A -f
	git -C "$r" commit -qm "$m@${base[$id]}"
	tree "$hdir" "$r" "$m"
	git -C "$r" add -A -f
	git -C "$r" commit -qm "$m@${head[$id]}"

	# The new-side line ranges of the diff's hunks (3 lines of context, as
	# GitHub shows them): a finding gets a review comment only on them.
	git -C "$r" diff -U3 --no-color HEAD~1 HEAD | awk '
		/^\+\+\+ / { f = substr($2, 1, 2) == "b/" ? substr($2, 3) : $2; next }
		/^@@ / {
			split($3, a, ","); s = substr(a[1], 2) + 0; n = (a[2] == "" ? 1 : a[2] + 0)
			if (n > 0) printf "%s\t%d\t%d\n", f, s, s + n - 1
		}' >"$d/diff-hunks.tsv"
	# A line no finding matches keeps the file non-empty for the awk below.
	[[ -s "$d/diff-hunks.tsv" ]] || printf '\t0\t-1\n' >"$d/diff-hunks.tsv"

	start=$(date +%s.%N)
	set +e
	# shellcheck disable=SC2086 # REGRESS_PR_FLAGS is a list of flags
	(cd "$r" && GOFLAGS=-mod=mod "$il" pr -base HEAD~1 -format json -o "$d/report.json" -summary "$d/summary.md" -v ${REGRESS_PR_FLAGS:-}) >"$d/stdout.txt" 2>"$d/stderr.log"
	code=$?
	set -e
	end=$(date +%s.%N)
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }')

	if ! jq -e '.findings' "$d/report.json" >/dev/null 2>&1; then
		printf '%s\tERROR\tno report\t-\t-\t-\t-\t%s\t%s\n' "$id" "$wall" "$code" >>"$out/results.tsv"
		printf '%-20s ERROR: interleave pr exited %d without a report after %ss; last lines of %s:\n' "$id" "$code" "$wall" "$d/stderr.log"
		tail -n 5 "$d/stderr.log" | sed 's/^/    /'
		status=2
		continue
	fi

	# One line per finding: fingerprint, file, line, rule (kind for dynamic).
	jq -r '.findings[] | [.fingerprint, .pos.file, (.pos.line // 0), (.rule + (if .kind then "/" + .kind else "" end))] | @tsv' "$d/report.json" >"$d/findings.tsv"
	nfind=$(wc -l <"$d/findings.tsv")
	ntests=$(jq '(.tests // []) | length' "$d/report.json")
	nsched=$(jq '[(.tests // [])[].schedules] | add // 0' "$d/report.json")
	# Caught: a finding whose primary location is one of the bug's files, on
	# a line of the diff's hunks (the changed code); "file" when such
	# findings are only elsewhere in the bug's files (likely another bug).
	# Rules are listed with the count of distinct fingerprints. Paths are
	# relative to the module root; an absolute one is made so.
	read -r caught rules < <(awk -F'\t' -v fs="${files[$id]}" -v root="$r/" '
		FNR == NR { lo[$1, ++k[$1]] = $2; hi[$1, k[$1]] = $3; next }
		FNR == 1 { n = split(fs, want, ",") }
		{
			f = $2
			if (substr(f, 1, length(root)) == root) f = substr(f, length(root) + 1)
			for (i = 1; i <= n; i++) if (f == want[i] && !(($1, $4) in seen)) {
				seen[$1, $4] = 1
				in_diff = 0
				for (j = 1; j <= k[f]; j++) if ($3 >= lo[f, j] && $3 <= hi[f, j]) in_diff = 1
				if (in_diff) hit[$4]++; else near[$4]++
				break
			}
		}
		END {
			for (r in hit) out = out (out == "" ? "" : ",") r " x" hit[r]
			for (r in near) out = out (out == "" ? "" : ",") r " x" near[r] " (outside the diff)"
			verdict = length(hit) > 0 ? "yes" : (length(near) > 0 ? "file" : "no")
			print verdict, (out == "" ? "-" : out)
		}' "$d/diff-hunks.tsv" "$d/findings.tsv")
	# Comments: distinct fingerprints on a line of a hunk, at most 30 (the
	# per-review limit of report/github; the rest go to the review body).
	comments=$(awk -F'\t' -v root="$r/" '
		FNR == NR { lo[$1, ++k[$1]] = $2; hi[$1, k[$1]] = $3; next }
		!($1 in seen) {
			seen[$1] = 1
			f = $2
			if (substr(f, 1, length(root)) == root) f = substr(f, length(root) + 1)
			for (i = 1; i <= k[f]; i++) if ($3 >= lo[f, i] && $3 <= hi[f, i]) { c++; break }
		}
		END { print (c > 30 ? 30 : c + 0) }' "$d/diff-hunks.tsv" "$d/findings.tsv")
	printf '%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%d\n' "$id" "$caught" "$rules" "$nfind" "$comments" "$ntests" "$nsched" "$wall" "$code" >>"$out/results.tsv"
	printf '%-20s caught=%-3s %s findings=%d comments=%d tests=%d schedules=%d wall=%ss exit=%d\n' \
		"$id" "$caught" "$([[ $rules != - ]] && echo "($rules)")" "$nfind" "$comments" "$ntests" "$nsched" "$wall" "$code"
done
echo "raw outputs: $out (summary: $out/results.tsv)" >&2
exit "$status"
}

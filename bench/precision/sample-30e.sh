#!/usr/bin/env bash
# sample-30e.sh reproduces the finding lists of the precision sample
# 2026-11-30e (issue 24): the modules of
# bench/precision/sample-2026-11-30e/list.md in order (chosen by RULE.md
# there), each with the package patterns its row fixes. Each module is
# fetched through the Go module proxy; the non-test Go lines of its
# checked packages (vendor/ and testdata/ excluded; a "." pattern counts
# its directory only, "./x/..." the subtree) and those that call a lock
# or an atomic (.Lock(), .RLock(), .TryLock(), atomic.F(...), a typed
# atomic's or sync.Map's .Load( .Store( .Swap( .CompareAndSwap() are
# counted; over 60,000 lines or fewer than 5 such lines is skipped
# (RULE.md step 3). The others are checked:
# `interleave check -format json PATTERNS` at default settings under
# nice -n 10, LIMIT seconds (default 600) each, one at a time; then, if it
# finished, `-enable IL1008,IL1009` on the same tree (go vet's cached
# results replayed; findings-optin.json), same limit. CPU seconds (user+sys
# of the check and its children) go to counts.tsv next to the wall time. No module
# is started from STOP (HH:MM UTC) on, nor once the triaged default
# findings so far (at most 15 a module) reach 60 (RULE.md step 4).
#
# Usage: BIN=/tmp/sample18-bin/interleave BIN_COMMIT=<commit> \
#   bench/precision/sample-30e.sh run       # FROM=N starts at row N
#        bench/precision/sample-30e.sh render  # findings-<module>.txt, optin-<module>.txt
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
here="$repo/bench/precision/sample-${SAMPLE:-2026-11-30e}" # sample-30f.sh sets SAMPLE
LIST="${LIST:-$here/list.md}" # sample-30g.sh sets LIST
LIMIT="${LIMIT:-600}"
STOP="${STOP:-12:55}"
OUT="${OUT:-/tmp/sample18-run}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
mapfile -t rows < <(sed -n 's/^| [0-9]* | \([^ |]*@[^ |]*\) | \(.*\) |$/\1\t\2/p' "$LIST")
counts="$here/counts.tsv"

fmt='.findings[]? | "\(.pos.file):\(.pos.line):\(.pos.column): \(.rule) \(.message)" + ([.related[]? | "\n\t\(.file):\(.line):\(.column): \(.message)"] | join("")) + ([.sameCause[]? | "\n\tsame cause: \(tojson)"] | join(""))'
render() {
	# findings-<module>.txt: each default finding with its related positions;
	# optin-<module>.txt: the IL1008 and IL1009 findings of the second run.
	for d in "$OUT"/*/; do
		[ -e "$d/findings.json" ] || continue
		name="$(basename "$d")"
		jq -r "$fmt" "$d/findings.json" >"$here/findings-$name.txt"
		[ -e "$d/findings-optin.json" ] || continue
		jq -r '.findings |= map(select(.rule == "IL1008" or .rule == "IL1009")) | '"$fmt" "$d/findings-optin.json" >"$here/optin-$name.txt"
	done
}

# cpu FILE writes the user+sys seconds of this shell's reaped children so
# far (times runs in this shell: a command substitution would fork).
cpu() {
	times >"$1"
	awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1" >"$1.s"
}

# check OUT ARGS... runs the check in $res/src with the limit; sets status.
check() {
	local out="$1"
	shift
	status=0
	# A session of its own, so the watchdog stops go vet's workers too.
	(cd "$res/src" && GOWORK=off GOFLAGS=-mod=mod exec setsid nice -n 10 "$OUT/interleave" check -format json -o "$res/$out.json" "$@" $pats 2>"$res/$out.stderr") &
	pid=$!
	rm -f "$res/timedout"
	(for ((t = 0; t < LIMIT; t++)); do sleep 1; kill -0 "$pid" 2>/dev/null || exit 0; done
		touch "$res/timedout"; kill -TERM -- "-$pid" 2>/dev/null; sleep 10; kill -KILL -- "-$pid" 2>/dev/null) &
	wd=$!
	wait "$pid" || status=$?
	wait "$wd" || true
	[ -e "$res/timedout" ] && status=timeout
	return 0
}

case "${1:-run}" in
render) render; exit 0 ;;
run) ;;
*) echo "usage: sample-30e.sh run|render" >&2; exit 2 ;;
esac
[ -n "${BIN:-}" ] && [ -n "${BIN_COMMIT:-}" ] || { echo "BIN and BIN_COMMIT are needed" >&2; exit 2; }
cp "$BIN" "$OUT/interleave"
echo "$BIN_COMMIT" >"$OUT/commit"
[ -n "${FROM:-}" ] || : >"$counts"
for ((i = ${FROM:-1} - 1; i < ${#rows[@]}; i++)); do
	mv="${rows[i]%%$'\t'*}"
	pats="${rows[i]#*$'\t'}"
	name="${mv//\//_}"
	res="$OUT/$name"
	now="$(date -u +%H:%M)"
	total="$(awk -F'\t' '$2 == "checked" && $6 ~ /^[0-9]+$/ {t += ($6 > 15 ? 15 : $6)} END {print t + 0}' "$counts")"
	if [[ "$now" > "$STOP" || "$now" == "$STOP" ]] || [ "$total" -ge 60 ]; then
		printf '%s\tnot-started\t\t\t\t\t%s\n' "$mv" "$now" >>"$counts"
		continue
	fi
	echo "== $((i + 1)) $mv $(date -u +%H:%M:%S)" >&2
	rm -rf "$res"
	mkdir -p "$res"
	dir="$(cd "$OUT" && GOFLAGS=-mod=mod timeout 300 go mod download -json "$mv" 2>/dev/null | jq -r .Dir)" || dir=
	if [ -z "$dir" ] || [ "$dir" = null ]; then
		printf '%s\tdownload-failed\t\t\t\t\t%s\n' "$mv" "$now" >>"$counts"
		continue
	fi
	cp -r "$dir" "$res/src"
	chmod -R u+w "$res/src"
	# Count the checked packages' lines.
	files=()
	for p in $pats; do
		case "$p" in
		*/...) d="$res/src/${p%/...}"; mapfile -t -O "${#files[@]}" files < <(find "$d" \( -name vendor -o -name testdata \) -prune -o -name '*.go' ! -name '*_test.go' -type f -print) ;;
		*) d="$res/src/$p"; mapfile -t -O "${#files[@]}" files < <(find "$d" -maxdepth 1 -name '*.go' ! -name '*_test.go' -type f -print) ;;
		esac
	done
	read -r n lines < <(cat /dev/null "${files[@]}" | awk '/\.(R|Try|TryR)?Lock\(\)|atomic\.[A-Z][A-Za-z0-9]*\(|\.(Load|Store|Swap|CompareAndSwap)\(/ {n++} {l++} END {print n+0, l+0}')
	if [ "$lines" -gt 60000 ] || [ "$n" -lt 5 ]; then
		printf '%s\tskipped\t%s\t%s\t\t\t%s\n' "$mv" "$n" "$lines" "$now" >>"$counts"
		echo "   skipped ($n lock/atomic call lines, $lines lines)" >&2
		continue
	fi
	# A zip without go.mod (a module from before modules): the module line
	# and its requirements, as `go mod init` and `go mod tidy` make them.
	(cd "$res/src" && {
		if [ ! -e go.mod ]; then GOFLAGS=-mod=mod go mod init "${mv%@*}" >/dev/null 2>&1; fi
		for r in $(sed -n 's#^[[:space:]]*\(replace[[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\)\([[:space:]]v[^[:space:]]*\)\{0,1\}[[:space:]]*=>[[:space:]]*\.\{1,2\}/.*#\2#p' go.mod); do
			go mod edit -dropreplace="$r"
		done
		GOFLAGS=-mod=mod timeout 300 go mod download all >/dev/null 2>&1 || GOFLAGS=-mod=mod timeout 300 go mod tidy >/dev/null 2>&1 || true
	})
	echo "interleave check -format json -o findings.json $pats" >"$res/command"
	start=$SECONDS
	cpu "$res/cpu0"
	check findings
	secs=$((SECONDS - start))
	cpu "$res/cpu1"
	cpus="$(awk -v a="$(cat "$res/cpu0.s")" -v b="$(cat "$res/cpu1.s")" 'BEGIN {printf "%.0f", b - a}')"
	echo "$status" >"$res/exit"
	echo "$secs" >"$res/seconds"
	nf=
	case $status in
	0 | 1) nf="$(jq '[.findings[]?] | length' "$res/findings.json")" ;;
	esac
	# The opt-in guard rules, only where the default check finished.
	ostatus=
	no=
	osecs=
	case $status in
	0 | 1)
		start=$SECONDS
		check findings-optin -enable IL1008,IL1009
		ostatus=$status
		osecs=$((SECONDS - start))
		case $ostatus in
		0 | 1) no="$(jq '[.findings[]? | select(.rule == "IL1008" or .rule == "IL1009")] | length' "$res/findings-optin.json")" ;;
		esac
		;;
	esac
	printf '%s\tchecked\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mv" "$n" "$lines" "$(cat "$res/exit")" "$nf" "$now" "$secs" "$cpus" "$ostatus" "$no" "$osecs" >>"$counts"
	echo "   exit $(cat "$res/exit"), ${nf:-no} findings in ${secs}s (${cpus} CPU s); opt-in exit ${ostatus:--}, ${no:-no} IL1008/IL1009 in ${osecs:--}s" >&2
	render
done

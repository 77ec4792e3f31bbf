#!/usr/bin/env bash
# sample-a.sh reproduces the finding list of the precision sample
# 2026-11-30a (issue 24): the modules of
# bench/precision/sample-2026-11-30a/list.md in order (chosen by RULE.md
# there). Each is fetched through the Go module proxy and counted (non-test
# Go lines, lines naming sync.Mutex/RWMutex or atomic.); one over 60,000
# lines or with fewer than 3 such lines is skipped (RULE.md step 3). The
# others are checked by sample.sh at default settings, 300 s limit each,
# none started from STOP (HH:MM UTC) on. FROM=N starts at row N of
# list.md and appends to counts.tsv.
#
# Usage: BIN=/tmp/sample-a-bin/interleave BIN_COMMIT=e980e60... \
#   bench/precision/sample-a.sh run
#        bench/precision/sample-a.sh packets
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
here="$repo/bench/precision/sample-2026-11-30a"
export LIST="$here/list.md"
export TIMEOUT="${TIMEOUT:-300}"
export STOP="${STOP:-00:55}"
export OUT="${OUT:-/tmp/sample-a-run}"
export PACKETS="${PACKETS:-$here}"
mapfile -t mods < <(sed -n 's/^| [0-9]* | \([^ |]*@[^ |]*\) |.*/\1/p' "$LIST")
case "${1:-run}" in
packets)
	# Only the modules that were checked.
	ran=()
	for mv in "${mods[@]}"; do [ -e "$OUT/${mv//\//_}/exit" ] && ran+=("$mv"); done
	exec "$repo/bench/precision/sample.sh" packets "${ran[@]}" ;;
run) ;;
*) echo "usage: sample-a.sh run|packets" >&2; exit 2 ;;
esac
mkdir -p "$OUT"
counts="$here/counts.tsv"
[ -n "${FROM:-}" ] || : >"$counts"
for ((i = ${FROM:-1} - 1; i < ${#mods[@]}; i++)); do
	mv="${mods[i]}"
	if [[ "$(date -u +%H:%M)" > "$STOP" || "$(date -u +%H:%M)" == "$STOP" ]]; then
		printf '%s\tnot-started\t\t\n' "$mv" >>"$counts"
		continue
	fi
	dir="$(cd "$OUT" && GOFLAGS=-mod=mod go mod download -json "$mv" 2>/dev/null | jq -r .Dir)" || dir=
	if [ -z "$dir" ] || [ "$dir" = null ]; then
		printf '%s\tdownload-failed\t\t\n' "$mv" >>"$counts"
		continue
	fi
	read -r n lines < <(find "$dir" \( -name vendor -o -name testdata \) -prune -o -name '*.go' ! -name '*_test.go' -type f -print0 |
		xargs -0 cat | awk '/sync\.(RW)?Mutex|atomic\./ {n++} {l++} END {print n+0, l+0}')
	if [ "$lines" -gt 60000 ] || [ "$n" -lt 3 ]; then
		printf '%s\tskipped\t%s\t%s\n' "$mv" "$n" "$lines" >>"$counts"
		echo "== $mv skipped ($n sync/atomic lines, $lines lines)" >&2
		continue
	fi
	printf '%s\tchecked\t%s\t%s\n' "$mv" "$n" "$lines" >>"$counts"
	"$repo/bench/precision/sample.sh" run "$mv"
done

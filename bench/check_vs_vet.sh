#!/usr/bin/env bash
# check_vs_vet.sh times interleave check against go vet on one large,
# concurrency-heavy module fetched from the Go module proxy.
#
# Usage: bench/check_vs_vet.sh [MODULE@VERSION] [PACKAGES]
#
#   MODULE@VERSION  default github.com/nats-io/nats-server/v2@v2.15.2
#   PACKAGES        default ./... (relative to the module root)
#
# Environment:
#   ROUNDS=N        rounds to run (default 3); the figures are the medians
#   WARM_RUNS=N     warm runs per tool and round (default 5), median taken
#   VETTOOL=1       also time go vet -vettool=interleave-vet
#
# Each round runs the tools back to back (the CPU may be shared, so a round
# sees one load level): cold (empty GOCACHE: the standard library and every
# dependency type-checked and, for a vet tool with facts, analyzed for
# facts), then warm (same cache again, WARM_RUNS times each). interleave
# check drives its passes through go vet -vettool (itself), so it caches
# its results like go vet does. Prints each round, then the medians and
# the median of the per-round ratios check/vet.
#
# Memory: each cold run is measured by bench/peakrss, which samples the
# whole process tree (go vet runs its vet tool, and interleave check runs
# go vet, as child processes): "tree" is the largest sum of the tree's
# resident sets at one moment, "proc" the largest peak RSS of any single
# process (for interleave check, the vet tool on the largest package).
# Their medians and the ratios check/vet are printed with the times.
set -euo pipefail

module="${1:-github.com/nats-io/nats-server/v2@v2.15.2}"
pkgs="${2:-./...}"
rounds="${ROUNDS:-3}"
warm_runs="${WARM_RUNS:-5}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/interleave-bench.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

tools=(vet check)
if [[ "${VETTOOL:-}" == 1 ]]; then
	tools=(vet vettool check)
fi

echo "building interleave and interleave-vet" >&2
(cd "$repo" && go build -o "$work/bin/interleave" ./cmd/interleave && go build -o "$work/bin/interleave-vet" ./cmd/interleave-vet && go build -o "$work/bin/peakrss" ./bench/peakrss)

echo "downloading $module" >&2
dir="$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [[ -z "$dir" || ! -d "$dir" ]]; then
	echo "check_vs_vet: go mod download $module did not report a directory" >&2
	exit 2
fi
# The module cache copy is read-only and may lack go.sum entries for test
# dependencies; analyze a writable copy.
cp -r "$dir" "$work/src"
chmod -R u+w "$work/src"
cd "$work/src"
echo "fetching dependencies of $pkgs" >&2
GOFLAGS=-mod=mod go list -test -deps "$pkgs" >/dev/null

export GOFLAGS=-mod=mod
npkgs="$(go list "$pkgs" | wc -l)"

# seconds CMD... runs CMD, prints its wall time in seconds; exit status 1
# (findings) counts as success. With RSS_OUT set, the run is measured by
# peakrss, which writes its figures there.
seconds() {
	local start end status=0
	local wrap=()
	if [[ -n "${RSS_OUT:-}" ]]; then
		wrap=("$work/bin/peakrss" -o "$RSS_OUT" --)
	fi
	start="$(date +%s.%N)"
	"${wrap[@]}" "$@" >/dev/null 2>"$work/last.err" || status=$?
	end="$(date +%s.%N)"
	if ((status > 1)); then
		echo "check_vs_vet: $* exited $status:" >&2
		tail -20 "$work/last.err" >&2
		exit 2
	fi
	echo "$end - $start" | bc
}

# median N... prints the median of its arguments.
median() {
	printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# cmd_for TOOL sets cmd to the command line that times TOOL.
cmd_for() {
	case $1 in
	vet) cmd=(go vet "$pkgs") ;;
	vettool) cmd=(go vet -vettool="$work/bin/interleave-vet" "$pkgs") ;;
	check) cmd=("$work/bin/interleave" check -format json -o "$work/check.json" "$pkgs") ;;
	esac
}

# rss FILE KEY prints KEY's value in MB from a peakrss output file.
rss() {
	sed -n "s/.*$2=\([0-9]*\).*/\1/p" "$1" | awk '{printf "%.0f", $1 / 1024}'
}

declare -A cold warm tree proc
cold_ratios=()
warm_ratios=()
tree_ratios=()
proc_ratios=()
printf '%s, %s packages, %s, %d CPUs, %s\n' "$module" "$npkgs" "$(go version | cut -d' ' -f3)" "$(nproc)" "$(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-6s %-10s %10s %10s %12s %12s %8s\n' round tool "cold (s)" "warm (s)" "tree (MB)" "proc (MB)" load
for ((r = 1; r <= rounds; r++)); do
	declare -A c=() w=() t=() p=()
	# Cold: each tool with its own empty cache, back to back, the order
	# reversed every other round.
	order=("${tools[@]}")
	if ((r % 2 == 0)); then
		order=()
		for ((i = ${#tools[@]} - 1; i >= 0; i--)); do order+=("${tools[i]}"); done
	fi
	for tool in "${order[@]}"; do
		cmd_for "$tool"
		echo "round $r: timing $tool cold" >&2
		export GOCACHE="$work/cache-$tool"
		c[$tool]="$(RSS_OUT="$work/rss-$tool" seconds "${cmd[@]}")"
		t[$tool]="$(rss "$work/rss-$tool" tree_peak_kb)"
		p[$tool]="$(rss "$work/rss-$tool" proc_peak_kb)"
	done
	# Warm: sub-second runs are noisy on a shared machine, so take the
	# median of $warm_runs runs, the tools alternating.
	declare -A samples=()
	for ((i = 0; i < warm_runs; i++)); do
		for tool in "${tools[@]}"; do
			cmd_for "$tool"
			export GOCACHE="$work/cache-$tool"
			samples[$tool]+="$(seconds "${cmd[@]}") "
		done
	done
	for tool in "${tools[@]}"; do
		w[$tool]="$(median ${samples[$tool]})"
		cold[$tool]+="${c[$tool]} "
		warm[$tool]+="${w[$tool]} "
		tree[$tool]+="${t[$tool]} "
		proc[$tool]+="${p[$tool]} "
		printf '%-6s %-10s %10.2f %10.2f %12s %12s %8s\n' "$r" "$tool" "${c[$tool]}" "${w[$tool]}" "${t[$tool]}" "${p[$tool]}" "$(cut -d' ' -f1 /proc/loadavg)"
		rm -rf "$work/cache-$tool"
	done
	cold_ratios+=("$(echo "${c[check]} / ${c[vet]}" | bc -l)")
	warm_ratios+=("$(echo "${w[check]} / ${w[vet]}" | bc -l)")
	tree_ratios+=("$(echo "${t[check]} / ${t[vet]}" | bc -l)")
	proc_ratios+=("$(echo "${p[check]} / ${p[vet]}" | bc -l)")
done

printf '\nmedians over %d rounds\n' "$rounds"
printf '%-32s %10s %10s %12s %12s\n' "" "cold (s)" "warm (s)" "tree (MB)" "proc (MB)"
for tool in "${tools[@]}"; do
	case $tool in
	vet) label="go vet" ;;
	vettool) label="go vet -vettool=interleave-vet" ;;
	check) label="interleave check" ;;
	esac
	printf '%-32s %10.2f %10.2f %12.0f %12.0f\n' "$label" "$(median ${cold[$tool]})" "$(median ${warm[$tool]})" "$(median ${tree[$tool]})" "$(median ${proc[$tool]})"
done
printf 'ratio check/vet (median of the rounds): cold %.2fx, warm %.2fx\n' "$(median "${cold_ratios[@]}")" "$(median "${warm_ratios[@]}")"
printf 'peak RSS ratio check/vet, cold (median of the rounds): tree %.2fx, largest process %.2fx\n' "$(median "${tree_ratios[@]}")" "$(median "${proc_ratios[@]}")"
findings="$(grep -o '"total": [0-9]*' "$work/check.json" | grep -o '[0-9]*$' || echo "?")"
printf 'interleave check findings: %s\n' "$findings"

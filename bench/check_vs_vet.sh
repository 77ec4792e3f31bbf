#!/usr/bin/env bash
# check_vs_vet.sh times interleave check against go vet on one large,
# concurrency-heavy module fetched from the Go module proxy.
#
# Usage: bench/check_vs_vet.sh [MODULE@VERSION] [PACKAGES]
#
#   MODULE@VERSION  default github.com/nats-io/nats-server/v2@v2.15.2
#   PACKAGES        default ./... (relative to the module root)
#
# For each of go vet, go vet -vettool=interleave-vet and interleave check it
# measures a cold run (empty GOCACHE: dependencies compiled for export data,
# which every tool needs) and a warm run (same cache again). go vet caches
# its own results, so its warm figure is a cache hit; interleave check
# re-analyzes every time. Prints the wall times and the ratios.
set -euo pipefail

module="${1:-github.com/nats-io/nats-server/v2@v2.15.2}"
pkgs="${2:-./...}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/interleave-bench.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

echo "building interleave and interleave-vet" >&2
(cd "$repo" && go build -o "$work/bin/interleave" ./cmd/interleave && go build -o "$work/bin/interleave-vet" ./cmd/interleave-vet)

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
# (findings) counts as success.
seconds() {
	local start end status=0
	start="$(date +%s.%N)"
	"$@" >/dev/null 2>"$work/last.err" || status=$?
	end="$(date +%s.%N)"
	if ((status > 1)); then
		echo "check_vs_vet: $* exited $status:" >&2
		tail -20 "$work/last.err" >&2
		exit 2
	fi
	echo "$end - $start" | bc
}

declare -A cold warm
for tool in vet vettool check; do
	case $tool in
	vet) cmd=(go vet "$pkgs") ;;
	vettool) cmd=(go vet -vettool="$work/bin/interleave-vet" "$pkgs") ;;
	check) cmd=("$work/bin/interleave" check -format json -o "$work/check.json" "$pkgs") ;;
	esac
	export GOCACHE="$work/cache-$tool"
	echo "timing $tool (cold, then warm)" >&2
	cold[$tool]="$(seconds "${cmd[@]}")"
	warm[$tool]="$(seconds "${cmd[@]}")"
done

findings="$(grep -o '"total": [0-9]*' "$work/check.json" | grep -o '[0-9]*$' || echo "?")"
printf '%s, %s packages, %s (%d CPUs)\n' "$module" "$npkgs" "$(go version | cut -d' ' -f3)" "$(nproc)"
printf '%-32s %10s %10s\n' "" "cold (s)" "warm (s)"
printf '%-32s %10.2f %10.2f\n' "go vet" "${cold[vet]}" "${warm[vet]}"
printf '%-32s %10.2f %10.2f\n' "go vet -vettool=interleave-vet" "${cold[vettool]}" "${warm[vettool]}"
printf '%-32s %10.2f %10.2f\n' "interleave check" "${cold[check]}" "${warm[check]}"
printf 'ratio check/vet: cold %.2fx, warm %.2fx; check/vettool: cold %.2fx, warm %.2fx\n' \
	"$(echo "${cold[check]} / ${cold[vet]}" | bc -l)" "$(echo "${warm[check]} / ${warm[vet]}" | bc -l)" \
	"$(echo "${cold[check]} / ${cold[vettool]}" | bc -l)" "$(echo "${warm[check]} / ${warm[vettool]}" | bc -l)"
printf 'interleave check findings: %s\n' "$findings"

#!/usr/bin/env bash
# passcpu.sh prints the CPU time of each static pass on one large real
# package, next to go vet's on the same package.
#
# Usage: bench/passcpu.sh [-o DIR] [MODULE@VERSION PACKAGE]
#   default: github.com/nats-io/nats-server/v2@v2.15.2 ./server
#
# It copies the module from the Go module proxy into DIR (default
# $TMPDIR/interleave-passcpu), builds interleave from this tree, compiles
# the package's dependencies and computes their facts (not timed), then
# appends a fresh comment to one file of the package, so that go vet
# analyzes that package again and takes every dependency's results from
# the build cache, and runs, one after the other:
#
#   go vet -vettool=interleave -debug-actiongraph=il.json PACKAGE
#       with INTERLEAVE_VET_CPUPROFILE=DIR/prof: the vet tool's CPU
#       profile of the package, each pass's samples labelled;
#   go vet -debug-actiongraph=vet.json PACKAGE   (after another comment)
#
# and prints the CPU (user+sys) of the vet action on the package for
# both (from the action graphs), their ratio, and the CPU of each pass
# (go tool pprof -tags on the profile; prerequisites such as buildssa
# are passes too; what no pass label covers is parsing, type checking,
# the collector's background work and reading and writing facts). With a
# package with tests, go vet analyzes the package with its tests.
# Exit status 2 on a setup failure.
set -euo pipefail
{
die() {
	echo "passcpu: $*" >&2
	exit 2
}
out="${TMPDIR:-/tmp}/interleave-passcpu"
if [[ "${1:-}" == -o ]]; then
	(($# >= 2)) || die "-o needs a directory"
	out="$2"
	shift 2
fi
case "${1:-}" in -h | -help | --help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
modver="${1:-github.com/nats-io/nats-server/v2@v2.15.2}"
pkg="${2:-./server}"
for tool in go jq; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed"
done
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
(cd "$root" && go build -o "$out/interleave" ./cmd/interleave) || die "go build ./cmd/interleave failed"
il="$out/interleave"

src="$out/src"
stamp="$src/.passcpu-$(echo "$modver" | tr '/@' '__')"
if [[ ! -f "$stamp" ]]; then
	tmp="$(mktemp -d)"
	dir="$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$modver" | jq -r '.Dir // empty')" || true
	rm -rf "$tmp"
	[[ -n "$dir" && -d "$dir" ]] || die "go mod download $modver failed"
	chmod -R u+w "$src" 2>/dev/null || true
	rm -rf "$src"
	cp -r "$dir" "$src"
	chmod -R u+w "$src"
	touch "$stamp"
fi
cd "$src"
export GOFLAGS=-mod=mod
path="$(go list "$pkg")" || die "go list $pkg failed"
file="$(go list -f '{{.Dir}}/{{index .GoFiles 0}}' "$pkg")"
echo "compiling $path's dependencies and computing their facts (not timed)" >&2
go build "$pkg" || die "go build $pkg failed"
go vet "$pkg" >/dev/null 2>&1 || true
go vet -vettool="$il" "$pkg" >/dev/null 2>&1 || true

# vetcpu GRAPH prints the CPU seconds (user+sys) of the vet actions on
# the package (the package itself and its test variant).
vetcpu() {
	jq --arg p "$path" '[.[] | select(.Mode == "vet" and (.Package == $p or (.Package | startswith($p + " ")))) | ((.CmdUser // 0) + (.CmdSys // 0))] | add / 1e9' "$1"
}
prof="$out/prof"
rm -rf "$prof"
mkdir -p "$prof"
echo "// passcpu $(date +%s%N)" >>"$file"
echo "go vet -vettool=interleave $pkg" >&2
INTERLEAVE_VET_CPUPROFILE="$prof" go vet -vettool="$il" -debug-actiongraph="$out/il.json" "$pkg" >/dev/null 2>&1 || true
echo "// passcpu $(date +%s%N)" >>"$file"
echo "go vet $pkg" >&2
go vet -debug-actiongraph="$out/vet.json" "$pkg" >/dev/null 2>&1 || true
ilcpu="$(vetcpu "$out/il.json")"
vcpu="$(vetcpu "$out/vet.json")"
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "interleave: $(git -C "$root" rev-parse --short HEAD 2>/dev/null)$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (uncommitted changes)')"
	echo "$(go version), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "package: $path ($modver)"
	printf 'vet action CPU: interleave %.1fs, go vet %.1fs, ratio %.2fx\n' "$ilcpu" "$vcpu" "$(echo "$ilcpu / $vcpu" | bc -l)"
	echo "per pass (CPU profile of the interleave vet action):"
	for p in "$prof"/*.pprof; do
		go tool pprof -tags "$p" 2>/dev/null | sed -n '/pass:/,/^ *$/p'
	done
} | tee "$out/figures.txt"
}

#!/usr/bin/env bash
# largepair.sh runs the pull-request job on a real release pair of a large
# module and times its static stage next to go vet on the same packages.
#
# It makes a git repository whose first commit is BASE's tree and whose
# second is HEAD's (both from the Go module proxy, as bench/regressions/run.sh
# does), lists the packages with a changed .go file, and, with a fresh
# GOCACHE of its own:
#
#   1. go vet on the changed packages: it compiles every dependency (timed,
#      "compile+vet");
#   2. go vet -printf.funcs=<a new value> on them: a flag value go vet never
#      saw changes the key of every vet action and of no compile, so this is
#      go vet's analysis cold on compiled dependencies (as docs/stages.md);
#   3. interleave pr -base HEAD~1 -v with the default budget: its static
#      stage is interleave's analysis cold on the same compiled
#      dependencies; the stage times come from the log's "stages:" line;
#   4. both again, warm: the same go vet command, and interleave pr
#      -budget 0 (the next push of a pull request).
#
# It prints figures.txt: the pr's stages and exit code, and the static
# stage next to go vet, cold and warm.
#
# Usage: bench/largepair.sh [-o DIR] [-cache GOCACHE] [-budget B] [MODULE BASE HEAD]
#   default: github.com/prometheus/prometheus v0.315.1 v0.316.0
# DIR (default $TMPDIR/interleave-largepair) keeps the repository, the
# logs and figures.txt. -cache uses GOCACHE as the build cache and keeps
# it (a second run then compiles nothing; the analyses are still cold: a
# new -printf.funcs value, and a new interleave binary is a new vet key);
# without it the cache is DIR/gocache, emptied first. -budget is the first
# pr run's -budget (default: pr's default; 0 runs no dynamic search, for
# the static stage alone). The time(1) CPU (user+sys) of each go vet and
# pr run is in figures.txt too. Exit status 2 on a setup failure.
set -euo pipefail
{
die() {
	echo "largepair: $*" >&2
	exit 2
}
out="${TMPDIR:-/tmp}/interleave-largepair"
cache=""
budget=()
while [[ "${1:-}" == -o || "${1:-}" == -cache || "${1:-}" == -budget ]]; do
	(($# >= 2)) || die "$1 needs a value"
	case $1 in
	-o) out="$2" ;;
	-cache) cache="$2" ;;
	-budget) budget=(-budget "$2") ;;
	esac
	shift 2
done
case "${1:-}" in -h | -help | --help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
module="${1:-github.com/prometheus/prometheus}"
base="${2:-v0.315.1}"
head="${3:-v0.316.0}"
for tool in go git jq; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed"
done
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
il="$out/interleave"
(cd "$root" && go build -o "$il" ./cmd/interleave) || die "go build ./cmd/interleave failed"

download() {
	local tmp dir
	tmp="$(mktemp -d)"
	dir="$(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$1@$2" | jq -r '.Dir // empty')" || true
	rm -rf "$tmp"
	[[ -n "$dir" && -d "$dir" ]] || die "go mod download $1@$2 failed"
	echo "$dir"
}
tree() {
	find "$2" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
	cp -r "$1/." "$2/"
	chmod -R u+w "$2"
	(cd "$2" && GOWORK=off GOFLAGS=-mod=mod go mod download >/dev/null 2>&1) || true
}
bdir="$(download "$module" "$base")"
hdir="$(download "$module" "$head")"
r="$out/repo"
chmod -R u+w "$r" 2>/dev/null || true
rm -rf "$r"
mkdir -p "$r"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git -C "$r" init -q
tree "$bdir" "$r"
git -C "$r" add -A -f
git -C "$r" commit -qm "$module@$base"
tree "$hdir" "$r"
git -C "$r" add -A -f
git -C "$r" commit -qm "$module@$head"
cd "$r"
# The module zip has the go.work of the repository but not the other
# modules it lists: the module alone, as published.
export GOFLAGS=-mod=mod GOWORK=off
# The changed packages: directories of changed .go files that are packages
# of the head (a deleted directory is none).
mapfile -t dirs < <(git diff --name-only HEAD~1 HEAD -- '*.go' | xargs -n1 dirname | sort -u)
pkgs=()
for d in "${dirs[@]}"; do
	[[ -d "$d" ]] && go list "./$d" >/dev/null 2>&1 && pkgs+=("./$d")
done
((${#pkgs[@]} > 0)) || die "no changed package"
printf '%s\n' "${pkgs[@]}" >"$out/packages.txt"
if [[ -n "$cache" ]]; then
	mkdir -p "$cache"
	export GOCACHE="$(cd "$cache" && pwd)"
else
	export GOCACHE="$out/gocache"
	rm -rf "$GOCACHE"
fi

# secs NAME CMD... runs CMD, prints its wall seconds and writes its CPU
# seconds (user+sys, children included) to $out/NAME.cpu.
secs() {
	local name=$1 s e
	shift
	s=$(date +%s.%N)
	/usr/bin/time -f '%U %S' -o "$out/$name.time" "$@" || true
	e=$(date +%s.%N)
	awk '$1 ~ /^[0-9.]+$/ { printf "%.1f", $1 + $2 }' "$out/$name.time" >"$out/$name.cpu"
	awk -v a="$s" -v b="$e" 'BEGIN { printf "%.1f", b - a }'
}
cpu() { cat "$out/$1.cpu" 2>/dev/null || echo "?"; }
stagem() { # stagem LOG NAME: NAME's seconds from the log's "stages:" line (2m3.4s, 5.1s, 80ms)
	sed -n 's/.*stages: //p' "$1" | tr ',' '\n' | sed -n "s/^ *$2 //p" |
		awk '{ t = $1; s = 0
			if (t ~ /ms$/) { sub(/ms$/, "", t); printf "%.1f", t / 1000; next }
			if (t ~ /m/) { split(t, a, "m"); s = a[1] * 60; t = a[2] }
			sub(/s$/, "", t); printf "%.1f", s + t }'
}

echo "go vet (compiles the dependencies) on ${#pkgs[@]} packages" >&2
vet_compile=$(secs vet-compile go vet "${pkgs[@]}" 2>"$out/vet-compile.log")
funcs="-printf.funcs=largepair$(date +%s%N)"
echo "go vet $funcs (analysis cold)" >&2
vet_cold=$(secs vet-cold go vet "$funcs" "${pkgs[@]}" 2>"$out/vet-cold.log")
echo "interleave pr ${budget[*]:-(default budget)}" >&2
pr_start=$(date +%s.%N)
set +e
/usr/bin/time -f '%U %S' -o "$out/pr.time" "$il" pr -base HEAD~1 "${budget[@]}" -format json -o "$out/report.json" -summary "$out/summary.md" -v >"$out/pr.stdout" 2>"$out/pr.log"
code=$?
set -e
pr_wall=$(awk -v a="$pr_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
awk '$1 ~ /^[0-9.]+$/ { printf "%.1f", $1 + $2 }' "$out/pr.time" >"$out/pr.cpu"
echo "warm: go vet, then interleave pr -budget 0 (static stage only)" >&2
vet_warm=$(secs vet-warm go vet "$funcs" "${pkgs[@]}" 2>"$out/vet-warm.log")
secs pr-warm "$il" pr -base HEAD~1 -budget 0 -format json -o "$out/report-warm.json" -v >/dev/null 2>"$out/pr-warm.log"
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "interleave: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (uncommitted changes)')"
	echo "$(go version), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "pair: $module $base -> $head, ${#pkgs[@]} changed packages ($(git diff --shortstat HEAD~1 HEAD))"
	echo "interleave pr exit $code, wall ${pr_wall}s"
	echo "pr stages: $(sed -n 's/.*stages: //p' "$out/pr.log")"
	echo "go vet compiling the dependencies: ${vet_compile}s"
	echo "static stage cold: $(stagem "$out/pr.log" static)s  go vet cold: ${vet_cold}s (CPU $(cpu vet-cold)s)"
	echo "static stage warm: $(stagem "$out/pr-warm.log" static)s  go vet warm: ${vet_warm}s (CPU $(cpu vet-warm)s)"
	echo "CPU (user+sys) of the whole pr runs: cold $(cpu pr)s$([[ ${#budget[@]} -gt 0 ]] || echo ' (with its dynamic stages)'), warm (-budget 0) $(cpu pr-warm)s"
	echo "packages analyzed: $(jq '(.static.packages // []) | length' "$out/report.json" 2>/dev/null || echo ?)"
} | tee "$out/figures.txt"
}

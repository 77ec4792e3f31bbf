#!/usr/bin/env bash
# precision.sh runs interleave check on real modules from the Go module proxy
# and keeps the JSON reports for triage into docs/precision.md.
#
# Usage: scripts/precision.sh MODULE[@VERSION]...
#
# Each module is downloaded (go mod download -json), copied out of the
# read-only module cache, and analyzed with
#     interleave check -format json -enable all ./...
# Reports go to $OUT (default: a new temp dir), one <module>@<version>.json
# per module plus its .stderr; a per-rule count is printed at the end.
# A module that does not load is recorded and skipped, not fatal.
# FLAGS (default "-enable all") replaces the rule selection, e.g.
# FLAGS="-disable all -enable IL6001,IL6002" to measure a few rules faster.
# PATTERNS (default ./...) narrows the packages analyzed, e.g.
# PATTERNS="./server/..." for a large module; the wall time of each run is
# printed with its finding count.
set -euo pipefail

if (($# == 0)); then
	echo "usage: scripts/precision.sh MODULE[@VERSION]..." >&2
	exit 2
fi
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/interleave-precision.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
out="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/interleave-precision-out.XXXXXX")}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

(cd "$repo" && go build -o "$work/interleave" ./cmd/interleave)

for arg in "$@"; do
	[[ "$arg" == *@* ]] || arg="$arg@latest"
	echo "== $arg" >&2
	json="$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "$arg" 2>&1)" || {
		echo "   download failed: $json" >&2
		continue
	}
	dir="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"$json")"
	version="$(sed -n 's/^[[:space:]]*"Version": "\(.*\)",$/\1/p' <<<"$json")"
	name="${arg%@*}@$version"
	file="$out/${name//\//_}"
	src="$work/src-${name//\//_}"
	cp -r "$dir" "$src"
	chmod -R u+w "$src"
	# A module of a multi-module repository (etcd) replaces its siblings
	# with ../dirs its zip lacks: use their published versions instead.
	for r in $(sed -n 's#^[[:space:]]*\(replace[[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\)\([[:space:]]v[^[:space:]]*\)\{0,1\}[[:space:]]*=>[[:space:]]*\.\./.*#\2#p' "$src/go.mod"); do
		echo "   dropping local replace of $r" >&2
		(cd "$src" && go mod edit -dropreplace="$r")
	done
	status=0
	start=$SECONDS
	# shellcheck disable=SC2086 # FLAGS and PATTERNS are lists
	(cd "$src" && GOWORK=off GOFLAGS=-mod=mod "$work/interleave" check -format json ${FLAGS:--enable all} -o "$file.json" ${PATTERNS:-./...} 2>"$file.stderr") || status=$?
	case $status in
	0 | 1) echo "   $(grep -o '"total": [0-9]*' "$file.json" | grep -o '[0-9]*$') findings in $((SECONDS - start))s -> $file.json" >&2 ;;
	*) echo "   could not run (exit $status): see $file.stderr" >&2 ;;
	esac
done

echo
echo "reports in $out"
echo "findings per rule (all modules):"
cat "$out"/*.json 2>/dev/null | grep -o '"rule": "[A-Z0-9]*"' | sort | uniq -c | sort -rn || true

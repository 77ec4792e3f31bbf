#!/usr/bin/env bash
# pr_one_file.sh times interleave pr on a one-file change in a large module
# fetched from the Go module proxy: the stage timings (-v) and the wall time
# until the static results, with the dynamic search off (-budget 0).
#
# Usage: bench/pr_one_file.sh [MODULE@VERSION] [FILE]
#
#   MODULE@VERSION  default github.com/nats-io/nats-server/v2@v2.15.2
#   FILE            the file to change, relative to the module root
#                   (default server/client.go)
#
# The module is copied into a fresh git repository (one commit), FILE gets a
# new method-free function appended and is committed again, and
# interleave pr -base HEAD~1 runs twice: the first run fills the build and
# vet caches the way an earlier CI run or a developer's machine would, the
# second is the figure.
set -euo pipefail

module="${1:-github.com/nats-io/nats-server/v2@v2.15.2}"
file="${2:-server/client.go}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/interleave-prbench.XXXXXX")"
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

echo "building interleave" >&2
(cd "$repo" && go build -o "$work/interleave" ./cmd/interleave)

echo "downloading $module" >&2
dir="$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [[ -z "$dir" || ! -d "$dir" ]]; then
	echo "pr_one_file: go mod download $module did not report a directory" >&2
	exit 2
fi
cp -r "$dir" "$work/src"
chmod -R u+w "$work/src"
cd "$work/src"
if [[ ! -f "$file" ]]; then
	echo "pr_one_file: $file is not a file of $module" >&2
	exit 2
fi
export GOFLAGS=-mod=mod
go mod download >/dev/null 2>&1 || true
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
git init -q
git add -A
git commit -qm base
cat >>"$file" <<'EOF'

// interleaveBenchChange is the one-function change the benchmark adds.
func interleaveBenchChange(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
EOF
git commit -qam head

files=$(find . -name '*.go' | wc -l)
echo "module $module: $files Go files; change: one function appended to $file" >&2
for run in warm-up measured; do
	start=$(date +%s.%N)
	set +e
	"$work/interleave" pr -base HEAD~1 -budget 0 -v >"$work/out.txt" 2>"$work/err.txt"
	code=$?
	set -e
	end=$(date +%s.%N)
	if ((code == 2)); then
		echo "pr_one_file: interleave pr could not run:" >&2
		cat "$work/err.txt" >&2
		exit 2
	fi
	printf '%s run: %.1f s wall (exit %d)\n' "$run" "$(echo "$end - $start" | bc)" "$code"
done
echo "stage timings of the measured run (interleave pr -v):"
grep -E 'stages:|findings reported' "$work/err.txt"
echo "nproc $(nproc), $(date -u +%Y-%m-%d)"

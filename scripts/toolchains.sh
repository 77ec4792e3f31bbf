#!/usr/bin/env bash
# toolchains.sh checks that interleave works on a module whose Go release is
# not the one interleave was built with (the Go support policy: the two
# latest releases). For each direction it builds the explore package's tests
# with one toolchain, then runs TestKernels (every bug kernel found, its
# schedule replayed in a fresh process; no finding on the correct kernels)
# with the other selected through GOTOOLCHAIN, so that every go command the
# search runs (go list, go test -c -race) uses it.
#
# Usage: scripts/toolchains.sh [OTHER]   (OTHER default go1.27.3; the module
# proxy serves it as golang.org/toolchain)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
other=${1:-go1.27.3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The machine's toolchain, whatever go.env says.
local_version=$(GOTOOLCHAIN=local go env GOVERSION)

run() { # built-with runs-on
	local built=$1 on=$2 bin="$work/explore-$1.test"
	echo "== interleave built with $built, module on $on"
	GOTOOLCHAIN=$built go test -c -o "$bin" ./checks/dynamic/explore
	(
		cd "$root/checks/dynamic/explore"
		export GOTOOLCHAIN=$on
		echo "go in the kernel module: $(cd ../testdata/kernels && go env GOVERSION)"
		start=$(date +%s)
		set +e
		"$bin" -test.run '^TestKernels$' -test.v -test.timeout 30m >"$work/out" 2>&1
		code=$?
		set -e
		grep -E '^\s+kernels_test.go:[0-9]+: .*(found and replayed|not found|a known miss|replay|false positive)|^(---|===|ok|FAIL|PASS)|^\s+--- ' "$work/out" | grep -v '^=== RUN' || true
		echo "exit $code after $(($(date +%s) - start)) s"
		return $code
	)
}

status=0
run local "$other" || status=1
# GOTOOLCHAIN=local selects the machine's release explicitly.
run "$other" local || status=1
echo "(local is $local_version)"
exit $status

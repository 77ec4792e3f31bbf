#!/usr/bin/env bash
# toolchains.sh checks that interleave works on a module whose Go release is
# not the one interleave was built with (the Go support policy: the two
# latest releases). For each direction it builds interleave and the bug
# kernels' tests (checks/dynamic/explore/kerneltest) with one toolchain,
# then, with the other selected through GOTOOLCHAIN (so every go command
# interleave runs uses it):
#   - interleave check on examples/bank (the static passes);
#   - TestKernels: every bug kernel found and its schedule replayed in a
#     fresh process, no finding on the correct kernels.
#
# Usage: scripts/toolchains.sh [-once] [OTHER]
#   OTHER  the second toolchain (default go1.27.3; the module proxy serves
#          it as golang.org/toolchain)
#   -once  only interleave built with the machine's Go on a module on OTHER
#          (what .ci/run runs)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
once=false
if [[ ${1:-} == -once ]]; then
	once=true
	shift
fi
other=${1:-go1.27.3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The machine's toolchain, whatever go.env says.
local_version=$(GOTOOLCHAIN=local go env GOVERSION)

run() { # built-with runs-on
	local built=$1 on=$2
	local bin="$work/interleave-$built" tests="$work/kerneltest-$built.test"
	echo "== interleave built with $built ($(GOTOOLCHAIN=$built go env GOVERSION)), module on $on"
	GOTOOLCHAIN=$built go build -o "$bin" ./cmd/interleave
	GOTOOLCHAIN=$built go test -c -o "$tests" ./checks/dynamic/explore/kerneltest
	(
		export GOTOOLCHAIN=$on
		echo "go in the module: $(cd examples/bank && go env GOVERSION)"
		set +e
		out=$("$bin" -C examples/bank check ./... 2>&1)
		code=$?
		set -e
		printf '%s\n' "$out" | sed 's/^/check: /'
		if [[ $code != 1 ]] || ! grep -q 'IL2001' <<<"$out"; then
			echo "check: exit $code, want 1 with the IL2001 finding" >&2
			exit 1
		fi
		cd "$root/checks/dynamic/explore/kerneltest"
		start=$(date +%s)
		set +e
		"$tests" -test.run '^TestKernels$' -test.v -test.timeout 30m >"$work/out" 2>&1
		code=$?
		set -e
		grep -E 'found and replayed|not found|a known miss|replay|false positive|^(--- |    --- |ok|FAIL|PASS)' "$work/out" |
			sed "s#$root/##" || true
		echo "TestKernels: exit $code after $(($(date +%s) - start)) s"
		exit $code
	)
}

status=0
run local "$other" || status=1
if ! $once; then
	# GOTOOLCHAIN=local selects the machine's release.
	run "$other" local || status=1
fi
echo "(local is $local_version)"
exit $status

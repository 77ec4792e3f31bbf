#!/bin/sh
# Recall of `interleave check` on real concurrency bugs fixed upstream
# (bugs.tsv): downloads each pre-fix release from the module proxy, runs
# check on the package holding the bug with the default rules and with
# every rule, and prints which bugs a finding is at or names. See
# docs/staticbugs.md.
#
# Usage: bench/staticbugs/run.sh [-bugs FILE] [-run REGEXP] [-json FILE] [-work DIR] [-only IDS] [-confirm [-budget D]]
# -confirm also runs interleave pr on a change touching the buggy lines.
# Exit status: 0 measured, 1 a bug could not be measured, 2 bad input.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/runner" ./runner
# Not exec: go run would turn every failure into exit 1, and the trap
# removes the binary.
set +e
"$tmp/runner" "$@"
rc=$?
set -e
exit $rc

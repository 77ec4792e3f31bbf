#!/bin/sh
# Recall of `interleave check` on real concurrency bugs fixed upstream
# (bugs.tsv): downloads each pre-fix release from the module proxy, runs
# check on the package holding the bug with the default rules and with
# every rule, and prints which bugs a finding is at or names. See
# docs/staticbugs.md.
#
# Usage: bench/staticbugs/run.sh [-bugs FILE] [-run REGEXP] [-json FILE] [-work DIR]
set -eu
cd "$(dirname "$0")"
exec go run ./runner "$@"

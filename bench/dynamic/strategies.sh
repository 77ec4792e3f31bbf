#!/bin/sh
# Median schedules-to-bug of each scheduling strategy (random, pct, pos,
# portfolio) on the bug kernels, next to stress testing (go test -race
# -count=N) given the same wall time per kernel.
#
# Usage: bench/dynamic/strategies.sh [-bug-budget 2s] [-run TestName] [-strategies random,pct]
set -eu
cd "$(dirname "$0")/../.."
exec go run ./bench/dynamic -only strategies "$@"

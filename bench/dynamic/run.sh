#!/bin/sh
# Measures the controlled-concurrency search on the bug kernels:
# schedules/s under the scheduler versus the same test looping
# uninstrumented, and schedules-to-bug versus stress testing
# (go test -race -count=N) for the same wall time.
#
# Usage: bench/dynamic/run.sh [-bug-budget 3s] [-throughput-budget 3s] [-run TestName]
set -eu
cd "$(dirname "$0")/../.."
exec go run ./bench/dynamic "$@"

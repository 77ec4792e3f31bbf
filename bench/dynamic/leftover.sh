#!/bin/sh
# Schedules/s of a test whose background goroutine (a janitor on a ticker,
# never stopped) outlives every schedule, next to the same test without it
# (checks/dynamic/testdata/realsuite-drv/janitor), one worker each.
#
# Usage: bench/dynamic/leftover.sh [-throughput-budget 3s]
set -eu
cd "$(dirname "$0")/../.."
exec go run ./bench/dynamic -only leftover "$@"

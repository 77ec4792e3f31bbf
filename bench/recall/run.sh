#!/bin/sh
# Recall yardstick: runs interleave on every kernel under k/ (listed in
# kernels.json), replays each finding in a fresh process, and prints found /
# replayed / plain pass rate per kernel and per class, false alarms on the
# correct programs included. See docs/recall.md.
#
# Usage: bench/recall/run.sh [-budget 10s] [-count 20] [-j 1] [-run REGEXP] [-json FILE]
set -eu
cd "$(dirname "$0")"
exec go run ./runner "$@"

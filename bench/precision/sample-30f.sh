#!/usr/bin/env bash
# sample-30f.sh reproduces the finding lists of the precision sample
# 2026-11-30f (issue 24): sample-30e.sh's procedure on the modules of
# bench/precision/sample-2026-11-30f/list.md (chosen by RULE.md there),
# with that sample's stop time and output directory.
#
# Usage: BIN=/tmp/sample18-bin/interleave BIN_COMMIT=<commit> \
#   bench/precision/sample-30f.sh run|render
set -euo pipefail
SAMPLE=2026-11-30f STOP="${STOP:-13:12}" OUT="${OUT:-/tmp/sample18f-run}" \
	exec "$(dirname "$0")/sample-30e.sh" "$@"

#!/usr/bin/env bash
# sample-30h.sh reproduces the finding lists of the precision sample
# 2026-11-30h (issue 24 items 3-4): the opt-in guarded-by rules on packages
# of concurrent modules. `select` is sample-30g.sh's (the module's
# directories with at least 10 lock or atomic call lines, most first, at
# most 6 and 30,000 non-test lines) on sample-2026-11-30h/list.md; `run`
# and `render` are sample-30e.sh's procedure on packages.md with one check
# per module, `-enable IL1008,IL1009,IL1007,IL1001` (default rules plus
# those), this sample's stop time, limit and output directory.
#
# Usage: bench/precision/sample-30h.sh select
#        BIN=/tmp/sample20-bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-30h.sh run|render
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/sample-2026-11-30h"
case "${1:-}" in
run | render)
	SAMPLE=2026-11-30h LIST="$here/packages.md" STOP="${STOP:-19:00}" LIMIT="${LIMIT:-600}" \
		OUT="${OUT:-/tmp/sample20-run}" OPTIN= ENABLE=IL1008,IL1009,IL1007,IL1001 \
		exec "$(dirname "$0")/sample-30e.sh" "$@"
	;;
select) SAMPLE=2026-11-30h exec "$(dirname "$0")/sample-30g.sh" select ;;
*) echo "usage: sample-30h.sh select|run|render" >&2; exit 2 ;;
esac

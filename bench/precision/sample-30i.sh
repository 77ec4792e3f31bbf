#!/usr/bin/env bash
# sample-30i.sh reproduces the finding lists of the sample 2026-11-30i
# (issue 24 item 3: IL1008/IL1009 on modules chosen for them). `select` is
# sample-30g.sh's on sample-2026-11-30i/list.md; `run` and `render` are
# sample-30e.sh's procedure on packages.md with one check per module,
# `-enable IL1008,IL1009` (default rules plus those), this sample's stop
# time, limit and output directory.
#
# Usage: bench/precision/sample-30i.sh select
#        BIN=/tmp/precision21/bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-30i.sh run|render
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/sample-2026-11-30i"
case "${1:-}" in
run | render)
	SAMPLE=2026-11-30i LIST="$here/packages.md" STOP="${STOP:-22:15}" LIMIT="${LIMIT:-600}" \
		OUT="${OUT:-/tmp/precision21/s30i}" OPTIN= ENABLE=IL1008,IL1009 \
		exec "$(dirname "$0")/sample-30e.sh" "$@"
	;;
select) SAMPLE=2026-11-30i exec "$(dirname "$0")/sample-30g.sh" select ;;
*) echo "usage: sample-30i.sh select|run|render" >&2; exit 2 ;;
esac

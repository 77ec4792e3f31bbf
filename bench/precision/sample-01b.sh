#!/usr/bin/env bash
# sample-01b.sh reproduces the finding lists of the precision sample
# 2026-12-01b (issue 24 item 4): default rules only on packages of
# concurrent modules. `select` is sample-30g.sh's (the module's
# directories with at least 10 lock or atomic call lines, most first, at
# most 6 and 30,000 non-test lines) on sample-2026-12-01/list.md; `run`
# and `render` are sample-30e.sh's procedure on packages.md, default rules
# only (no opt-in run), this sample's stop time, limit and output
# directory, and no cut on the number of findings.
#
# Usage: GOMODCACHE=/tmp/sample28/modcache bench/precision/sample-01b.sh select
#        GOMODCACHE=/tmp/sample28/modcache BIN=/tmp/sample28/bin/interleave \
#          BIN_COMMIT=<commit> bench/precision/sample-01b.sh run|render
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/sample-2026-12-01b"
case "${1:-}" in
run | render)
	SAMPLE=2026-12-01b LIST="$here/packages.md" STOP="${STOP:-18:55}" LIMIT="${LIMIT:-600}" \
		OUT="${OUT:-/tmp/sample28/runb}" OPTIN= MAXFINDINGS=none \
		exec "$(dirname "$0")/sample-30e.sh" "$@"
	;;
select) SAMPLE=2026-12-01b exec "$(dirname "$0")/sample-30g.sh" select ;;
*) echo "usage: sample-01b.sh select|run|render" >&2; exit 2 ;;
esac

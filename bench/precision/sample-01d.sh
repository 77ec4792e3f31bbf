#!/usr/bin/env bash
# sample-01d.sh reproduces the precision sample 2026-12-01d (issue 24): the
# modules of sample 2026-12-01c whose untimed warm-up hit its 300 s limit,
# checked again after a warm-up of up to WARMLIMIT (default 900) seconds;
# otherwise sample-01c.sh's run (default rules only, 420 s a check).
#
# Usage: GOMODCACHE=/tmp/sample29/modcache GOCACHE=/tmp/sample29/gocache \
#          BIN=/tmp/sample29/bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-01d.sh run|render
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/sample-2026-12-01d"
case "${1:-}" in
run | render)
	SAMPLE=2026-12-01d LIST="$here/packages.md" STOP="${STOP:-21:42}" LIMIT="${LIMIT:-420}" \
		OUT="${OUT:-/tmp/sample29/rund}" OPTIN= MAXFINDINGS=none WARMUP=1 WARMLIMIT="${WARMLIMIT:-900}" \
		exec "$(dirname "$0")/sample-30e.sh" "$@"
	;;
*) echo "usage: sample-01d.sh run|render" >&2; exit 2 ;;
esac

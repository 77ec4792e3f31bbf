#!/usr/bin/env bash
# sample-c.sh reproduces the finding list of the precision sample
# 2026-11-29c (issue 24): the modules of
# bench/precision/sample-2026-11-29c/list.md (chosen by RULE.md there),
# fetched through the Go module proxy, each checked with `interleave check`
# at default settings (300 s limit per module), then written as packets
# into bench/precision/sample-2026-11-29c/.
#
# Usage: bench/precision/sample-c.sh [run|packets|all] [module@version ...]
# Verdicts are in bench/precision/sample-2026-11-29c/TRIAGE.md; this script
# does not touch it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
export LIST="$repo/bench/precision/sample-2026-11-29c/list.md"
export TIMEOUT="${TIMEOUT:-300}"
export OUT="${OUT:-/tmp/interleave-sample-2026-11-29c}"
export PACKETS="${PACKETS:-$repo/bench/precision/sample-2026-11-29c}"
exec "$repo/bench/precision/sample.sh" "$@"

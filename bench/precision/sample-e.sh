#!/usr/bin/env bash
# sample-e.sh reproduces the finding list of the precision sample
# 2026-11-29e (issue 24): the modules of
# bench/precision/sample-2026-11-29e/list.md (chosen by RULE.md there),
# fetched through the Go module proxy, each checked with `interleave check`
# at default settings (360 s limit per module, none started from STOP on),
# then written as packets into bench/precision/sample-2026-11-29e/.
#
# Usage: BIN=/tmp/sample-e-bin/interleave BIN_COMMIT=44f8c68... \
#   bench/precision/sample-e.sh [run|packets|all] [module@version ...]
# Without BIN the binary is built from the work tree.
# Verdicts are in bench/precision/sample-2026-11-29e/TRIAGE.md; this script
# does not touch it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
export LIST="$repo/bench/precision/sample-2026-11-29e/list.md"
export TIMEOUT="${TIMEOUT:-360}"
export STOP="${STOP:-19:45}"
export OUT="${OUT:-/tmp/interleave-sample-2026-11-29e}"
export PACKETS="${PACKETS:-$repo/bench/precision/sample-2026-11-29e}"
exec "$repo/bench/precision/sample.sh" "$@"

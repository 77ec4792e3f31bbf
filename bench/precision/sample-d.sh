#!/usr/bin/env bash
# sample-d.sh reproduces the finding list of the precision sample
# 2026-11-29d (issue 24): the modules of
# bench/precision/sample-2026-11-29d/list.md (chosen by RULE.md there),
# fetched through the Go module proxy, each checked with `interleave check`
# at default settings (600 s limit per module, none started from STOP on),
# then written as packets into bench/precision/sample-2026-11-29d/.
#
# Usage: BIN=/tmp/sample-bin/interleave BIN_COMMIT=6bb16d0... \
#   bench/precision/sample-d.sh [run|packets|all] [module@version ...]
# Without BIN the binary is built from the work tree.
# Verdicts are in bench/precision/sample-2026-11-29d/TRIAGE.md; this script
# does not touch it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
export LIST="$repo/bench/precision/sample-2026-11-29d/list.md"
export TIMEOUT="${TIMEOUT:-600}"
export STOP="${STOP:-17:05}"
export OUT="${OUT:-/tmp/interleave-sample-2026-11-29d}"
export PACKETS="${PACKETS:-$repo/bench/precision/sample-2026-11-29d}"
exec "$repo/bench/precision/sample.sh" "$@"

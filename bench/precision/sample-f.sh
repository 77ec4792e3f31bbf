#!/usr/bin/env bash
# sample-f.sh reproduces the finding list of the precision sample
# 2026-11-29f (issue 24): the modules of
# bench/precision/sample-2026-11-29f/list.md (chosen by RULE.md there),
# fetched through the Go module proxy, each checked with `interleave check`
# at default settings (600 s limit per module, none started from STOP on),
# then written as packets into bench/precision/sample-2026-11-29f/.
#
# Usage: BIN=/tmp/sample-f-bin/interleave BIN_COMMIT=d159ed7... \
#   bench/precision/sample-f.sh [run|packets|all] [module@version ...]
# Without BIN the binary is built from the work tree.
# Verdicts are in bench/precision/sample-2026-11-29f/TRIAGE.md; this script
# does not touch it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
export LIST="$repo/bench/precision/sample-2026-11-29f/list.md"
export TIMEOUT="${TIMEOUT:-600}"
export STOP="${STOP:-22:10}"
export OUT="${OUT:-/tmp/sample-f-run}"
export PACKETS="${PACKETS:-$repo/bench/precision/sample-2026-11-29f}"
exec "$repo/bench/precision/sample.sh" "$@"

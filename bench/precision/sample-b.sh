#!/usr/bin/env bash
# sample-b.sh reproduces the finding list of the precision sample
# 2026-11-29b (issue 24): the modules of docs/precision-sample-2026-11-29b.md,
# fetched through the Go module proxy, each checked with `interleave check`
# at default settings (480 s limit per module), then sampled (at most 15 a
# module, random.Random(1)) into bench/precision/sample-2026-11-29b/.
#
# Usage: bench/precision/sample-b.sh [run|packets|all] [module@version ...]
# Verdicts are in bench/precision/sample-2026-11-29b/TRIAGE.md; this script
# does not touch it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
export LIST="$repo/docs/precision-sample-2026-11-29b.md"
export TIMEOUT="${TIMEOUT:-480}"
export OUT="${OUT:-/tmp/interleave-sample-2026-11-29b}"
export PACKETS="${PACKETS:-$repo/bench/precision/sample-2026-11-29b}"
exec "$repo/bench/precision/sample.sh" "$@"

#!/usr/bin/env bash
# sample-b2.sh reproduces the finding lists of the precision sample
# 2026-11-30b (issue 24): the modules of
# bench/precision/sample-2026-11-30b/list.md in order (chosen by RULE.md
# there), each with the package patterns its row fixes. Each module is
# fetched through the Go module proxy; the non-test Go lines of its
# checked packages (vendor/ and testdata/ excluded; a "." pattern counts
# its directory only, "./x/..." the subtree) and those naming
# sync.Mutex/RWMutex or atomic. are counted; over 60,000 lines or fewer
# than 3 such lines is skipped (RULE.md step 3). The others are checked:
# `interleave check -format json PATTERNS` at default settings under
# nice -n 10, LIMIT seconds (default 390) each, one at a time. No module
# is started from STOP (HH:MM UTC) on, nor once the triaged default
# findings so far (at most 15 a module) reach 60 (RULE.md step 4).
#
# The loop is samplerun.sh (shared with the other sample scripts).
#
# Usage: BIN=/tmp/sample-b-bin/interleave BIN_COMMIT=<commit> \
#   bench/precision/sample-b2.sh run       # FROM=N starts at row N
#        bench/precision/sample-b2.sh render  # findings-<module>.txt
#        bench/precision/sample-b2.sh plan    # fetch and count only (samplerun.sh)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIPT=sample-b2.sh
here="$repo/bench/precision/sample-2026-11-30b"
LIMIT="${LIMIT:-390}"
STOP="${STOP:-04:05}"
OUT="${OUT:-/tmp/sample-b-run}"
COUNT_RE='sync\.(RW)?Mutex|atomic\.'
COUNT_MIN=3
OPTIN=
. "$repo/bench/precision/samplerun.sh"
samplerun_main "$@"

#!/usr/bin/env bash
# sample-c2.sh reproduces the finding lists of the precision sample
# 2026-11-30c (issue 24): the modules of
# bench/precision/sample-2026-11-30c/list.md in order (chosen by RULE.md
# there), each with the package patterns its row fixes. Each module is
# fetched through the Go module proxy; the non-test Go lines of its
# checked packages (vendor/ and testdata/ excluded; a "." pattern counts
# its directory only, "./x/..." the subtree) and those that call a lock
# or an atomic (.Lock(), .RLock(), .TryLock(), atomic.F(...), a typed
# atomic's or sync.Map's .Load( .Store( .Swap( .CompareAndSwap() are
# counted; over 60,000 lines or fewer than 5 such lines is skipped
# (RULE.md step 3). The others are checked:
# `interleave check -format json PATTERNS` at default settings under
# nice -n 10, LIMIT seconds (default 390) each, one at a time. No module
# is started from STOP (HH:MM UTC) on, nor once the triaged default
# findings so far (at most 15 a module) reach 60 (RULE.md step 4).
#
# The loop is samplerun.sh (shared with the other sample scripts).
#
# Usage: BIN=/tmp/sample-c-bin/interleave BIN_COMMIT=<commit> \
#   bench/precision/sample-c2.sh run       # FROM=N starts at row N
#        bench/precision/sample-c2.sh render  # findings-<module>.txt
#        bench/precision/sample-c2.sh plan    # fetch and count only (samplerun.sh)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIPT=sample-c2.sh
here="$repo/bench/precision/sample-2026-11-30c"
LIMIT="${LIMIT:-390}"
STOP="${STOP:-06:55}"
OUT="${OUT:-/tmp/sample-c-run}"
COUNT_RE='\.(R|Try|TryR)?Lock\(\)|atomic\.[A-Z][A-Za-z0-9]*\(|\.(Load|Store|Swap|CompareAndSwap)\('
COUNT_MIN=5
OPTIN=
. "$repo/bench/precision/samplerun.sh"
samplerun_main "$@"

#!/usr/bin/env bash
# sample-30e.sh reproduces the finding lists of the precision sample
# 2026-11-30e (issue 24): the modules of
# bench/precision/sample-2026-11-30e/list.md in order (chosen by RULE.md
# there), each with the package patterns its row fixes. Each module is
# fetched through the Go module proxy; the non-test Go lines of its
# checked packages (vendor/ and testdata/ excluded; a "." pattern counts
# its directory only, "./x/..." the subtree) and those that call a lock
# or an atomic (.Lock(), .RLock(), .TryLock(), atomic.F(...), a typed
# atomic's or sync.Map's .Load( .Store( .Swap( .CompareAndSwap() are
# counted; over 60,000 lines or fewer than 5 such lines is skipped
# (RULE.md step 3). The others are checked:
# `interleave check -format json PATTERNS` at default settings under
# nice -n 10, LIMIT seconds (default 600) each, one at a time; then, if it
# finished, `-enable IL1008,IL1009` on the same tree (go vet's cached
# results replayed; findings-optin.json), same limit. CPU seconds (user+sys
# of the check and its children) go to counts.tsv next to the wall time. No module
# is started from STOP (HH:MM UTC) on, nor once the triaged default
# findings so far (at most 15 a module) reach 60 (RULE.md step 4).
#
# The loop is samplerun.sh (shared with the other sample scripts).
#
# Usage: BIN=/tmp/sample18-bin/interleave BIN_COMMIT=<commit> \
#   bench/precision/sample-30e.sh run       # FROM=N starts at row N
#        bench/precision/sample-30e.sh render  # findings-<module>.txt, optin-<module>.txt
#        bench/precision/sample-30e.sh plan    # fetch and count only (samplerun.sh)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIPT=sample-30e.sh
here="$repo/bench/precision/sample-${SAMPLE:-2026-11-30e}" # sample-30f.sh sets SAMPLE
LIMIT="${LIMIT:-600}"
STOP="${STOP:-12:55}"
OUT="${OUT:-/tmp/sample18-run}"
COUNT_RE='\.(R|Try|TryR)?Lock\(\)|atomic\.[A-Z][A-Za-z0-9]*\(|\.(Load|Store|Swap|CompareAndSwap)\('
COUNT_MIN=5
OPTIN="${OPTIN-1}" # sample-30h.sh sets it empty and ENABLE
. "$repo/bench/precision/samplerun.sh"
samplerun_main "$@"

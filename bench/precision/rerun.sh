#!/usr/bin/env bash
# rerun.sh re-runs `interleave check` (default settings) on the packages
# that hold the sampled findings of the 2026-11-29 precision sample, using
# the module copies sample.sh left in $SAMPLE, and reports which sampled
# findings (file, line, rule) are still reported, by verdict of TRIAGE.md,
# plus every finding in those packages that the sample run did not have.
#
# Usage: bench/precision/rerun.sh [RESULTS_DIR]
#
# SAMPLE (default /tmp/interleave-sample-2026-11-29) must hold the copies
# (<module>/src) and the sample run's findings.json; RESULTS_DIR (default
# /tmp/interleave-rerun) gets the new findings.json per module and
# summary.txt. Needs Go and python3.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
sample="${SAMPLE:-/tmp/interleave-sample-2026-11-29}"
res="${1:-/tmp/interleave-rerun}"
mkdir -p "$res"
res="$(cd "$res" && pwd)"
(cd "$repo" && go build -o "$res/interleave" ./cmd/interleave)
git -C "$repo" rev-parse HEAD >"$res/commit"

# The packages (directories) of every sampled finding, per module.
python3 - "$repo/bench/precision/sample-2026-11-29/sample.json" >"$res/packages" <<'PY'
import json, os, sys
pk = {}
for s in json.load(open(sys.argv[1])):
    pk.setdefault(s["module"], set()).add("./" + (os.path.dirname(s["file"]) or "."))
for m in sorted(pk):
    print(m, " ".join(sorted(pk[m])))
PY

while read -r mv pkgs; do
	name="${mv//\//_}"
	src="$sample/$name/src"
	if [ ! -d "$src" ]; then
		echo "$mv: no copy at $src (run sample.sh run first)" >&2
		exit 2
	fi
	mkdir -p "$res/$name"
	echo "== $mv $pkgs $(date -u +%H:%M:%S)" >&2
	status=0
	# shellcheck disable=SC2086
	(cd "$src" && GOWORK=off GOFLAGS=-mod=mod nice -n 10 "$res/interleave" check -format json -o "$res/$name/findings.json" $pkgs 2>"$res/$name/stderr") || status=$?
	echo "$status" >"$res/$name/exit"
	case $status in 0 | 1) ;; *) echo "   could not run (exit $status): $res/$name/stderr" >&2 ;; esac
done <"$res/packages"

python3 "$repo/bench/precision/rerun.py" "$repo/bench/precision/sample-2026-11-29" "$sample" "$res" | tee "$res/summary.txt"

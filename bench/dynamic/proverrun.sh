#!/usr/bin/env bash
# proverrun.sh measures how well interleave pr keeps -budget on real
# pull requests: for each pair of bench/regressions/pairs.tsv given (a
# repository whose base commit is release N and whose head is N+1, from the
# Go module proxy), it runs bench/regressions/run.sh (interleave pr -base
# HEAD~1, the default budget unless REGRESS_PR_FLAGS says otherwise) and
# prints the budget, the stages' wall time after their builds (JSON
# search.afterBuildMs: the search, the base commit's stage, plain go test
# runs, gen) and its overrun, the whole job's wall time, and the log's
# line with each stage's charge and the builds' time (outside -budget).
#
# Usage: bench/dynamic/proverrun.sh [PAIR_ID ...]   (default: gocron-stop-twice)
#        OUT=DIR keeps the raw outputs there (default: a temp dir, removed)
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT:-}"
if [ -z "$out" ]; then
	out="$(mktemp -d)"
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(gocron-stop-twice)
printf '%-20s %-7s %-11s %-8s %-6s %s\n' pair budget after-build overrun wall stages
for p in "${pairs[@]}"; do
	began=$(date +%s)
	bash "$root/bench/regressions/run.sh" -o "$out" "$p" >"$out/$p.run.txt" 2>&1 || true
	wall=$(($(date +%s) - began))
	if python3 - "$p" "$out/$p/report.json" "$out/$p/stderr.log" "$wall" <<'PY'
import json, re, sys
p, path, err, wall = sys.argv[1:]
try:
    s = json.load(open(path))["search"]
except Exception as e:
    sys.exit(f"{p}: no search time in the report ({e})")
took, budget = s["afterBuildMs"] / 1000, s["budgetMs"] / 1000
m = re.search(r"interleave pr: -budget \S+: the stages after their builds took (.*)", open(err).read())
print(f"{p:<20} {budget:<7.0f} {took:<11.1f} {100*(took-budget)/budget:+7.1f}% {wall+'s':<6} {m.group(1) if m else '?'}")
PY
	then :; else echo "$p: see $out/$p.run.txt"; fi
	rm -rf "$out/$p/repo"
done

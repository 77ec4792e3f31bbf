#!/usr/bin/env bash
# budget.sh measures how interleave test keeps its budget: for each budget,
# the search's wall time (builds excluded) against the budget, and the
# fewest schedules any test ran, over the driver kernels of
# checks/dynamic/testdata/realsuite-drv (one slow test among fast ones, a
# test that hangs, tests that leak, ...).
#
# Usage: bench/dynamic/budget.sh [BUDGET...]   (default 10s 30s 60s)
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/interleave" "$root/cmd/interleave"
cd "$root/checks/dynamic/testdata/realsuite-drv"
budgets=("$@")
[ ${#budgets[@]} -gt 0 ] || budgets=(10s 30s 60s)
printf '%-8s %-10s %-9s %-14s %s\n' budget search overrun min-schedules tests
for b in "${budgets[@]}"; do
	"$work/interleave" test -budget "$b" -seed 1 -schedules "$work/sched" -format json -o "$work/out.json" ./... 2>"$work/err" || true
	line="$(grep -E 'schedules in [0-9.]+s' "$work/err" | tail -1)"
	secs="$(sed -E 's/.* schedules in ([0-9.]+)s.*/\1/' <<<"$line")"
	python3 - "$b" "$secs" "$work/out.json" <<'PY'
import json, sys, re
b, secs, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
m = re.fullmatch(r"([0-9.]+)(ms|s|m)", b)
budget = float(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60}[m.group(2)]
tests = json.load(open(path)).get("tests", [])
fewest = min((t["schedules"] for t in tests), default=0)
print(f"{b:<8} {secs:<10.1f} {100*(secs-budget)/budget:+7.1f}%  {fewest:<14} {len(tests)}")
PY
done

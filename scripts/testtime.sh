#!/usr/bin/env bash
# Per-package and per-test wall time of an uncached go test run, with the
# run's CPU time: scripts/testtime.sh [-tests N] [go test flags] [packages]
# (default ./...). Prints each package's elapsed seconds sorted (largest
# first) and their sum, the run's CPU time, the output of the failed
# tests and subtests, then the N slowest top-level tests (default 0).
set -euo pipefail
cd "$(dirname "$0")/.."
tests=0
if [ "${1:-}" = -tests ]; then
	tests=$2
	shift 2
fi
[ $# -gt 0 ] || set -- ./...
out=$(mktemp)
trap 'rm -f "$out" "$out.time"' EXIT
status=0
/usr/bin/time -f '%U %S %e' -o "$out.time" go test -count=1 -json "$@" >"$out" || status=$?
python3 - "$out" "$out.time" "$tests" <<'PY'
import json, sys
pkgs, tests, output, failed = {}, {}, {}, []
for line in open(sys.argv[1]):
    try:
        ev = json.loads(line)
    except ValueError:
        continue
    key = (ev.get("Package"), ev.get("Test"))
    if ev.get("Action") == "output":
        output.setdefault(key, []).append(ev.get("Output", ""))
    if ev.get("Action") == "fail" and ev.get("Test"):
        failed.append(key)
    if ev.get("Action") not in ("pass", "fail", "skip") or "Elapsed" not in ev:
        continue
    pkg = ev.get("Package", "").removeprefix("github.com/interleave-dev/interleave/") or "."
    t = ev.get("Test")
    if t is None:
        pkgs[pkg] = (ev["Elapsed"], ev["Action"])
    elif "/" not in t:
        tests[pkg + " " + t] = (ev["Elapsed"], ev["Action"])
for name, (el, act) in sorted(pkgs.items(), key=lambda kv: -kv[1][0]):
    print(f"{el:8.1f}s  {act:4}  {name}")
print(f"{sum(el for el, _ in pkgs.values()):8.1f}s  sum of {len(pkgs)} packages")
u, s, e = open(sys.argv[2]).read().split()[-3:]
print(f"go test: {float(e):.0f}s elapsed, {float(u) + float(s):.0f}s CPU (user {float(u):.0f}s, system {float(s):.0f}s)")
for key in failed:
    print(f"--- {key[1]} failed:")
    print("".join(output.get(key, [])[-40:]), end="")
n = int(sys.argv[3])
if n:
    print(f"slowest {n} tests:")
    for name, (el, act) in sorted(tests.items(), key=lambda kv: -kv[1][0])[:n]:
        print(f"{el:8.1f}s  {act:4}  {name}")
PY
exit $status

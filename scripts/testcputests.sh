#!/usr/bin/env bash
# Each top-level test's CPU seconds (the test binary and every process it
# started: builds, schedules' test binaries) next to its wall time, for
# one package: scripts/testcputests.sh [-n N] [go test flags] PACKAGE
# Runs go test -count=1 -json in a cgroup v1 cpuacct group of its own and
# reads the group's CPU at each test's start and end, so a test's CPU is
# what the whole group used meanwhile: exact for tests that run alone,
# shared for parallel ones (marked "par"). Prints the N (default 40)
# largest. On a loaded machine wall time grows, CPU hardly: compare CPU.
# Needs root and /sys/fs/cgroup/cpuacct; the group is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
n=40
if [ "${1:-}" = -n ]; then
	n=$2
	shift 2
fi
[ $# -gt 0 ] || { echo "usage: scripts/testcputests.sh [-n N] [go test flags] PACKAGE" >&2; exit 2; }
root=/sys/fs/cgroup/cpuacct
[ -w "$root" ] || { echo "testcputests: $root is not writable (needs root and cgroup v1 cpuacct)" >&2; exit 2; }
group=$root/testcputests.$$
mkdir "$group"
trap 'rmdir "$group" 2>/dev/null || true' EXIT
python3 - "$group" "$n" "$@" <<'PY'
import json, os, subprocess, sys, time
group, n, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def cpu():
    return int(open(group + "/cpuacct.usage").read()) / 1e9
with open(group + "/tasks", "w") as f:
    f.write(str(os.getpid()))
start, t0 = cpu(), time.time()
p = subprocess.Popen(["go", "test", "-count=1", "-json"] + args, stdout=subprocess.PIPE, text=True)
began, tests, par, running, pkgs = {}, {}, set(), set(), []
for line in p.stdout:
    now = cpu() - start
    try:
        ev = json.loads(line)
    except ValueError:
        continue
    t, a = ev.get("Test"), ev.get("Action")
    if t is None:
        if a in ("pass", "fail", "skip") and "Elapsed" in ev:
            pkgs.append((ev.get("Package"), a, ev["Elapsed"]))
        continue
    if "/" in t:
        continue
    if a in ("run", "cont"):
        began[t] = now
        running.add(t)
        if len(running) > 1:
            par.update(running)
    elif a == "pause":
        running.discard(t)
        tests[t] = tests.get(t, (0, 0, ""))[0] + now - began[t], 0, ""
    elif a in ("pass", "fail", "skip") and t in began:
        running.discard(t)
        tests[t] = (tests.get(t, (0, 0, ""))[0] + now - began[t], ev.get("Elapsed", 0), a)
p.wait()
print(f"go test: {cpu() - start:.1f}s CPU, {time.time() - t0:.0f}s elapsed, exit {p.returncode}")
for pkg, a, el in pkgs:
    print(f"{el:8.1f}s  {a:4}  {pkg}")
print(f"largest {n} tests by CPU (CPU, wall):")
for t, (c, el, a) in sorted(tests.items(), key=lambda kv: -kv[1][0])[:n]:
    print(f"{c:7.1f}s {el:7.1f}s  {a:4} {'par' if t in par else '   '} {t}")
sys.exit(p.returncode)
PY

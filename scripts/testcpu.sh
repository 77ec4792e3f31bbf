#!/usr/bin/env bash
# Where the CPU of a command goes, by program and by top-level test binary
# (with everything it started), from the kernel's process accounting:
#   scripts/testcpu.sh [COMMAND [ARG...]]
# (default: go test -count=1 ./...; e.g.
# scripts/testcpu.sh scripts/testtime.sh -tests 40 ./... prints both).
# Needs root and the acct package (accton, dump-acct). The go command's
# own CPU and the instrumented test binaries the tests run are counted
# too, which a -toolexec log (scripts/toolcpu.sh) cannot see.
set -euo pipefail
cd "$(dirname "$0")/.."
for c in accton dump-acct python3; do
	command -v "$c" >/dev/null || { echo "testcpu: $c not found (apt-get install acct)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "testcpu: process accounting needs root" >&2; exit 2; }
[ $# -gt 0 ] || set -- go test -count=1 ./...
acct=$(mktemp)
trap 'accton off >/dev/null 2>&1 || true; rm -f "$acct"' EXIT
accton "$acct" >/dev/null
status=0
bash -c 'echo $$ >"$0.root"; exec "$@"' "$acct" "$@" || status=$?
accton off >/dev/null
python3 - "$acct" "$(cat "$acct.root")" <<'PY'
import collections, subprocess, sys, time
HZ = 100.0  # acct v3 counts clock ticks
def epoch(s): return time.mktime(time.strptime(" ".join(s.split()), "%a %b %d %H:%M:%S %Y"))
recs = []  # pid, ppid, command, user, system, start, end
for line in subprocess.run(["dump-acct", sys.argv[1]], capture_output=True, text=True, check=True).stdout.splitlines():
    f = [x.strip() for x in line.split("|")]
    if len(f) < 15: continue
    st = epoch(f[14])
    recs.append((int(f[9]), int(f[10]), f[0], float(f[2]) / HZ, float(f[3]) / HZ, st, st + float(f[4]) / HZ))
# Pids are reused: a record's parent is the process with its ppid alive when it started.
bypid = collections.defaultdict(list)
for i, r in enumerate(recs): bypid[r[0]].append(i)
def parent(i):
    best = None
    for j in bypid.get(recs[i][1], []):
        if recs[j][5] <= recs[i][5] + 1 and recs[j][6] >= recs[i][5] - 1 and (best is None or recs[j][5] > recs[best][5]):
            best = j
    return best
par = [parent(i) for i in range(len(recs))]
root = max(bypid[int(sys.argv[2])], key=lambda i: recs[i][5])
def chain(i):
    c = []
    while i is not None and i != root:
        c.append(i); i = par[i]
    return c if i == root else None
by_cmd, n, by_bin, sub = collections.Counter(), collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter)
user = system = 0.0
for i, r in enumerate(recs):
    c = chain(i) if i != root else []
    if c is None: continue
    cpu = r[3] + r[4]; user += r[3]; system += r[4]
    by_cmd[r[2]] += cpu; n[r[2]] += 1
    b = next((recs[q][2] for q in reversed(c) if recs[q][2].endswith(".test")), "(outside test binaries: builds, scripts)")
    by_bin[b] += cpu; sub[b][r[2]] += cpu
print(f"the command: {user + system:.0f}s CPU (user {user:.0f}s, system {system:.0f}s) in {sum(n.values())} processes")
print("by command (CPU, processes):")
for c, v in by_cmd.most_common(20): print(f"{v:8.1f}s {n[c]:6d}  {c}")
print("by top-level test binary, with what it started:")
for b, v in by_bin.most_common(25):
    print(f"{v:8.1f}s  {b}: " + ", ".join(f"{c} {x:.0f}" for c, x in sub[b].most_common(6)))
PY
rm -f "$acct.root"
exit $status

#!/usr/bin/env bash
# overrun.sh measures how well interleave test keeps -budget and how many
# tests it reaches: the wall time after the build (unperturbed runs,
# search, replays, plain go test runs, shrinking; the JSON report's
# search.afterBuildMs) against the budget, the whole command's wall time
# (the build included), the tests that ran a schedule (any: the unperturbed
# one counts) and more than the unperturbed one, and the test processes
# the search started, on these suites:
#   kernel300  a generated module of 300 fast tests, 30 of them with a
#              lost update only some schedules show (each its own finding:
#              replays and plain go test runs after the search), and one
#              test that leaves a goroutine blocked for ever;
#   ttlcache   github.com/jellydator/ttlcache/v3@v3.4.1 from the module
#              proxy (a cache library whose tests start janitor goroutines);
#   otter      github.com/maypok86/otter/v2@v2.4.0 (372 tests in 10
#              packages, most of them fast; its first race build takes
#              many minutes on a loaded machine: 30 min and counting at
#              load 35 on 2026-11-30);
#   gods       github.com/emirpasic/gods@v1.18.1 (432 tests in 23 small
#              packages of containers: a real suite of fast tests whose
#              race builds take minutes, not half an hour);
#   conc, ratelimit  github.com/sourcegraph/conc@v0.3.0 and
#              go.uber.org/ratelimit@v0.3.1, whose findings came at the
#              end of the search and whose replays ran past -budget 60s
#              (63.6 s, 64.2 s) until the seventeenth session.
#
# Usage: SUITES="kernel300 ttlcache otter" bench/dynamic/overrun.sh [BUDGET...]
#        (default: those three suites; budgets 30s 60s; INTERLEAVE=path runs
#        that interleave binary instead of building this checkout's;
#        OUT=dir keeps each run's -v log and JSON report there)
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "${INTERLEAVE:-}" ]; then
	cp "$INTERLEAVE" "$work/interleave" # another build (before/after a change)
else
	go build -o "$work/interleave" "$root/cmd/interleave"
fi

# The kernel suite.
mkdir -p "$work/kernel300"
python3 - "$work/kernel300" <<'PY'
import os, sys
d, n, bugs = sys.argv[1], 300, 30
open(os.path.join(d, "go.mod"), "w").write("module kernel300\n\ngo 1.24\n")
src = ['''package k

import "sync"

type C struct {
	mu sync.Mutex
	m  map[int]int
}

func New() *C { return &C{m: map[int]int{}} }

func (c *C) Set(k, v int) { c.mu.Lock(); c.m[k] = v; c.mu.Unlock() }

func (c *C) Get(k int) int { c.mu.Lock(); defer c.mu.Unlock(); return c.m[k] }
''']
for b in range(bugs):
    src.append(f"\n// Bump{b} reads, then writes: an update can be lost.\nfunc (c *C) Bump{b}() {{ v := c.Get({b}); c.Set({b}, v+1) }}\n")
open(os.path.join(d, "k.go"), "w").write("".join(src))
tests = ['package k\n\nimport (\n\t"sync"\n\t"testing"\n)\n']
for i in range(n):
    buggy = i % (n // bugs) == 0
    b = i // (n // bugs)
    call = f"c.Bump{b}()" if buggy else f"c.Set(j, {i})"
    check = f'\n\tif c.Get({b}) != 2 {{\n\t\tt.Fatal("lost update in Bump{b}")\n\t}}' if buggy else ""
    tests.append(f'''
func TestFast{i:03d}(t *testing.T) {{
	c := New()
	var wg sync.WaitGroup
	for j := 0; j < 2; j++ {{
		wg.Add(1)
		go func() {{ defer wg.Done(); {call} }}()
	}}
	wg.Wait(){check}
}}
''')
tests.append('''
// TestLeftover leaves a goroutine blocked for ever.
func TestLeftover(t *testing.T) {
	go func() { select {} }()
}
''')
open(os.path.join(d, "k_test.go"), "w").write("".join(tests))
PY

# The real suites, from the module proxy.
fetch() { # fetch NAME MODULE@VERSION
	mkdir -p "$work/get" && (cd "$work/get" && [ -f go.mod ] || go mod init get >/dev/null 2>&1)
	local src
	src="$(cd "$work/get" && GOFLAGS=-mod=mod go mod download -json "$2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
	cp -r "$src" "$work/$1" && chmod -R u+w "$work/$1"
	(cd "$work/$1" && go mod download)
}
suites=(${SUITES:-kernel300 ttlcache otter})
for suite in "${suites[@]}"; do
	case "$suite" in
	ttlcache) fetch ttlcache github.com/jellydator/ttlcache/v3@v3.4.1 ;;
	otter) fetch otter github.com/maypok86/otter/v2@v2.4.0 ;;
	gods) fetch gods github.com/emirpasic/gods@v1.18.1 ;;
	conc) fetch conc github.com/sourcegraph/conc@v0.3.0 ;;
	ratelimit) fetch ratelimit go.uber.org/ratelimit@v0.3.1 ;;
	esac
done

budgets=("$@")
[ ${#budgets[@]} -gt 0 ] || budgets=(30s 60s)
printf '%-10s %-7s %-6s %-11s %-9s %-6s %-10s %-10s %-6s %s\n' suite budget tests after-build overrun wall scheduled searched procs findings
for suite in "${suites[@]}"; do
	for b in "${budgets[@]}"; do
		began=$(date +%s.%N)
		(cd "$work/$suite" && "$work/interleave" test -budget "$b" -seed 1 -v -schedules "$work/sched" \
			-format json -o "$work/out.json" ./... 2>"$work/err") || true
		if [ -n "${OUT:-}" ]; then
			mkdir -p "$OUT" && cp "$work/err" "$OUT/$suite-$b.log" && { cp "$work/out.json" "$OUT/$suite-$b.json" 2>/dev/null || true; }
		fi
		wall=$(python3 -c "import sys; print(f'{float(sys.argv[2])-float(sys.argv[1]):.0f}')" "$began" "$(date +%s.%N)")
		python3 - "$suite" "$b" "$work/out.json" "$work/err" "$wall" <<'PY'
import json, re, sys
suite, b, path, err, wall = sys.argv[1:]
try:
    d = json.load(open(path))
except Exception:
    sys.exit(f"{suite} {b}: no report; its log ends:\n" + "".join(open(err).readlines()[-10:]))
s = d["search"]
took, budget = s["afterBuildMs"] / 1000, s["budgetMs"] / 1000
tests = d.get("tests", [])
one = sum(1 for t in tests if t.get("schedules", 0) > 0)
more = sum(1 for t in tests if t.get("schedules", 0) > 1)
m = re.search(r"in (\d+) test processes", open(err).read())
procs = m.group(1) if m else "?"
n = max(len(tests), 1)
print(f"{suite:<10} {b:<7} {len(tests):<6} {took:<11.1f} {100*(took-budget)/budget:+7.1f}%  {wall+'s':<6} "
      f"{f'{100*one/n:.0f}%':<10} {f'{100*more/n:.0f}%':<10} {procs:<6} {len(d['findings'])}")
PY
	done
done

#!/usr/bin/env bash
# overrun.sh measures how well interleave test keeps -budget: the wall
# time after the build (unperturbed runs, search, replays, plain go test
# runs, shrinking; the JSON report's search.afterBuildMs) against the
# budget, on two suites:
#   kernel300  a generated module of 300 fast tests, 30 of them with a
#              lost update only some schedules show (each its own finding:
#              replays and plain go test runs after the search), and one
#              test that leaves a goroutine blocked for ever;
#   ttlcache   github.com/jellydator/ttlcache/v3@v3.4.1 from the module
#              proxy (a cache library whose tests start janitor goroutines).
#
# Usage: bench/dynamic/overrun.sh [BUDGET...]   (default 30s 60s)
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/interleave" "$root/cmd/interleave"

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

# The real suite, from the module proxy.
mkdir -p "$work/get" && (cd "$work/get" && go mod init get >/dev/null 2>&1 &&
	GOFLAGS=-mod=mod go mod download github.com/jellydator/ttlcache/v3@v3.4.1)
src="$(cd "$work/get" && GOFLAGS=-mod=mod go mod download -json github.com/jellydator/ttlcache/v3@v3.4.1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')"
cp -r "$src" "$work/ttlcache" && chmod -R u+w "$work/ttlcache"
(cd "$work/ttlcache" && go mod download)

budgets=("$@")
[ ${#budgets[@]} -gt 0 ] || budgets=(30s 60s)
printf '%-10s %-7s %-6s %-11s %-9s %s\n' suite budget tests after-build overrun findings
for suite in kernel300 ttlcache; do
	for b in "${budgets[@]}"; do
		(cd "$work/$suite" && "$work/interleave" test -budget "$b" -seed 1 -v -schedules "$work/sched" \
			-format json -o "$work/out.json" ./... 2>"$work/err") || true
		python3 - "$suite" "$b" "$work/out.json" "$work/err" <<'PY'
import json, sys
suite, b, path, err = sys.argv[1:]
try:
    d = json.load(open(path))
except Exception:
    sys.exit(f"{suite} {b}: no report; its log ends:\n" + "".join(open(err).readlines()[-10:]))
s = d["search"]
took, budget = s["afterBuildMs"] / 1000, s["budgetMs"] / 1000
print(f"{suite:<10} {b:<7} {len(d.get('tests', [])):<6} {took:<11.1f} {100*(took-budget)/budget:+7.1f}%  {len(d['findings'])}")
PY
	done
done

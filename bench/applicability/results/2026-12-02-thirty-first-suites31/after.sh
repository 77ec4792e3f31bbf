#!/usr/bin/env bash
# queued after runall.sh: atomic on the fix, then explore's kernel tests and rt's tests
while kill -0 4838 2>/dev/null; do sleep 10; done
cd /tmp/suites31/tree-4a3d
echo "== atomic-fix start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "atomic-fix wall %e s, user %U s, sys %S s" nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/suites31/atomic-fix go.uber.org/atomic@v1.12.0 > /tmp/suites31/atomic-fix.log 2>&1
echo "rc=$? end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; tail -1 /tmp/suites31/atomic-fix.log

#!/usr/bin/env bash
cd /work/wt/applic20
echo "$(date -u +%T) start buntdb-branch $(git rev-parse --short HEAD) $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt
nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic20/buntdb-branch github.com/tidwall/buntdb@v1.3.0 > /tmp/applic20/buntdb-branch.log 2>&1
echo "$(date -u +%T) end buntdb-branch rc=$? $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt

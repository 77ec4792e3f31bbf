#!/usr/bin/env bash
# The spare named in RULE.md, run after run.sh because bruceshao/lockfree
# v1.1.2 cannot be downloaded (the checksum database has no entry for it:
# "verifying go.mod: ... 404 Not Found"): the same command, same export.
cd /tmp/applic24/export
mv=github.com/teivah/onecontext@v1.3.0
name="$(echo "$mv" | tr '/@' '__')"
echo "$(date -u +%H:%M:%S) start $mv (the spare) load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic24/times.txt
/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic24/time-$name.txt \
	nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic24/$name "$mv" >/tmp/applic24/log-$name.txt 2>&1
echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic24/time-$name.txt)" >>/tmp/applic24/times.txt

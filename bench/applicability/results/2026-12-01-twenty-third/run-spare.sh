#!/usr/bin/env bash
# The spare named in RULE.md, run once samber/hot@v0.13.0 turned out to
# have no test files in its module: the same command, same export (1ed94d3).
cd /tmp/applic23/export
mv=github.com/zekroTJA/timedmap@v1.5.2
echo "$(date -u +%H:%M:%S) start $mv (the spare) load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic23/times.txt
/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic23/time-timedmap.txt \
	nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic23/github.com_zekroTJA_timedmap_v1.5.2 "$mv" >/tmp/applic23/log-timedmap.txt 2>&1
echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic23/time-timedmap.txt)" >>/tmp/applic23/times.txt

#!/usr/bin/env bash
# After the fixes: the two modules whose findings or notes were the tool's
# (goworkerpool's suites, chanqueue's t.Name()), the brief's command, from
# an export of the fixed commit (/tmp/applic24/export2).
cd /tmp/applic24/export2
for mv in github.com/enriquebris/goworkerpool@v0.10.2 github.com/gammazero/chanqueue@v1.1.2; do
	name="after-$(echo "$mv" | tr '/@' '__')"
	echo "$(date -u +%H:%M:%S) start $mv (after) load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic24/times.txt
	/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic24/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic24/$name "$mv" >/tmp/applic24/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic24/time-$name.txt)" >>/tmp/applic24/times.txt
done

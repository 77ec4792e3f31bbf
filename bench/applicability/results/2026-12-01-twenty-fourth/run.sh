#!/usr/bin/env bash
# The eighth set, one module at a time (twenty-fourth session), from an
# export of the commit that chose them (/tmp/applic24/export).
cd /tmp/applic24/export
grep -v '^#' bench/applicability/results/2026-12-01-twenty-fourth/modules.txt | awk '{print $1}' | while read -r mv; do
	[ -n "$mv" ] || continue
	name="$(echo "$mv" | tr '/@' '__')"
	echo "$(date -u +%H:%M:%S) start $mv load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic24/times.txt
	/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic24/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic24/$name "$mv" >/tmp/applic24/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic24/time-$name.txt)" >>/tmp/applic24/times.txt
done

#!/usr/bin/env bash
# The seventh set, one module at a time (twenty-third session).
cd "$(dirname "$0")/../../../.."
grep -v '^#' bench/applicability/results/2026-12-01-twenty-third/modules.txt | awk '{print $1}' | while read -r mv; do
	[ -n "$mv" ] || continue
	name="$(echo "$mv" | tr '/@' '__')"
	echo "$(date -u +%H:%M:%S) start $mv load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic23/times.txt
	/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic23/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic23/$name "$mv" >/tmp/applic23/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic23/time-$name.txt)" >>/tmp/applic23/times.txt
done

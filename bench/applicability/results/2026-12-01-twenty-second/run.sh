#!/usr/bin/env bash
# The sixth set, one module at a time (twenty-second session).
cd "$(dirname "$0")/../../../.."
grep -v '^#' bench/applicability/results/2026-12-01-twenty-second/modules.txt | awk '{print $1}' | while read -r mv; do
	[ -n "$mv" ] || continue
	name="$(echo "$mv" | tr '/@' '__')"
	echo "$(date -u +%H:%M:%S) start $mv load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic22/times.txt
	/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic22/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic22/$name "$mv" >/tmp/applic22/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic22/time-$name.txt)" >>/tmp/applic22/times.txt
done

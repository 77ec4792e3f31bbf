#!/usr/bin/env bash
# After the fixes: reugn/async and go-pkgz/syncs again with the brief's
# command, from an export of 441230a (/tmp/applic23/export2).
cd /tmp/applic23/export2
for mv in github.com/reugn/async@v0.10.0 github.com/go-pkgz/syncs@v1.3.2; do
	name="$(echo "$mv" | tr '/@' '__')-after"
	echo "$(date -u +%H:%M:%S) start $mv (export 441230a) load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic23/times.txt
	/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic23/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic23/$name "$mv" >/tmp/applic23/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic23/time-$name.txt)" >>/tmp/applic23/times.txt
done

#!/usr/bin/env bash
# The two modules with a fix, re-run on the branch (export of d55d0d0).
cd /tmp/applic22/export2
for mv in github.com/lestrrat-go/backoff/v2@v2.0.8 github.com/labstack/echo/v5@v5.4.4; do
	name="after-$(echo "$mv" | tr '/@' '__')"
	echo "$(date -u +%H:%M:%S) start $mv (export d55d0d0) load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic22/times.txt
	/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic22/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic22/$name "$mv" >/tmp/applic22/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic22/time-$name.txt)" >>/tmp/applic22/times.txt
done

#!/usr/bin/env bash
# The rest of the sixth set, from an export of a1b43ae (git archive into
# /tmp/applic22/export: the worktree had the fix below by then), after
# echo (started by run.sh, whose loop was stopped) ended.
while kill -0 1768 2>/dev/null; do sleep 5; done
echo "$(date -u +%H:%M:%S) end github.com/labstack/echo/v5@v5.4.4 load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic22/time-github.com_labstack_echo_v5_v5.4.4.txt)" >>/tmp/applic22/times.txt
cd /tmp/applic22/export
for mv in github.com/avast/retry-go/v4@v4.7.0 github.com/sethvargo/go-retry@v0.5.0 github.com/go-chi/httprate@v0.16.1 github.com/puzpuzpuz/xsync/v4@v4.5.0 github.com/gofrs/flock@v0.13.2 connectrpc.com/grpchealth@v1.5.0 github.com/simonvetter/modbus@v1.6.4; do
	name="$(echo "$mv" | tr '/@' '__')"
	echo "$(date -u +%H:%M:%S) start $mv (export a1b43ae) load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic22/times.txt
	/usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic22/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic22/$name "$mv" >/tmp/applic22/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $mv load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic22/time-$name.txt)" >>/tmp/applic22/times.txt
done

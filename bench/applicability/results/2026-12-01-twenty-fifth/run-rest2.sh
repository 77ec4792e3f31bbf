#!/usr/bin/env bash
# run-rest.sh's loop was stopped after go.opentelemetry.io/otel/sdk (its
# "end" line is missing from times.txt; time-files.txt has its time) so
# that the go1.27.3 run comes before the session's end; then the modules
# not reached, in the listed order. From /tmp/applic25/export2 (b4b38dd6).
cd /tmp/applic25/export2
one() { # name module@version [env...]
	local name="$1" mv="$2"; shift 2
	echo "$(date -u +%H:%M:%S) start $name load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic25/times.txt
	env "$@" /usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic25/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic25/$name "$mv" >/tmp/applic25/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $name load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic25/time-$name.txt)" >>/tmp/applic25/times.txt
}
one github.com_cilium_workerpool_v1.1.1-go1.27 github.com/cilium/workerpool@v1.1.1 GOTOOLCHAIN=go1.27.3
for mv in github.com/rcrowley/go-metrics@v0.0.0-20201227073835-cf1acfcdf475 \
	github.com/grafana/gomemcache@v0.0.0-20240229205252-cd6a66d6fb56 \
	github.com/schollz/progressbar/v3@v3.19.1 \
	github.com/pion/datachannel@v1.6.0 \
	github.com/ThreeDotsLabs/watermill@v1.4.6; do
	one "$(echo "$mv" | tr '/@' '__')" "$mv"
done

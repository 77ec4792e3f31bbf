#!/usr/bin/env bash
# After b4b38dd6 (the script drops replaces to directories the proxy's zip
# lacks): go.opentelemetry.io/otel/sdk again, then the modules run.sh had
# not reached (its loop was stopped after github.com/facebookgo/clock to
# take the fixed script), then github.com/cilium/workerpool under
# GOTOOLCHAIN=go1.27.3. From an export of b4b38dd6 (/tmp/applic25/export2).
cd /tmp/applic25/export2
one() { # name module@version [env...]
	local name="$1" mv="$2"; shift 2
	echo "$(date -u +%H:%M:%S) start $name load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic25/times.txt
	env "$@" /usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic25/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic25/$name "$mv" >/tmp/applic25/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $name load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic25/time-$name.txt)" >>/tmp/applic25/times.txt
}
for mv in go.opentelemetry.io/otel/sdk@v1.47.0 \
	github.com/rcrowley/go-metrics@v0.0.0-20201227073835-cf1acfcdf475 \
	github.com/grafana/gomemcache@v0.0.0-20240229205252-cd6a66d6fb56 \
	github.com/schollz/progressbar/v3@v3.19.1 \
	github.com/pion/datachannel@v1.6.0 \
	github.com/ThreeDotsLabs/watermill@v1.4.6; do
	one "$(echo "$mv" | tr '/@' '__')" "$mv"
done
one github.com_cilium_workerpool_v1.1.1-go1.27 github.com/cilium/workerpool@v1.1.1 GOTOOLCHAIN=go1.27.3

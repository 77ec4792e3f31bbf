#!/usr/bin/env bash
# run.sh's loop was stopped during cilium/statedb (12:20 UTC: its "end"
# line is missing from times.txt; time-files.txt has its time) so that,
# in the session's time, the re-runs after the fixes and the go1.27.3
# run come first; then the modules not reached, in the listed order. All
# from /tmp/applic26/export3 (c0111755: GOWORK=off and the running-leak
# grouping); run-rest.sh's lines are these lines' first and third.
cd /tmp/applic26/export3
one() { # name module@version [env...]
	local name="$1" mv="$2"; shift 2
	echo "$(date -u +%H:%M:%S) start $name load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic26/times.txt
	env "$@" /usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic26/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic26/$name "$mv" >/tmp/applic26/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $name load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic26/time-$name.txt)" >>/tmp/applic26/times.txt
}
one github.com_VictoriaMetrics_metrics_v1.45.0-c0111755 github.com/VictoriaMetrics/metrics@v1.45.0
one github.com_cristalhq_hedgedhttp_v0.9.2-go1.27 github.com/cristalhq/hedgedhttp@v0.9.2 GOTOOLCHAIN=go1.27.3
one github.com_vikstrous_dataloadgen_v0.0.10-gowork-off github.com/vikstrous/dataloadgen@v0.0.10
one github.com_vbauerster_mpb_v8_v8.16.2 github.com/vbauerster/mpb/v8@v8.16.2
one go.uber.org_fx_v1.24.0 go.uber.org/fx@v1.24.0

#!/usr/bin/env bash
# Not run as such (run-rest2.sh took its place). After run.sh (from e3b559a7): dataloadgen again, from an export of
# 7b87dd5a (bench/applicability.sh with GOWORK=off), since its proxy zip
# carries a go.work that stopped the first run.
cd /tmp/applic26/export2
one() { # name module@version [env...]
	local name="$1" mv="$2"; shift 2
	echo "$(date -u +%H:%M:%S) start $name load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic26/times.txt
	env "$@" /usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic26/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic26/$name "$mv" >/tmp/applic26/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $name load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic26/time-$name.txt)" >>/tmp/applic26/times.txt
}
one github.com_vikstrous_dataloadgen_v0.0.10-gowork-off github.com/vikstrous/dataloadgen@v0.0.10
# VictoriaMetrics/metrics again from an export of c0111755 (a running leak
# grouped by its function): its three findings of summariesSwapCron.
cd /tmp/applic26/export3
one github.com_VictoriaMetrics_metrics_v1.45.0-c0111755 github.com/VictoriaMetrics/metrics@v1.45.0

#!/usr/bin/env bash
# The ninth set, one module at a time (twenty-fifth session), from an
# export of the commit that chose them (/tmp/applic25/export). The first
# module runs a second time under GOTOOLCHAIN=go1.27.3 at the end.
cd /tmp/applic25/export
one() { # name module@version [env...]
	local name="$1" mv="$2"; shift 2
	echo "$(date -u +%H:%M:%S) start $name load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic25/times.txt
	env "$@" /usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic25/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic25/$name "$mv" >/tmp/applic25/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $name load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic25/time-$name.txt)" >>/tmp/applic25/times.txt
}
first=""
for mv in $(grep -v '^#' bench/applicability/results/2026-12-01-twenty-fifth/modules.txt | awk '{print $1}'); do
	[ -n "$first" ] || first="$mv"
	one "$(echo "$mv" | tr '/@' '__')" "$mv"
done
one "$(echo "$first" | tr '/@' '__')-go1.27" "$first" GOTOOLCHAIN=go1.27.3

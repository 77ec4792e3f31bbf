#!/usr/bin/env bash
# The tenth set, one module at a time (twenty-sixth session), from an
# export of the commit that chose them (/tmp/applic26/export).
# hedgedhttp runs a second time under GOTOOLCHAIN=go1.27.3 at the end.
cd /tmp/applic26/export
one() { # name module@version [env...]
	local name="$1" mv="$2"; shift 2
	echo "$(date -u +%H:%M:%S) start $name load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/applic26/times.txt
	env "$@" /usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/applic26/time-$name.txt \
		nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/applic26/$name "$mv" >/tmp/applic26/log-$name.txt 2>&1
	echo "$(date -u +%H:%M:%S) end $name load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/applic26/time-$name.txt)" >>/tmp/applic26/times.txt
}
for mv in $(grep -v '^#' bench/applicability/results/2026-12-01-twenty-sixth/modules.txt | awk '{print $1}'); do
	one "$(echo "$mv" | tr '/@' '__')" "$mv"
done
again=github.com/cristalhq/hedgedhttp@v0.9.2
one "$(echo "$again" | tr '/@' '__')-go1.27" "$again" GOTOOLCHAIN=go1.27.3

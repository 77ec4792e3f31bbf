#!/usr/bin/env bash
# usage: run.sh COMMIT name module@version [env...]
set -u
commit="$1" name="$2" mv="$3"; shift 3
exp=/tmp/suites29/export-$commit
if [ ! -d "$exp" ]; then mkdir -p "$exp" && git -C /work/wt/suites29 archive "$commit" | tar -x -C "$exp"; fi
cd "$exp"
export GOMODCACHE=/tmp/suites29/modcache
echo "$(date -u +%H:%M:%S) start $name $commit load $(cut -d' ' -f1-3 /proc/loadavg)" >>/tmp/suites29/times.txt
env "$@" /usr/bin/time -f "%e s wall %U s user %S s sys" -o /tmp/suites29/time-$name.txt \
	nice -n 10 bench/applicability.sh -budget ${BUDGET:-60s} -seed 1 -out /tmp/suites29/$name "$mv" >/tmp/suites29/log-$name.txt 2>&1
echo "$(date -u +%H:%M:%S) end $name load $(cut -d' ' -f1-3 /proc/loadavg) $(cat /tmp/suites29/time-$name.txt)" >>/tmp/suites29/times.txt

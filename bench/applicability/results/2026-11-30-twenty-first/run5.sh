#!/usr/bin/env bash
cd /tmp/applic21/export
for m in github.com/jolestar/go-commons-pool/v2@v2.1.2 github.com/xtaci/smux@v1.5.58 github.com/afex/hystrix-go@v0.0.0-20180502004556-fa1af6a1f4f5; do
  n=$(echo "$m" | sed 's/[^A-Za-z0-9]/_/g' | cut -c1-40)
  echo "$(date -u +%T) start $m $(cat /tmp/applic21/export.commit) $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic21/times.txt
  nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic21/set5-$n "$m" > /tmp/applic21/set5-$n.log 2>&1
  echo "$(date -u +%T) end $m rc=$? $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic21/times.txt
done

#!/usr/bin/env bash
cd /tmp/applic20/export
echo "$(date -u +%T) start set4 $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt
nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic20/set4 \
  github.com/smallnest/chanx@v1.2.0 github.com/alphadose/haxmap@v1.4.0 github.com/eapache/channels@v1.1.0 \
  github.com/coocood/freecache@v1.2.7 github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8 \
  github.com/hashicorp/go-memdb@v1.3.5 github.com/VictoriaMetrics/fastcache@v1.13.2 github.com/tidwall/buntdb@v1.3.0 \
  > /tmp/applic20/set4.log 2>&1
echo "$(date -u +%T) end set4 rc=$? $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt
nice -n 10 bench/applicability.sh -budget 20s -seed 1 -no-plain -out /tmp/applic20/main > /tmp/applic20/main.log 2>&1
echo "$(date -u +%T) end main rc=$? $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt

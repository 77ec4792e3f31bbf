#!/usr/bin/env bash
cd /tmp/applic19/export
echo "$(date -u +%T) start main $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic19/times.txt
nice -n 10 bench/applicability.sh -budget 20s -seed 1 -no-plain -out /tmp/applic19/main > /tmp/applic19/main.log 2>&1
echo "$(date -u +%T) end main rc=$? $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic19/times.txt

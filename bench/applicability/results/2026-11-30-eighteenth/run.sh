#!/usr/bin/env bash
# one module at a time; logs start/end and load
cd EXPORT_OF_THE_COMMIT
for mv in "$@"; do
  name=$(echo "${mv%@*}" | awk -F/ '{print $NF=="v5"?$(NF-1):$NF}')
  echo "$(date -u +%T) start $mv $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic18/times.txt
  if [ "$name" = kcp-go ]; then export GOTOOLCHAIN=go1.27.3; else unset GOTOOLCHAIN; fi
  nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic18/$name "$mv" > /tmp/applic18/$name.log 2>&1
  echo "$(date -u +%T) end $mv rc=$? $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic18/times.txt
done

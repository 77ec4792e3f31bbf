#!/usr/bin/env bash
cd /work/wt/applic20
echo "$(date -u +%T) start set5 $(git rev-parse --short HEAD) $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt
nice -n 10 bench/applicability.sh -budget 20s -seed 1 -out /tmp/applic20/set5 \
  github.com/sasha-s/go-deadlock@v0.3.9 github.com/sethvargo/go-limiter@v0.7.1 github.com/Code-Hex/go-generics-cache@v1.5.1 \
  github.com/Yiling-J/theine-go@v0.6.3 github.com/failsafe-go/failsafe-go@v0.9.8 github.com/jolestar/go-commons-pool/v2@v2.1.2 \
  github.com/xtaci/smux@v1.5.58 github.com/afex/hystrix-go@v0.0.0-20180502004556-fa1af6a1f4f5 > /tmp/applic20/set5.log 2>&1
echo "$(date -u +%T) end set5 rc=$? $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt

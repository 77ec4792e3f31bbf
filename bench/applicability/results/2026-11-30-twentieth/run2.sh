#!/usr/bin/env bash
cd /tmp/applic20/export
echo "$(date -u +%T) start main2 $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt
nice -n 10 bench/applicability.sh -budget 20s -seed 1 -no-plain -out /tmp/applic20/main2 \
  github.com/jellydator/ttlcache/v3@v3.4.1 github.com/go-co-op/gocron/v2@v2.21.2 github.com/cskr/pubsub/v2@v2.0.2 \
  golang.org/x/time@v0.16.0 golang.org/x/sync@v0.25.0 github.com/hashicorp/yamux@v0.1.2 > /tmp/applic20/main2.log 2>&1
echo "$(date -u +%T) end main2 rc=$? $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/applic20/times.txt

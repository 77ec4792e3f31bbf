#!/usr/bin/env bash
# one at a time, the brief's command, from an export of b5a8df53
cd /tmp/suites31/tree-b5a8
for spec in backoff:github.com/cenkalti/backoff/v4@v4.3.0 atomic:go.uber.org/atomic@v1.12.0 zerolog:github.com/rs/zerolog@v1.35.1 do:github.com/samber/do/v2@v2.0.0 amqp:github.com/rabbitmq/amqp091-go@v1.16.0 openfeature:github.com/open-feature/go-sdk@v1.20.0; do
  name=${spec%%:*}; mod=${spec#*:}
  echo "== $name $mod start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -f "$name wall %e s, user %U s, sys %S s" nice -n 10 bench/applicability.sh -budget 60s -seed 1 -out /tmp/suites31/$name $mod > /tmp/suites31/$name.log 2>&1
  echo "rc=$? end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; tail -1 /tmp/suites31/$name.log
done

#!/usr/bin/env bash
# after spare.sh: amqp's stopped tests alone with the whole budget; explore's kernel tests and rt's tests on the fix
while pgrep -f /tmp/suites31/spare.sh >/dev/null; do sleep 5; done
export CGO_ENABLED=1 GOFLAGS=-mod=mod GOWORK=off
d=/tmp/suites31/amqp/github.com_rabbitmq_amqp091-go_v1.16.0
echo "== amqp-alone start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
(cd $d/src && nice -n 10 /tmp/suites31/amqp/bin/interleave test -budget 60s -seed 1 -run '^(TestReconnectAbortsWhenCloseWonTheRace|TestReconnectChannelAbortsWhenCloseWonTheRace|TestNotifyClosesAllChansAfterConnectionClose|TestConfirmsIsThreadSafe)$' . > /tmp/suites31/amqp-alone.txt 2>&1; echo "exit $?" >> /tmp/suites31/amqp-alone.txt)
echo "end $(date -u +%T)"; tail -2 /tmp/suites31/amqp-alone.txt
unset GOFLAGS GOWORK
cd /work/wt/suites31
echo "== kerneltest start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "kerneltest wall %e s, user %U s" nice -n 10 go test -count=1 ./checks/dynamic/explore/kerneltest > /tmp/suites31/kerneltest.txt 2>&1; echo "exit $?"; tail -3 /tmp/suites31/kerneltest.txt
echo "== rt start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "rt wall %e s, user %U s" nice -n 10 go test -count=1 ./checks/dynamic/rt > /tmp/suites31/rt.txt 2>&1; echo "exit $?"; tail -3 /tmp/suites31/rt.txt
echo "done $(date -u +%T)"

#!/usr/bin/env bash
c=6b6e2e32
for mv in github.com/vikstrous/dataloadgen@v0.0.10 github.com/looplab/fsm@v1.0.3 github.com/hashicorp/go-retryablehttp@v0.7.8 github.com/VictoriaMetrics/metrics@v1.45.0 github.com/DeRuina/timberjack@v1.4.10 github.com/deckarep/golang-set/v2@v2.9.0 github.com/vbauerster/mpb/v8@v8.16.2 go.uber.org/fx@v1.24.0 github.com/cilium/statedb@v0.9.4; do
  [ -e /tmp/suites29/STOP ] && break
  /tmp/suites29/run.sh $c "$(echo "$mv" | cut -d@ -f1 | tr '/' '_')" "$mv"
done

#!/bin/sh
# IL1001/IL1007 on the 2026-11-29b sample's modules that ran fast, one at a time.
B=/tmp/precision-bin/interleave
for m in github.com_eclipse_paho.golang@v0.23.0 github.com_tarantool_go-tarantool_v3@v3.0.2 github.com_gliderlabs_ssh@v0.3.8 github.com_emersion_go-imap_v2@v2.0.0-beta.8 github.com_schollz_croc_v10@v10.7.0 github.com_hashicorp_mdns@v1.0.7 github.com_gopcua_opcua@v0.8.0 github.com_hanwen_go-fuse_v2@v2.12.1 github.com_go-rod_rod@v0.116.2 github.com_riverqueue_river@v0.51.2 github.com_superfly_litefs@v0.5.14 github.com_plgd-dev_go-coap_v3@v3.8.0 github.com_osrg_gobgp_v3@v3.37.0; do
  if [ -f /tmp/precision-il1001/stop ]; then echo "stopped before $m"; break; fi
  start=$(date +%s)
  (cd /tmp/interleave-sample-2026-11-29b/$m/src && GOWORK=off GOFLAGS=-mod=mod timeout 300 nice -n 10 $B check -disable all -enable IL1001,IL1007 ./... > /tmp/precision-il1001/$m.txt 2> /tmp/precision-il1001/$m.err)
  rc=$?
  echo "$m rc=$rc $(( $(date +%s) - start ))s findings=$(grep -c ': IL100[17] ' /tmp/precision-il1001/$m.txt)"
done

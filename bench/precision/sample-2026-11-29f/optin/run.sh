#!/usr/bin/env bash
# Opt-in pass of sample 2026-11-29f: finished modules in list order, -enable all,
# 300 s each, none started from 22:35 UTC.
for m in periph.io_x_conn_v3@v3.7.3 zombiezen.com_go_sqlite@v1.4.2 github.com_seaweedfs_go-fuse_v2@v2.9.4 go.uber.org_fx@v1.24.0 github.com_reviewdog_reviewdog@v0.21.0 github.com_aws_aws-lambda-runtime-interface-emulator@v0.0.0-20261030222936-bef5c4ba774d github.com_silenceper_wechat_v2@v2.1.10 github.com_VictoriaMetrics_VictoriaLogs@v1.52.1 go.mau.fi_util@v0.11.0; do
  [[ "$(date -u +%H:%M)" < "22:35" ]] || { echo "not run: $m"; continue; }
  s=$SECONDS
  (cd /tmp/sample-f-run/$m/src && GOWORK=off GOFLAGS=-mod=mod timeout -k 10 300 nice -n 10 /tmp/sample-f-bin/interleave check -enable all -format json -o /tmp/sample-f-optin/$m.json ./... 2>/tmp/sample-f-optin/$m.stderr); rc=$?
  echo "$m rc=$rc $((SECONDS-s))s $(jq -r '[.findings[]?.rule]|group_by(.)|map("\(.[0])x\(length)")|join(" ")' /tmp/sample-f-optin/$m.json 2>/dev/null)"
done

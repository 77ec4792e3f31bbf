#!/usr/bin/env bash
# Opt-in pass of sample 2026-11-30a (after the default run ended): the
# modules whose default check finished, the one with default findings
# first, then list order; -enable all, 300 s each, none started from
# 01:10 UTC. Writes findings-<module>.txt here.
here="$(cd "$(dirname "$0")" && pwd)"
for m in go.podman.io_image_v5@v5.42.1 filippo.io_torchwood@v0.6.1 github.com_mgechev_revive@v1.17.0 github.com_a-h_templ@v0.3.1100 github.com_tencentcloud_tencentcloud-sdk-go_tencentcloud_common@v1.3.211 github.com_VictoriaMetrics_metricsql@v0.87.3 github.com_segmentio_encoding@v0.5.4 github.com_pk910_dynamic-ssz@v1.4.0 github.com_gabriel-vasile_mimetype@v1.4.16 github.com_google_uuid@v1.6.0; do
  [[ "$(date -u +%H:%M)" < "01:10" ]] || { echo "not run: $m"; continue; }
  s=$SECONDS
  (cd /tmp/sample-a-run/$m/src && GOWORK=off GOFLAGS=-mod=mod timeout -k 10 300 nice -n 10 /tmp/sample-a-bin/interleave check -enable all -format json -o /tmp/sample-a-optin/$m.json ./... 2>/tmp/sample-a-optin/$m.stderr); rc=$?
  echo "$m rc=$rc $((SECONDS-s))s $(jq -r '[.findings[]?.rule]|group_by(.)|map("\(.[0])x\(length)")|join(" ")' /tmp/sample-a-optin/$m.json 2>/dev/null)"
  [ -s /tmp/sample-a-optin/$m.json ] && jq -r '.findings | sort_by(.pos.file, .pos.line, .pos.column, .rule)[] | "\(.pos.file):\(.pos.line):\(.pos.column): \(.rule) \(.message)", (.related // [] | .[] | "\t\(.file):\(.line):\(.column): \(.message)")' /tmp/sample-a-optin/$m.json >"$here/findings-$m.txt"
done

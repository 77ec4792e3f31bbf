#!/bin/sh
# IL1001, IL1007 and IL1008 on the modules whose opt-in IL1001/IL1007
# findings earlier sessions triaged (il1001-2026-11-29b, sample-2026-11-29f
# and sample-2026-11-30a opt-in rows), one at a time: which triaged
# findings IL1008 keeps. Usage: BIN=path/to/interleave run.sh OUTDIR
set -u
B=${BIN:?BIN=interleave binary}
OUT=${1:?output directory}
mkdir -p "$OUT"
for mv in github.com/eclipse/paho.golang@v0.23.0 github.com/gliderlabs/ssh@v0.3.8 github.com/emersion/go-imap/v2@v2.0.0-beta.8 github.com/schollz/croc/v10@v10.7.0 github.com/gopcua/opcua@v0.8.0 github.com/hanwen/go-fuse/v2@v2.12.1 github.com/superfly/litefs@v0.5.14 github.com/osrg/gobgp/v3@v3.37.0 go.uber.org/fx@v1.24.0 github.com/reviewdog/reviewdog@v0.21.0 github.com/pk910/dynamic-ssz@v1.4.0; do
  name=$(echo "$mv" | tr '/' '_')
  dir=$(GOFLAGS=-mod=mod go mod download -json "$mv" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [ -z "$dir" ]; then echo "$mv: not served"; continue; fi
  src=$OUT/src/$name
  if [ ! -d "$src" ]; then mkdir -p "$OUT/src" && cp -r "$dir" "$src" && chmod -R u+w "$src"; fi
  start=$(date +%s)
  (cd "$src" && GOWORK=off GOFLAGS=-mod=mod timeout 600 nice -n 10 "$B" check -disable all -enable IL1001,IL1007,IL1008 ./... > "$OUT/$name.txt" 2> "$OUT/$name.err")
  rc=$?
  echo "$mv rc=$rc $(( $(date +%s) - start ))s IL1001=$(grep -c ': IL1001 ' "$OUT/$name.txt") IL1007=$(grep -c ': IL1007 ' "$OUT/$name.txt") IL1008=$(grep -c ': IL1008 ' "$OUT/$name.txt")"
done

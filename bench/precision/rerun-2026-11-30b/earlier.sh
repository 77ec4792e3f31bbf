#!/usr/bin/env bash
# earlier.sh BIN OUT re-runs `interleave check` (default settings) on the
# packages holding the true IL2002/IL2003/IL3002 findings of the earlier
# samples (2026-11-29b to 29e), one at a time under nice -n 10, and writes
# one line per finding (module file:line rule) to OUT/all.txt. Used with
# run.sh here to show a lockpair/atomicmix change keeps them.
#
# Usage: bench/precision/rerun-2026-11-30b/earlier.sh BIN OUT
set -u
BIN=$1; OUT=$2; mkdir -p "$OUT"; : > "$OUT/all.txt"
while read -r mv pkg; do
  dir="$(GOFLAGS=-mod=mod go mod download -json "$mv" | jq -r .Dir)"
  name="${mv//\//_}"; src="$OUT/src/$name"
  if [ ! -d "$src" ]; then mkdir -p $OUT/src; cp -r "$dir" "$src"; chmod -R u+w "$src"; (cd "$src" && GOFLAGS=-mod=mod go mod download all >/dev/null 2>&1 || true); fi
  start=$SECONDS
  (cd "$src" && GOWORK=off GOFLAGS=-mod=mod nice -n 10 "$BIN" check -format json -o "$OUT/$name.json" "$pkg" 2>"$OUT/$name.stderr")
  jq -r --arg m "$mv" '.findings[]? | "\($m) \(.pos.file):\(.pos.line) \(.rule)"' "$OUT/$name.json" >> "$OUT/all.txt"
  echo "$mv $pkg $((SECONDS-start)) s load $(cut -d' ' -f1 /proc/loadavg)" >&2
done <<'LIST'
github.com/mark3labs/mcp-go@v1.2.1 ./server
k8s.io/apimachinery@v0.37.2 ./pkg/util/wait
github.com/gofiber/fiber/v2@v2.52.15 ./middleware/session
github.com/modelcontextprotocol/go-sdk@v1.8.0 ./oauthex
github.com/lesismal/llib@v1.2.5 ./std/crypto/tls
github.com/gopcua/opcua@v0.8.0 ./server
LIST

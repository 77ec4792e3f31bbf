#!/bin/sh
# Runs `interleave gen` over real modules from the Go module proxy: each is
# downloaded, copied to a scratch directory (the module cache is read-only)
# and searched with BUDGET (default 120s) per module. The reports go to
# $OUT (default /tmp/interleave-gen-real); triage is in docs/gen.md.
# Usage: bench/gen/realmods.sh [module@version[:pkg,pkg...] ...]
# (packages relative to the module root; default ./...)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
budget=${BUDGET:-120s}
out=${OUT:-/tmp/interleave-gen-real}
mkdir -p "$out"
bin="$out/interleave"
(cd "$root" && go build -o "$bin" ./cmd/interleave)
[ $# -gt 0 ] || set -- github.com/hashicorp/golang-lru/v2@v2.0.7 github.com/go-openapi/swag/jsonname@v0.25.5 \
	github.com/dgraph-io/ristretto/v2@v2.4.2 \
	k8s.io/utils@v0.0.0-20260108192941-914a6e750570:./lru,./cpuset
for arg in "$@"; do
	mv=${arg%%:*}
	pkgs=./...
	case "$arg" in *:*) pkgs=$(echo "${arg#*:}" | tr ',' ' ') ;; esac
	dir=$(cd "$out" && go mod download -json "$mv" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
	name=$(echo "$mv" | tr '/@' '__')
	work="$out/$name"
	rm -rf "$work"
	cp -r "$dir" "$work"
	chmod -R u+w "$work"
	echo "== $mv"
	(cd "$work" && "$bin" gen -v -seed 1 -budget "$budget" -format json -o "$out/$name.json" $pkgs 2>"$out/$name.log") || true
	grep "^interleave gen: [a-z].*generated\|finding(s), seed\|dropped" "$out/$name.log" || tail -5 "$out/$name.log"
done

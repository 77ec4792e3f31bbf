#!/usr/bin/env bash
# sample-02i.sh reproduces the precision sample 2026-12-02i (issue 24; the
# rule: sample-2026-12-02i/RULE.md): default rules only, on a new source,
# Debian's packaged Go libraries (the golang-*-dev packages of the apt
# lists this machine has after `apt-get update`, their Homepage field read
# as an import path), the module at the proxy's latest version, minus every
# path a sample listed, drew or named and named paths. Rows with ≥ 10
# lock/atomic lines, in an order fixed by a seed; sample-02h.sh's packages,
# warm-up, check and watchdog. A thin wrapper over samplegraph.sh.
#
# Usage: GOMODCACHE=/tmp/sample/modcache bench/precision/sample-02i.sh debian|candidates|precount|list|select
#        GOMODCACHE=/tmp/sample/modcache GOCACHE=/tmp/sample/gocache \
#          BIN=/tmp/sample/bin/interleave BIN_COMMIT=<commit> \
#          bench/precision/sample-02i.sh run|render
set -euo pipefail
dir0="$(cd "$(dirname "$0")" && pwd)"
SAMPLE=2026-12-02i
here="$dir0/sample-$SAMPLE"
STOP="${STOP:-2026-12-02 19:25 UTC}"
KILLAT="${KILLAT:-2026-12-02 19:32 UTC}"
OUT="${OUT:-/tmp/sample/run}"
. "$dir0/samplegraph.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# latest1 PATH: the module that provides PATH at the proxy's latest
# version (go list -m -json PATH@latest), or a failure line.
latest1() {
	local j
	j="$(cd "$tmp" && GOFLAGS=-mod=mod timeout 120 go list -m -json "$1@latest" 2>/dev/null)" || j=
	if [ -z "$j" ]; then
		printf '%s\t\tlatest-failed\n' "$1"
		return
	fi
	printf '%s\t%s\t%s\n' "$1" "$(jq -r .Path <<<"$j")" "$(jq -r .Version <<<"$j")"
}

case "${1:-}" in
debian)
	# debian.tsv: package, version, homepage, import path (empty when the
	# homepage is not one: RULE.md step 1).
	mkdir -p "$here"
	apt-cache search --names-only '^golang-.*-dev$' | cut -d' ' -f1 | sort -u >"$tmp/pkgs"
	# shellcheck disable=SC2046
	apt-cache show $(cat "$tmp/pkgs") | awk '
		/^Package:/ { p = $2 } /^Version:/ { v = $2 } /^Homepage:/ { h = $2 }
		/^$/ { if (p != "" && !(p in seen)) { seen[p] = 1; print p "\t" v "\t" h }; p = v = h = "" }' |
		python3 -c '
import re, sys
hosts3 = ("github.com", "gitlab.com", "bitbucket.org", "git.sr.ht", "codeberg.org")
hostsp = ("gopkg.in", "golang.org", "google.golang.org", "go.uber.org", "modernc.org",
          "cloud.google.com", "k8s.io", "sigs.k8s.io", "go.etcd.io", "go.opentelemetry.io",
          "honnef.co", "mvdan.cc", "go4.org", "gvisor.dev", "inet.af", "tailscale.com")
for line in sys.stdin:
    p, v, h = (line.rstrip("\n").split("\t") + ["", ""])[:3]
    u = re.sub(r"^https?://(www\.)?", "", h.strip()).rstrip("/")
    u = re.sub(r"\.git$", "", u)
    u = re.sub(r"^(godoc\.org|pkg\.go\.dev)/", "", u)
    parts = u.split("/")
    ip = ""
    if parts[0] in hosts3 and len(parts) >= 3:
        ip = "/".join(parts[:3]).lower() if parts[0] != "github.com" else "/".join(parts[:3])
    elif parts[0] in hostsp and len(parts) >= 2 and not re.search(r"[?#]", u):
        ip = u
    print(f"{p}\t{v}\t{h}\t{ip}")
' | sort >"$here/debian.tsv"
	echo "packages $(wc -l <"$here/debian.tsv"), with an import path $(awk -F'\t' '$4 != ""' "$here/debian.tsv" | wc -l)" >&2
	;;
candidates)
	# Out: every path any sample listed or drew (drawn) or named (column 1
	# of every named*.tsv); then named.tsv (the named test); a seeded 300
	# of the unnamed import paths; then each one's module at @latest.
	for f in "$dir0"/sample-*/named*.tsv; do [ "${f%/*}" = "$here" ] || cut -f1 "$f"; done >"$tmp/levels"
	{ cat "$tmp/levels"; drawn; } | sort -u >"$tmp/out"
	awk -F'\t' '$4 != "" { print $4 }' "$here/debian.tsv" | sort -u |
		awk 'NR == FNR { out[$1] = 1; next } !($1 in out)' "$tmp/out" - |
		awk '{ print $1 "\tdebian" }' >"$tmp/paths.tsv"
	named "$tmp/paths.tsv" "$tmp/named.tsv"
	cp "$tmp/named.tsv" "$here/named.tsv"
	awk -F'\t' '$3 == "unnamed" { print $1 }' "$tmp/named.tsv" >"$tmp/unnamed"
	seeded 300 2026120242 "$tmp/unnamed" "$tmp/drawn"
	export -f latest1
	export tmp
	xargs -P 4 -L 1 bash -c 'latest1 "$0"' <"$tmp/drawn" | sort >"$here/latest.tsv"
	# A module reached twice, or already out, is taken once or not at all.
	awk -F'\t' '$3 ~ /^v/ { print $2 "\t" $3 }' "$here/latest.tsv" | sort -u |
		awk -F'\t' 'NR == FNR { out[$1] = 1; next } !($1 in out) && !seen[$1]++' "$tmp/out" - >"$tmp/mods"
	named "$tmp/mods" "$tmp/named2.tsv"
	awk -F'\t' '$3 == "unnamed" { print $1 "\t" $2 }' "$tmp/named2.tsv" >"$here/candidates.tsv"
	echo "paths not out $(wc -l <"$tmp/paths.tsv"), unnamed $(wc -l <"$tmp/unnamed"), drawn $(wc -l <"$tmp/drawn"), latest-failed $(grep -c latest-failed "$here/latest.tsv" || true), candidates $(wc -l <"$here/candidates.tsv")" >&2
	;;
precount) precount candidates.tsv precount.tsv ;;
list) seeded_list precount.tsv:2026120243 ;;
select) SAMPLE=$SAMPLE exec "$dir0/sample-30g.sh" select ;;
render) graph_loop render ;;
run) graph_run "$0" ;;
loop)
	echo $$ >"$OUT/loop.pid" # setsid made it the session's leader: its id is the session's
	graph_loop run
	;;
*) echo "usage: sample-02i.sh debian|candidates|precount|list|select|run|render" >&2; exit 2 ;;
esac

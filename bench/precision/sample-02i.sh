#!/usr/bin/env bash
# sample-02i.sh reproduces the precision sample 2026-12-02i (issue 24; the
# rule: sample-2026-12-02i/RULE.md): default rules only, on Debian's packaged
# Go libraries (the golang-*-dev packages of the local apt index), minus every
# path a sample listed, drew or named; a seeded 200 resolved at the proxy's
# latest version; rows with ≥ 10 lock/atomic lines in a seeded order;
# sample-02h.sh's packages, warm-up, check and watchdog. A thin wrapper over
# samplegraph.sh.
#
# Usage: GOMODCACHE=/tmp/sample/modcache bench/precision/sample-02i.sh candidates|candidates-b|precount|precount-b|list|list-ab|select
#        GOMODCACHE=/tmp/sample/modcache GOCACHE=/tmp/sample/gocache \
#          BIN=/tmp/sample/bin/interleave BIN_COMMIT=<commit> OUT=/tmp/sample/run-i \
#          bench/precision/sample-02i.sh run|render
set -euo pipefail
dir0="$(cd "$(dirname "$0")" && pwd)"
SAMPLE=2026-12-02i
here="$dir0/sample-$SAMPLE"
STOP="${STOP:-2026-12-02 19:25 UTC}"
KILLAT="${KILLAT:-2026-12-02 19:32 UTC}"
OUT="${OUT:-/tmp/sample/run-i}"
. "$dir0/samplegraph.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# debian_paths: path TAB package, one line a path (RULE.md step 1), from the
# local binary package index; unusable packages go to debian-out.tsv.
debian_paths() {
	for f in /var/lib/apt/lists/*_Packages.lz4; do lz4cat "$f"; echo; done | python3 -c '
import re, sys
out, bad = {}, []
for st in sys.stdin.read().split("\n\n"):
    f = {}
    for line in st.splitlines():
        m = re.match(r"([A-Za-z-]+): ?(.*)", line)
        if m:
            f[m.group(1)] = m.group(2).strip()
    pkg = f.get("Package", "")
    if not (pkg.startswith("golang-") and pkg.endswith("-dev")):
        continue
    path = f.get("Go-Import-Path", "").split(",")[0].strip()
    if not path:
        h = f.get("Homepage", "")
        h = re.sub(r"^[a-z+]+://", "", h)
        h = re.sub(r"^www\.", "", h).rstrip("/")
        h = re.sub(r"\.git$", "", h)
        parts = h.split("/")
        if parts[0] in ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org"):
            parts = parts[:3]
        path = "/".join(parts) if len(parts) > 1 and "." in parts[0] else ""
    if not path:
        bad.append(pkg + "\t" + f.get("Homepage", "-") + "\tno import path\n")
        continue
    out.setdefault(path, set()).add(pkg)
sys.stdout.write("".join(p + "\t" + ",".join(sorted(v)) + "\n" for p, v in sorted(out.items())))
open(sys.argv[1], "w").write("".join(sorted(set(bad))))
' "$here/debian-out.tsv"
}

# latest1 PATH: PATH TAB module TAB version, or PATH TAB TAB TAB failed.
latest1() {
	local j
	j="$(cd "$tmp" && GOFLAGS=-mod=mod timeout 60 go list -m -json "$1@latest" 2>/dev/null)" || j=
	if [ -z "$j" ]; then
		printf '%s\t\t\tfailed\n' "$1"
		return
	fi
	printf '%s\t%s\t%s\tok\n' "$1" "$(jq -r .Path <<<"$j")" "$(jq -r .Version <<<"$j")"
}

# resolve_drawn DRAWN RESOLVED CANDIDATES: each drawn path at the proxy's
# latest (RESOLVED, in $here); the resolved modules neither out ($tmp/out)
# nor named are the CANDIDATES (in $here).
resolve_drawn() {
	export -f latest1
	export tmp
	mkdir -p "$tmp/res"
	awk '{ print $1 "\t" NR }' "$1" | xargs -P 4 -L 1 bash -c 'latest1 "$0" >"$tmp/res/$1"'
	cat "$tmp"/res/* /dev/null | sort >"$here/$2"
	# The resolved module must not be out or named either.
	awk -F'\t' '$4 == "ok" { print $2 "\t" $3 }' "$here/$2" | sort -u >"$tmp/mods"
	named "$tmp/mods" "$tmp/modnamed"
	awk -F'\t' 'NR == FNR { out[$1] = 1; next } !($1 in out) && $3 == "unnamed" { print $1 "\t" $2 }' "$tmp/out" "$tmp/modnamed" >"$here/$3"
}

case "${1:-}" in
candidates)
	mkdir -p "$here"
	debian_paths >"$here/debian.tsv"
	{ for f in "$dir0"/sample-*/named*.tsv; do [ "${f%/*}" = "$here" ] || cut -f1 "$f"; done; drawn; } | sort -u >"$tmp/out"
	cut -f1 "$here/debian.tsv" | awk -F'\t' 'NR == FNR { out[$1] = 1; next } !($1 in out) { print $1 "\t-" }' "$tmp/out" - >"$tmp/new.tsv"
	named "$tmp/new.tsv" "$here/named.tsv"
	awk -F'\t' '$3 == "unnamed" { print $1 }' "$here/named.tsv" >"$tmp/unnamed"
	seeded 200 2026120242 "$tmp/unnamed" "$tmp/drawn200"
	resolve_drawn "$tmp/drawn200" resolved.tsv candidates.tsv
	echo "debian paths $(wc -l <"$here/debian.tsv"), no path $(wc -l <"$here/debian-out.tsv"), not out $(wc -l <"$tmp/new.tsv"), unnamed $(wc -l <"$tmp/unnamed"), drawn $(wc -l <"$tmp/drawn200"), resolved $(grep -c $'\tok$' "$here/resolved.tsv"), candidates $(wc -l <"$here/candidates.tsv")" >&2
	;;
candidates-b)
	# RULE.md step 10: a seeded 300 of the unnamed paths step 3 did not draw.
	{ for f in "$dir0"/sample-*/named*.tsv; do [ "${f%/*}" = "$here" ] || cut -f1 "$f"; done; drawn; } | sort -u >"$tmp/out"
	cut -f1 "$here/candidates.tsv" >>"$tmp/out"
	cut -f1 "$here/resolved.tsv" >"$tmp/drawn200"
	awk -F'\t' '$3 == "unnamed" { print $1 }' "$here/named.tsv" | grep -vxFf "$tmp/drawn200" >"$tmp/rest" || true
	seeded 300 2026120244 "$tmp/rest" "$tmp/drawn300"
	resolve_drawn "$tmp/drawn300" resolved-b.tsv candidates-b.tsv
	echo "rest $(wc -l <"$tmp/rest"), drawn $(wc -l <"$tmp/drawn300"), resolved $(grep -c $'\tok$' "$here/resolved-b.tsv"), candidates-b $(wc -l <"$here/candidates-b.tsv")" >&2
	;;
precount) precount candidates.tsv precount.tsv ;;
precount-b) precount candidates-b.tsv precount-b.tsv ;;
list) seeded_list precount.tsv:2026120243 ;;
list-ab) seeded_list precount.tsv:2026120243 precount-b.tsv:2026120245 ;;
select) SAMPLE=$SAMPLE exec "$dir0/sample-30g.sh" select ;;
render) graph_loop render ;;
run) graph_run "$0" ;;
loop)
	echo $$ >"$OUT/loop.pid" # setsid made it the session's leader: its id is the session's
	graph_loop run
	;;
*) echo "usage: sample-02i.sh candidates|candidates-b|precount|precount-b|list|list-ab|select|run|render" >&2; exit 2 ;;
esac

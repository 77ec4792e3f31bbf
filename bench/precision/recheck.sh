#!/usr/bin/env bash
# recheck.sh re-runs `interleave check` (default rules) on modules of a
# sample, in copies, to see which of the sample's findings are still
# reported. Each line of stdin is "module@version package-patterns..."
# (as a sample's packages.md names them); each module is fetched from the
# module proxy, copied to $OUT/<module@version>/src and prepared as
# samplerun.sh does (go mod init without go.mod, relative replaces
# dropped, go mod download all or tidy), then checked with $BIN.
# Output: $OUT/<name>/findings.txt (text format, as the samples' lists),
# stderr, time; one line per module in $OUT/log.
#
# Usage: BIN=/path/to/interleave OUT=/tmp/dir bench/precision/recheck.sh <list
set -u
: "${BIN:?BIN: the interleave binary to run}" "${OUT:?OUT: the output directory}"
[ -x "$BIN" ] || { echo "recheck.sh: $BIN is not executable" >&2; exit 2; }
mkdir -p "$OUT"
while read -r mv pkgs; do
	[ -z "$mv" ] && continue
	name=${mv//\//_}
	dir=$(go mod download -json "$mv" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])') || {
		echo "$mv: download failed" >>"$OUT/log"
		continue
	}
	rm -rf "${OUT:?}/$name"
	mkdir -p "$OUT/$name"
	cp -r "$dir"/. "$OUT/$name/src"
	chmod -R u+w "$OUT/$name/src"
	(cd "$OUT/$name/src" && {
		if [ ! -e go.mod ]; then GOFLAGS=-mod=mod go mod init "${mv%@*}" >/dev/null 2>&1; fi
		for r in $(sed -n 's#^[[:space:]]*\(replace[[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\)\([[:space:]]v[^[:space:]]*\)\{0,1\}[[:space:]]*=>[[:space:]]*\.\{1,2\}/.*#\2#p' go.mod); do
			go mod edit -dropreplace="$r"
		done
		GOFLAGS=-mod=mod timeout 300 go mod download all >/dev/null 2>&1 || GOFLAGS=-mod=mod timeout 300 go mod tidy >/dev/null 2>&1 || true
	})
	start=$(date -u +%T)
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	# shellcheck disable=SC2086
	(cd "$OUT/$name/src" && GOWORK=off GOFLAGS=-mod=mod /usr/bin/time -f "%e s wall, %U+%S s CPU" -o "$OUT/$name/time" \
		timeout 900 nice -n 10 "$BIN" check $pkgs >"$OUT/$name/findings.txt" 2>"$OUT/$name/stderr")
	rc=$?
	echo "$mv [$pkgs] exit $rc, start $start, load $load: $(tail -1 "$OUT/$name/time"), $(grep -c ': IL' "$OUT/$name/findings.txt") findings" >>"$OUT/log"
done

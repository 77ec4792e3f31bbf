#!/bin/sh
# duplicates.sh [REV] — the figures of docs/duplicates.md: runs the
# `duplicates` command (the session tool library's; not in this repository)
# on the tree at REV (default: the working tree, untracked files included)
# four ways: whole, without testdata (and bench/recall/k), each with Go
# import blocks kept and blanked (line numbers kept). It prints each run's
# count line and writes the full lists to $OUT (default /tmp/duplicates).
set -eu
command -v duplicates >/dev/null || { echo "duplicates.sh: no duplicates command on PATH" >&2; exit 2; }
rev=${1:-}
out=${OUT:-/tmp/duplicates}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out" "$tmp/src"
cd "$root"
if [ -n "$rev" ]; then
	git archive "$rev" | tar -x -C "$tmp/src"
else
	{ git ls-files; git ls-files --others --exclude-standard; } | sort -u | while read -r f; do
		[ -f "$f" ] || continue
		mkdir -p "$tmp/src/$(dirname "$f")"
		cp "$f" "$tmp/src/$f"
	done
fi
blank() {
	find "$1" -name '*.go' | while read -r f; do
		awk '
			inimp { if ($0 ~ /^\)/) inimp = 0; print ""; next }
			/^import \($/ { inimp = 1; print ""; next }
			/^import[ \t]+([A-Za-z_.]+[ \t]+)?"/ { print ""; next }
			{ print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	done
}
for mode in all notestdata; do
	for imports in kept blanked; do
		d=$tmp/$mode-$imports
		cp -r "$tmp/src" "$d"
		if [ $mode = notestdata ]; then
			find "$d" -type d -name testdata -prune -exec rm -rf {} +
			rm -rf "$d/bench/recall/k"
		fi
		[ $imports = blanked ] && blank "$d"
		duplicates --repo "$d" --most 200 --seconds 300 | sed "s#$d/##g" >"$out/$mode-$imports.txt"
		printf '%s, imports %s: %s\n' $mode $imports "$(head -1 "$out/$mode-$imports.txt")"
		rm -rf "$d"
	done
done

#!/usr/bin/env bash
# Copies each run's summary (as printed) and times.txt from /tmp/applic25
# into this directory.
here="$(cd "$(dirname "$0")" && pwd)"
for s in /tmp/applic25/*/summary.md; do
	name="$(basename "$(dirname "$s")")"
	cp "$s" "$here/$name-summary.md"
done
cp /tmp/applic25/times.txt "$here/times.txt"
for t in /tmp/applic25/time-*.txt; do echo "$(basename "$t" .txt): $(cat "$t")"; done >"$here/time-files.txt"

#!/usr/bin/env bash
# Copies each run's summary (as printed) and times.txt from /tmp/applic26
# into this directory.
here="$(cd "$(dirname "$0")" && pwd)"
for s in /tmp/applic26/*/summary.md; do
	name="$(basename "$(dirname "$s")")"
	cp "$s" "$here/$name-summary.md"
done
cp /tmp/applic26/times.txt "$here/times.txt"
for t in /tmp/applic26/time-*.txt; do echo "$(basename "$t" .txt): $(cat "$t")"; done >"$here/time-files.txt"

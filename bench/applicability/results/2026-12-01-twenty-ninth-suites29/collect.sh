#!/usr/bin/env bash
# Copies each run's summary (paths as printed), the replay logs, the stress runs and times into the results dir.
dst=/work/wt/suites29/bench/applicability/results/2026-12-01-twenty-ninth-suites29
cd /tmp/suites29
for d in */; do
  [ -f "$d/summary.md" ] || continue
  name="${d%/}"
  sub=$(ls -d "$d"/*/ | grep -v '/bin/$' | head -1)
  cp "$d/summary.md" "$dst/$name-summary.md"
  [ -f "$d/commit" ] && git -C /work/wt/suites29 rev-parse --short "$(cat $d/commit)" > /dev/null 2>&1 && echo "$name $(cut -c1-8 $d/commit)" >> "$dst/commits.txt.tmp"
done
sort -u "$dst/commits.txt.tmp" > "$dst/commits.txt"; rm -f "$dst/commits.txt.tmp"
cp times.txt replays-*.txt run.sh seq.sh replays.sh collect.sh "$dst/" 2>/dev/null
cp keep-hh-stress-metrics.txt "$dst/hh-plain-stress-metrics.txt" 2>/dev/null
cp hhdbg-took-*.txt "$dst/" 2>/dev/null
true

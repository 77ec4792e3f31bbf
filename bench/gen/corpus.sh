#!/bin/sh
# Runs `interleave gen` over the corpus of types that claim thread safety
# (checks/dynamic/gen/testdata/corpus) and prints found/total for the
# broken types and reports/total for the correct ones.
# BUDGET (default 150s) is the search budget; SEED (default 1) the seed.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/interleave" ./cmd/interleave)
cp -r "$root/checks/dynamic/gen/testdata/corpus" "$work/corpus"
cd "$work/corpus"
"$work/interleave" gen -seed "${SEED:-1}" -budget "${BUDGET:-150s}" -o "$work/report.txt" . 2>"$work/log" || true
broken="Balance Hits Labels Registry SortedInts UnsyncMap"
correct="Gauge List SafeMap Set"
found=0
for t in $broken; do
	if grep -q "corpus\.$t is documented as" "$work/report.txt"; then
		found=$((found + 1))
		echo "found   $t: $(grep "corpus\.$t is documented as" "$work/report.txt" | sed 's/.*, but //' | cut -c1-100 | head -1)"
	else
		echo "MISSED  $t"
	fi
done
reports=0
for t in $correct; do
	if grep -q "corpus\.$t is documented as" "$work/report.txt"; then
		reports=$((reports + 1))
		echo "FALSE   $t"
	fi
done
grep "schedules in" "$work/log"
echo "broken found: $found/$(echo $broken | wc -w)"
echo "correct reported: $reports/$(echo $correct | wc -w)"

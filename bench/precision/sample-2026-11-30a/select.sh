#!/usr/bin/env bash
# select.sh builds candidates.txt of sample 2026-11-30a (RULE.md step 1):
# rows of the package list with a version, minus every module any tracked
# file of the repository names. judged.txt (step 2) was then written by
# hand from candidates.txt, and list.md from judged.txt by "select.sh list".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
tmp="${TMP:-/tmp/sample-a-select}"
mkdir -p "$tmp"
if [ "${1:-}" = list ]; then
	python3 - "$here" <<'PY'
import sys
here = sys.argv[1]
v = dict(l.rstrip('\n').split('\t') for l in open(f'{here}/candidates.txt'))
rows = [l.strip() for l in open(f'{here}/judged.txt') if l.strip()]
assert len(rows) == len(set(rows))
with open(f'{here}/list.md', 'w') as f:
    f.write('# Sample 2026-11-30a: the modules (RULE.md step 2, in run order, fixed before any download)\n\n| # | module@version |\n|---|---|\n')
    for i, m in enumerate(rows, 1):
        f.write(f'| {i} | {m}@{v[m]} |\n')
PY
	exit 0
fi
# Every host/path string any tracked file names, except the two earlier
# lists of all candidates (each names the whole package list) and this
# sample's own files.
git -C "$repo" grep -h -o -i -E '[a-z0-9.-]+\.[a-z]+/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)?' -- . \
	':!bench/precision/sample-2026-11-29c/candidates.tsv' ':!bench/precision/sample-2026-11-29f/candidates.txt' \
	':!bench/precision/sample-2026-11-30a' | sort -u >"$tmp/named.txt"
awk -F'\t' 'NR>1 && $2 ~ /^v/ {print $1"\t"$2}' /work/.library/env/packages/go-partial.tsv >"$tmp/all.tsv"
python3 - "$tmp" "$here" <<'PY'
import sys
tmp, here = sys.argv[1], sys.argv[2]
named = open(f'{tmp}/named.txt').read().lower()
out = []
for line in open(f'{tmp}/all.tsv'):
    m, v = line.rstrip('\n').split('\t')
    parts = m.split('/')
    key = '/'.join(parts[1:3]) if len(parts) >= 3 else m
    if m.lower() in named or key.lower() in named:
        continue
    out.append((m, v))
open(f'{here}/candidates.txt', 'w').write(''.join(f'{m}\t{v}\n' for m, v in out))
PY

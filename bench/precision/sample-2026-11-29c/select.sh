#!/usr/bin/env bash
# select.sh rebuilds list.md of sample 2026-11-29c by RULE.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
tmp="${TMP:-/tmp/precision-select}"
mkdir -p "$tmp"
cd "$repo"
git grep -h -o -i -E '[a-z0-9.-]+\.[a-z]+/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)?' -- docs bench scripts checks README.md examples cmd internal report app ':!bench/precision/sample-2026-11-29c' | sort -u >"$tmp/named.txt"
awk -F'\t' 'NR>1 && $2 ~ /^v/ {print $1"\t"$2}' /work/.library/env/packages/go-partial.tsv >"$tmp/all.tsv"
python3 - "$tmp" "$here" <<'PY'
import random, subprocess, json, os, re, sys
tmp, here = sys.argv[1], sys.argv[2]
named = open(f'{tmp}/named.txt').read().lower()
cands = []
for line in open(f'{tmp}/all.tsv'):
    m, v = line.rstrip('\n').split('\t')
    parts = m.split('/')
    key = '/'.join(parts[1:3]) if len(parts) >= 3 else m
    if m.lower() in named or key.lower() in named:
        continue
    cands.append((m, v))
open(f'{here}/candidates.tsv', 'w').write(''.join(f'{m}\t{v}\n' for m, v in cands))
random.Random("2026-11-29c").shuffle(cands)
kept, rows = [], []
pat = re.compile(r'sync\.(RW)?Mutex')
for m, v in cands:
    if len(kept) >= 30:
        break
    r = subprocess.run(['go', 'mod', 'download', '-json', f'{m}@{v}'], capture_output=True, text=True, cwd=tmp)
    try:
        d = json.loads(r.stdout).get('Dir')
    except Exception:
        d = None
    if not d:
        rows.append((m, v, 'download-failed')); continue
    n = 0
    for root, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x not in ('vendor', 'testdata')]
        for f in files:
            if f.endswith('.go') and not f.endswith('_test.go'):
                with open(os.path.join(root, f), errors='replace') as fh:
                    n += sum(1 for l in fh if pat.search(l))
    rows.append((m, v, n))
    if n >= 15:
        kept.append((m, v, n))
open(f'{here}/counts.tsv', 'w').write(''.join(f'{m}\t{v}\t{n}\n' for m, v, n in rows))
with open(f'{here}/list.md', 'w') as f:
    f.write('# Sample 2026-11-29c: the modules (by RULE.md, in run order)\n\n| # | module@version | sync.Mutex/RWMutex lines |\n|---|---|---|\n')
    for i, (m, v, n) in enumerate(kept, 1):
        f.write(f'| {i} | {m}@{v} | {n} |\n')
PY

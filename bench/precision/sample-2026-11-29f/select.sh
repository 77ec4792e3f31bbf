#!/usr/bin/env bash
# select.sh builds candidates.txt and list.md of sample 2026-11-29f by
# RULE.md: candidates (step 1), then judged.txt's modules counted and
# ordered (steps 3-4); "select.sh continuation" appends judged2.txt's kept
# modules (step 7); "select.sh continuation2" appends judged3.txt's (step 8).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
tmp="${TMP:-/tmp/sample-f-select}"
mkdir -p "$tmp"
# Step 1: every host/path string any tracked file names, except the 29c
# list of all candidates then (it names the whole package list).
git -C "$repo" grep -h -o -i -E '[a-z0-9.-]+\.[a-z]+/[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)?' -- . \
	':!bench/precision/sample-2026-11-29c/candidates.tsv' ':!bench/precision/sample-2026-11-29f' | sort -u >"$tmp/named.txt"
awk -F'\t' 'NR>1 && $2 ~ /^v/ {print $1"\t"$2}' /work/.library/env/packages/go-partial.tsv >"$tmp/all.tsv"
python3 - "$tmp" "$here" "${1:-}" <<'PY'
import subprocess, json, os, re, sys
tmp, here, mode = sys.argv[1], sys.argv[2], sys.argv[3]
named = open(f'{tmp}/named.txt').read().lower()
cands = []
for line in open(f'{tmp}/all.tsv'):
    m, v = line.rstrip('\n').split('\t')
    parts = m.split('/')
    key = '/'.join(parts[1:3]) if len(parts) >= 3 else m
    if m.lower() in named or key.lower() in named:
        continue
    cands.append((m, v))
vers = dict(cands)
if mode == 'candidates':
    open(f'{here}/candidates.txt', 'w').write(''.join(f'{m}\t{v}\n' for m, v in cands))
    sys.exit(0)
cont = mode.startswith('continuation')
pat = re.compile(r'sync\.(RW)?Mutex')
rows = []
for m in (l.strip() for l in open(f'{here}/' + ({'continuation': 'judged2.txt', 'continuation2': 'judged3.txt'}.get(mode, 'judged.txt'))) if l.strip()):
    v = vers[m]  # a judged module must be a candidate
    r = subprocess.run(['go', 'mod', 'download', '-json', f'{m}@{v}'], capture_output=True, text=True, cwd=tmp)
    try:
        d = json.loads(r.stdout).get('Dir')
    except Exception:
        d = None
    if not d:
        rows.append((m, v, 'download-failed', 0)); continue
    n = lines = 0
    for root, dirs, files in os.walk(d):
        dirs[:] = [x for x in dirs if x not in ('vendor', 'testdata')]
        for f in files:
            if f.endswith('.go') and not f.endswith('_test.go'):
                with open(os.path.join(root, f), errors='replace') as fh:
                    for l in fh:
                        lines += 1
                        if pat.search(l):
                            n += 1
    rows.append((m, v, n, lines))
open(f'{here}/counts.tsv', 'a' if cont else 'w').write(''.join(f'{m}\t{v}\t{n}\t{l}\n' for m, v, n, l in rows))
kept = [r for r in rows if isinstance(r[2], int) and r[2] >= 8 and r[3] <= 100000]
order = sorted(kept, key=lambda r: (-r[2] / r[3], r[0]))
if cont:
    n0 = sum(1 for l in open(f'{here}/list.md') if re.match(r'^\| [0-9]+ \|', l))
    with open(f'{here}/list.md', 'a') as f:
        f.write('\n## Continuation (RULE.md step ' + ('8' if mode == 'continuation2' else '7') + ')\n\n| # | module@version | sync.Mutex/RWMutex lines | non-test Go lines |\n|---|---|---|---|\n')
        for i, (m, v, n, l) in enumerate(order, n0 + 1):
            f.write(f'| {i} | {m}@{v} | {n} | {l} |\n')
    sys.exit(0)
with open(f'{here}/list.md', 'w') as f:
    f.write('# Sample 2026-11-29f: the modules (by RULE.md, in run order)\n\n'
            '| # | module@version | sync.Mutex/RWMutex lines | non-test Go lines |\n|---|---|---|---|\n')
    for i, (m, v, n, l) in enumerate(order, 1):
        f.write(f'| {i} | {m}@{v} | {n} | {l} |\n')
PY

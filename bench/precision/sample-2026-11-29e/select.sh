#!/usr/bin/env bash
# select.sh builds list.md of sample 2026-11-29e from judged.txt by RULE.md;
# "select.sh continuation" appends judged2.txt's modules (RULE.md step 7).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="${TMP:-/tmp/sample-e-select}"
mkdir -p "$tmp"
awk -F'\t' 'NR>1 && $2 ~ /^v/ {print $1"\t"$2}' /work/.library/env/packages/go-partial.tsv >"$tmp/all.tsv"
python3 - "$tmp" "$here" "${1:-}" <<'PY'
import subprocess, json, os, re, sys
tmp, here, mode = sys.argv[1], sys.argv[2], sys.argv[3]
cont = mode == 'continuation' 
vers = dict(l.rstrip('\n').split('\t') for l in open(f'{tmp}/all.tsv'))
vers['github.com/go-task/task/v3'] = 'v3.54.0'
pat = re.compile(r'sync\.(RW)?Mutex')
rows = []
for m in (l.strip() for l in open(f'{here}/' + ('judged2.txt' if cont else 'judged.txt')) if l.strip()):
    v = vers[m]
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
kept = [r for r in rows if isinstance(r[2], int) and r[2] >= 8 and r[3] <= 250000]
if cont:
    n0 = sum(1 for l in open(f'{here}/list.md') if re.match(r'^\| [0-9]+ \|', l))
    rest = sorted(kept, key=lambda r: (-r[2] / r[3], r[0]))
    with open(f'{here}/list.md', 'a') as f:
        f.write('\n## Continuation (RULE.md step 7)\n\n| # | module@version | sync.Mutex/RWMutex lines | non-test Go lines |\n|---|---|---|---|\n')
        for i, (m, v, n, l) in enumerate(rest, n0 + 1):
            f.write(f'| {i} | {m}@{v} | {n} | {l} |\n')
    sys.exit(0)
first = [r for r in kept if r[0] == 'github.com/go-task/task/v3']
rest = sorted((r for r in kept if r[0] != 'github.com/go-task/task/v3'), key=lambda r: (-r[2] / r[3], r[0]))
order = first + rest + [('vitess.io/vitess', 'v0.24.4', 375, 0)]
with open(f'{here}/list.md', 'w') as f:
    f.write('# Sample 2026-11-29e: the modules (by RULE.md, in run order)\n\n'
            'vitess: mutex count from sample-2026-11-29c; not counted again (too large for the limit, last by RULE.md).\n\n'
            '| # | module@version | sync.Mutex/RWMutex lines | non-test Go lines |\n|---|---|---|---|\n')
    for i, (m, v, n, l) in enumerate(order, 1):
        f.write(f'| {i} | {m}@{v} | {n} | {l or "-"} |\n')
PY

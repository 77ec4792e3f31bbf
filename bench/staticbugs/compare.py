#!/usr/bin/env python3
# compare.py BUGS.tsv BEFORE_WORK AFTER_WORK: compare the per-bug check
# outputs (BUG-default.json, BUG-all.json) of two run.sh -work directories:
# for each bug both runs finished, per mode (default, all): findings count,
# whether a finding is at or names a buggy line, and whether the findings
# (rule, file, line, related positions) are identical.
import json, os, sys
if len(sys.argv) != 4 or not all(os.path.isdir(d) for d in sys.argv[2:4]):
    sys.exit('usage: compare.py BUGS.tsv BEFORE_WORK AFTER_WORK (two run.sh -work directories)')
tsv, a, b = sys.argv[1:4]
bugs = []
for line in open(tsv):
    if line.startswith('#') or not line.strip(): continue
    f = line.rstrip('\n').split('\t')
    locs = []
    for part in f[5].split(';'):
        fn, lines = part.rsplit(':', 1)
        locs += [(fn, int(n)) for n in lines.split(',')]
    bugs.append((f[0], set(locs)))
def load(d, bug, mode):
    p = os.path.join(d, f'{bug}-{mode}.json')
    if not os.path.exists(p): return None
    try: return json.load(open(p)).get('findings') or []
    except Exception: return None
def key(f):
    return (f['rule'], f['pos']['file'], f['pos']['line'], tuple(sorted((r['file'], r['line']) for r in f.get('related') or [])))
def found(fs, locs):
    for f in fs:
        ps = {(f['pos']['file'], f['pos']['line'])} | {(r['file'], r['line']) for r in f.get('related') or []}
        if ps & locs: return True
    return False
print('| bug | default before/after (found) | every rule before/after (found) | identical | before\'s positions neither reported nor related after |')
print('|---|---|---|---|--:|')
for bug, locs in bugs:
    row = [bug]; same = True; ok = True; lost = 0
    for mode in ('default', 'all'):
        x, y = load(a, bug, mode), load(b, bug, mode)
        if x is None or y is None: ok = False; break
        row.append(f'{len(x)}/{len(y)} ({"yes" if found(x, locs) else "no"}/{"yes" if found(y, locs) else "no"})')
        same = same and sorted(map(key, x)) == sorted(map(key, y))
        after = {(f['pos']['file'], f['pos']['line']) for f in y} | {(r['file'], r['line']) for f in y for r in f.get('related') or []}
        lost += len({(f['pos']['file'], f['pos']['line']) for f in x} - after)
    if ok: print('| ' + ' | '.join(row) + f' | {"yes" if same else "no"} | {lost} |')

"""compare.py says, for each judged default finding of judged.tsv, whether
the re-run in OUT (run.sh) still reports it: "yes" at the finding's
position, "related" as a related position of a finding of the same rule
(a grouped finding lists the other sites of one defect there), "no", or
"not run" (module missing or its check did not finish: exit not 0 or 1).
Then per rule and verdict, among the findings whose module was re-run:
findings still reported, and distinct causes or defects (a row and its
dup-of rows count once) still reported.

Usage: python3 compare.py OUT [RULES]   (RULES e.g. IL2001,IL2002)
"""

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
only = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else None

rows = []
for line in open(os.path.join(here, "judged.tsv")):
    s, n, mod, f, ln, rule, v, dup = line.rstrip("\n").split("\t")
    if only and rule not in only:
        continue
    rows.append((s, int(n), mod, f, int(ln), rule, v, int(dup) if dup else None))

reported, ran = {}, {}
for s, n, mod, f, ln, rule, v, dup in rows:
    name = mod.replace("/", "_")
    if name in ran:
        continue
    ex = os.path.join(out, name + ".exit")
    ok = os.path.exists(ex) and open(ex).read().strip() in ("0", "1")
    ran[name] = ok
    got = {}
    if ok:
        for l in open(os.path.join(out, name + ".txt")):
            p = l.split()
            k = (p[1], p[2])
            rel = len(p) > 3 and p[3] == "related"
            if not rel or k not in got:
                got[k] = "related" if rel else "yes"
    reported[name] = got

state = {}
print("| sample | # | module | finding | rule | verdict | dup of | still reported |")
print("|---|--:|---|---|---|---|--:|---|")
for s, n, mod, f, ln, rule, v, dup in rows:
    name = mod.replace("/", "_")
    st = "not run" if not ran[name] else reported[name].get((f"{f}:{ln}", rule), "no")
    state[(s, n, mod)] = st
    print(f"| {s} | {n} | {mod.split('@')[0]} | {f}:{ln} | {rule} | {v} | {dup or ''} | {st} |")

print()
by = {}
for s, n, mod, f, ln, rule, v, dup in rows:
    root = (s, dup if dup else n, mod)
    by.setdefault((rule, v), {}).setdefault(root, []).append(state[(s, n, mod)])
print("| rule | verdict | findings still reported / re-run | distinct still reported / re-run | findings not re-run |")
print("|---|---|--:|--:|--:|")
for (rule, v) in sorted(by):
    groups = [g for g in by[(rule, v)].values() if any(x != "not run" for x in g)]
    sts = [x for g in by[(rule, v)].values() for x in g]
    rerun = [x for x in sts if x != "not run"]
    kept = sum(any(x in ("yes", "related") for x in g) for g in groups)
    print(f"| {rule} | {v} | {sum(x in ('yes', 'related') for x in rerun)}/{len(rerun)} | {kept}/{len(groups)} | {len(sts) - len(rerun)} |")

# Findings of the re-run that no judged row names (new since the sample,
# or left out of it): each needs a reader before it counts either way.
judged = {(mod, f"{f}:{ln}", rule) for s, n, mod, f, ln, rule, v, dup in rows}
extra = []
for mod in sorted({r[2] for r in rows}):
    name = mod.replace("/", "_")
    if not ran[name]:
        continue
    for k, how in sorted(reported[name].items()):
        if how == "yes" and (mod, k[0], k[1]) not in judged and (not only or k[1] in only):
            extra.append(f"  {mod.split('@')[0]} {k[0]} {k[1]}")
print()
print(f"findings of the re-run that no judged row names: {len(extra)}")
print("\n".join(extra))

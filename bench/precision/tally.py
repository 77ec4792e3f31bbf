#!/usr/bin/env python3
"""tally.py prints a sample's verdict figures from its TRIAGE.md headings.

Each triaged finding is a heading `### N.M file:line:col RULE — **verdict**`
(verdict true, false or duplicate; more words may follow). A finding whose
heading says "the same ... as N.M" (one defect or one false cause at one
place with an earlier finding) or whose verdict is duplicate is not
distinct. Prints findings true/all and distinct true/all, overall and by
rule; with --base, adds the series figures before this sample (RULE
t/n dt/dn ..., "all" for the total).

Usage: bench/precision/tally.py TRIAGE.md [--base 'all 42/56 37/47 IL1008 18/20 17/19 ...']
"""
import re
import sys
from collections import defaultdict

head = re.compile(r"^### (\d+\.\d+) \S+ (IL\d{4}) — \*\*(true|false|duplicate)\*\*(.*)$")
rows = []
for line in open(sys.argv[1], encoding="utf-8"):
    m = head.match(line.rstrip("\n"))
    if m:
        num, rule, verdict, rest = m.groups()
        distinct = verdict != "duplicate" and not re.search(r"the same .* as \d+\.\d+", rest)
        rows.append((num, rule, verdict, distinct))

def fig(rs):
    t = sum(1 for r in rs if r[2] == "true")
    dt = sum(1 for r in rs if r[2] == "true" and r[3])
    dn = sum(1 for r in rs if r[3])
    return t, len(rs), dt, dn

def pct(a, b):
    return f"{100 * a / b:.0f}%" if b else "-"

by = defaultdict(list)
for r in rows:
    by[r[1]].append(r)
print("rule\tfindings true/all\tdistinct true/all")
for rule in sorted(by):
    t, n, dt, dn = fig(by[rule])
    print(f"{rule}\t{t}/{n}\t{dt}/{dn}")
t, n, dt, dn = fig(rows)
print(f"all\t{t}/{n} ({pct(t, n)})\t{dt}/{dn} ({pct(dt, dn)})")

if "--base" in sys.argv:
    w = sys.argv[sys.argv.index("--base") + 1].split()
    base = {}
    for i in range(0, len(w), 3):
        a, b = (int(x) for x in w[i + 1].split("/"))
        c, d = (int(x) for x in w[i + 2].split("/"))
        base[w[i]] = [a, b, c, d]
    print("\nseries with this sample")
    print("rule\tfindings true/all\tdistinct true/all")
    for rule in sorted(set(base) - {"all"} | set(by)):
        b = base.get(rule, [0, 0, 0, 0])
        f = fig(by.get(rule, []))
        s = [b[i] + f[i] for i in range(4)]
        print(f"{rule}\t{s[0]}/{s[1]}\t{s[2]}/{s[3]}")
    b = base["all"]
    s = [b[0] + t, b[1] + n, b[2] + dt, b[3] + dn]
    print(f"all\t{s[0]}/{s[1]} ({pct(s[0], s[1])})\t{s[2]}/{s[3]} ({pct(s[2], s[3])})")

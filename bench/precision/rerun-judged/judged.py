"""judged.py lists every default finding judged in the independent samples
(bench/precision/sample-2026-11-29* and sample-2026-11-30*), one a line:

    sample  id  module@version  file  line  rule  verdict  dup-of

The 29x samples name the module in sample.json; the 30x ones only in
their finding lists, so a TRIAGE.md row (file:line, rule) is matched to
the findings-<module>.txt that holds it. Opt-in rows (IL1008, IL1009)
match no default list and are left out. Verdicts are read, never changed.

Usage: python3 judged.py [SAMPLES_DIR] > judged.tsv
"""

import glob
import json
import os
import re
import sys

row29 = re.compile(r"^\| *(\d+) *\|")
verdict_re = re.compile(r"^\**(true|false|unsure)\**$")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def verdict_and_dup(cs, at):
    v = verdict_re.match(cs[at])
    if not v:
        return None, None
    m = re.match(r"(\d+)", cs[at + 1])
    return v.group(1), (int(m.group(1)) if m else "")


def sample29(d):
    by_id = {s["id"]: s for s in json.load(open(os.path.join(d, "sample.json")))}
    out = []
    for line in open(os.path.join(d, "TRIAGE.md")):
        if not row29.match(line):
            continue
        cs = cells(line)
        n = int(cs[0])
        # | n | module | rule | verdict | dup | or | n | module | file:line | rule | verdict | dup |
        at = 3 if re.match(r"IL\d+$", cs[2]) else 4
        v, dup = verdict_and_dup(cs, at)
        if v is None or n not in by_id:
            continue
        s = by_id[n]
        out.append((n, s["module"], s["file"], s["line"], s["rule"], v, dup))
    return out


def sample30(d):
    # (file, line, rule) -> module, from the default finding lists.
    where = {}
    for f in glob.glob(os.path.join(d, "findings-*.txt")):
        mod = os.path.basename(f)[len("findings-"):-len(".txt")]
        for line in open(f):
            m = re.match(r"^(\S+?):(\d+):\d+: (IL\d+) ", line)
            if m:
                where.setdefault((m.group(1), int(m.group(2)), m.group(3)), set()).add(mod)
    # findings-<module>.txt names module@version with / as _; list.md has it.
    names = {}
    for line in open(os.path.join(d, "list.md")):
        m = re.match(r"^\| [0-9]+ \| ([^ |]*@[^ |]*) \|", line)
        if m:
            names[m.group(1).replace("/", "_")] = m.group(1)
    out = []
    for line in open(os.path.join(d, "TRIAGE.md")):
        if not row29.match(line):
            continue
        cs = cells(line)
        # | n | file:line | rule | verdict | dup | or | n | module | file:line | rule | verdict | dup |
        if len(cs) < 5:
            continue
        off = 1 if re.match(r"IL\d+$", cs[2]) else 2
        m = re.match(r"^(\S+):(\d+)$", cs[off])
        if not m:
            continue
        rule = cs[off + 1]
        v, dup = verdict_and_dup(cs, off + 2)
        if v is None:
            continue
        k = (m.group(1), int(m.group(2)), rule)
        mods = where.get(k)
        if not mods or len(mods) != 1:
            continue
        mod = names.get(next(iter(mods)))
        if mod is None:
            continue
        out.append((int(cs[0]), mod, k[0], k[1], rule, v, dup))
    return out


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    for d in sorted(glob.glob(os.path.join(base, "sample-2026-11-*"))):
        name = os.path.basename(d)[len("sample-"):]
        if not os.path.exists(os.path.join(d, "TRIAGE.md")):
            continue
        rows = sample29(d) if os.path.exists(os.path.join(d, "sample.json")) else sample30(d)
        for n, mod, f, line, rule, v, dup in rows:
            print(f"{name}\t{n}\t{mod}\t{f}\t{line}\t{rule}\t{v}\t{dup}")


main()

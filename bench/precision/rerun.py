"""rerun.py compares a re-run of the 2026-11-29 precision sample's packages
(rerun.sh) with the triaged packets: which sampled findings are still
reported, counted by TRIAGE.md's verdicts (distinct = a packet and its
"dup of" packets count once), and which findings of those packages are new
or gone against the sample run.

Usage: python3 rerun.py PACKETS_DIR SAMPLE_DIR RESULTS_DIR
"""

import json
import os
import re
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def keys(findings, dirs):
    out = {}
    for f in findings:
        p = f["pos"]
        if (os.path.dirname(p["file"]) or ".") in dirs:
            out[(p["file"], p["line"], f["rule"])] = f["message"]
    return out


def main():
    packets, sample, res = sys.argv[1:4]
    verdict, dupof = {}, {}
    row = re.compile(r"^\| (\d+) \| [^|]+ \| (IL\d+) \| \**(true|false|unsure)\** \|\s*(\d*)\s*\|")
    for line in open(os.path.join(packets, "TRIAGE.md")):
        m = row.match(line)
        if m:
            n = int(m.group(1))
            verdict[n] = m.group(3)
            dupof[n] = int(m.group(4)) if m.group(4) else n
    samples = load(os.path.join(packets, "sample.json"))
    dirs, new, old = {}, {}, {}
    for s in samples:
        dirs.setdefault(s["module"], set()).add(os.path.dirname(s["file"]) or ".")
    for mod, ds in dirs.items():
        name = mod.replace("/", "_")
        nf = os.path.join(res, name, "findings.json")
        new[mod] = keys(load(nf)["findings"], ds) if os.path.exists(nf) else None
        old[mod] = keys(load(os.path.join(sample, name, "findings.json"))["findings"], ds)

    still = {}
    print("| # | module | rule | verdict | dup of | still reported |")
    print("|---|---|---|---|---|---|")
    for s in samples:
        n = s["id"]
        k = (s["file"], s["line"], s["rule"])
        nm = new[s["module"]]
        st = "not run" if nm is None else ("yes" if k in nm else "no")
        still[n] = st
        d = "" if dupof[n] == n else str(dupof[n])
        print(f"| {n:02d} | {s['module'].split('@')[0]} | {s['rule']} | {verdict[n]} | {d} | {st} |")

    print()
    for v in ("true", "false"):
        ps = [n for n in still if verdict[n] == v]
        roots = sorted({dupof[n] for n in ps})
        kept = [r for r in roots if any(still[n] == "yes" for n in ps if dupof[n] == r)]
        print(f"{v}: packets still reported {sum(still[n] == 'yes' for n in ps)}/{len(ps)}, "
              f"distinct still reported {len(kept)}/{len(roots)} {kept}")
    notrun = sorted({s["module"] for s in samples if new[s["module"]] is None})
    if notrun:
        print("not run:", " ".join(notrun))

    print()
    print("findings in the sampled packages, against the sample run:")
    for mod in sorted(dirs):
        if new[mod] is None:
            continue
        for k in sorted(set(new[mod]) - set(old[mod])):
            print(f"  new  {mod.split('@')[0]} {k[0]}:{k[1]} {k[2]} {new[mod][k][:160]}")
        for k in sorted(set(old[mod]) - set(new[mod])):
            print(f"  gone {mod.split('@')[0]} {k[0]}:{k[1]} {k[2]}")


if __name__ == "__main__":
    main()

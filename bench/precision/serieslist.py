#!/usr/bin/env python3
"""serieslist.py prints recheck.sh's input for a series of samples: one
"module@version packages" line for every module with a finding in the
given sample directories (a findings-*.txt holding ": IL"), its packages
from the sample's packages.md (or another sample's, if it lists them).

Usage: bench/precision/serieslist.py bench/precision/sample-2026-12-0* >series.txt
"""
import glob
import os
import sys


def packages(dirs):
    out = {}
    for d in dirs:
        pm = os.path.join(d, "packages.md")
        if not os.path.exists(pm):
            continue
        for line in open(pm):
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 3 and "@" in cells[2]:
                out.setdefault(cells[2].replace("/", "_"), (cells[2], cells[3]))
    return out


def main(dirs):
    pkgs = packages(dirs)
    seen = set()
    for d in dirs:
        for f in sorted(glob.glob(os.path.join(d, "findings-*.txt"))):
            if ": IL" not in open(f).read():
                continue
            name = os.path.basename(f)[len("findings-"):-len(".txt")]
            if name not in pkgs:
                sys.exit(f"serieslist.py: {f}: no packages.md row")
            mv, p = pkgs[name]
            if mv not in seen:
                seen.add(mv)
                print(f"{mv} {p}")


if __name__ == "__main__":
    main(sorted(sys.argv[1:]))

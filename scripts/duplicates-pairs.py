#!/usr/bin/env python3
"""duplicates-pairs.py LIST — names every pair of a `duplicates` list (the
no-testdata, import-blocks-blanked run of scripts/duplicates.sh) with the
kind it belongs to and why that kind stays (docs/duplicates.md), as a
markdown table on standard output."""
import re
import sys

WHY = {
    "static passes": "each pass declares its Analyzer and rule catalogue in the same x/tools shape; lockset/lockregion walkers handle statement kinds in parallel cases",
    "runtime model": "one entry point per sync method (the rewriter calls each by name; rt imports only the standard library), shadow state per primitive, per-primitive tests",
    "GitHub fake": "create/update handlers of one resource open the same way (decode, validate, lock); the fake stays independent of the product's code",
    "subcommands": "every command registers itself and parses its flags in the same shape",
    "bench drivers": "each driver's prologue and argument handling; bench runners are modules of their own",
    "test scenarios": "each test writes its own fixture (the files are its subject), table rows, search prologues",
    "same shape, unrelated code": "a switch over severities, flag and error prologues, loops over findings: the same shape, different data",
}


def kind(a, b):
    both = lambda f: f(a) and f(b)
    if both(lambda p: p.startswith(("checks/static/", "checks/claim/")) or p == "checks/checks.go"):
        return "static passes"
    if both(lambda p: p.startswith("checks/dynamic/rt/")):
        return "runtime model"
    if both(lambda p: p.startswith("report/github/ghtest/") and not p.endswith("_test.go")):
        return "GitHub fake"
    if both(lambda p: p.startswith("cmd/interleave/") and not p.endswith("_test.go")):
        return "subcommands"
    if both(lambda p: p.startswith(("bench/", "scripts/"))):
        return "bench drivers"
    if both(lambda p: p.endswith("_test.go")):
        return "test scenarios"
    return "same shape, unrelated code"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: duplicates-pairs.py LIST")
    rows = []
    with open(sys.argv[1]) as f:
        head = f.readline().strip()
        for line in f:
            m = re.match(r"(D\d+) (\S+):(\d+-\d+) ~ (\S+):(\d+-\d+)(.*)", line)
            if m:
                rows.append((kind(m.group(2), m.group(4)), m.group(1), line[len(m.group(1)) + 1:].strip()))
    if not rows:
        sys.exit("duplicates-pairs.py: no pairs in " + sys.argv[1])
    print(f"`duplicates` said: {head}\n")
    order = sorted({r[0] for r in rows}, key=lambda k: -sum(r[0] == k for r in rows))
    for k in order:
        mine = [r for r in rows if r[0] == k]
        print(f"## {k} ({len(mine)})\n\nWhy it stays: {WHY[k]}.\n")
        print("| pair | places |\n| --- | --- |")
        for _, d, rest in mine:
            print(f"| {d} | `{rest}` |")
        print()


main()

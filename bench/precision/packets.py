#!/usr/bin/env python3
"""packets.py samples the findings that bench/precision/sample.sh collected and
writes one triage packet (markdown) per sampled finding: the finding as
`interleave check` prints it, the enclosing declarations of its position and
related positions with line numbers, the struct types that declare the
fields and locks its message names, and the package's other lines that
touch them. It writes no verdict.

Usage: packets.py -out OUT -packets DIR -list LIST.md module@version...

Sampling (fixed before the run, docs/precision-sample-2026-11-29.md): a
module with more than 15 findings contributes random.Random(1).sample of 15
over its findings sorted by file, line, column, rule.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

CAP = 15
SEED = 1
BIG_DECL = 160  # a longer declaration is shown around its lines of interest
WINDOW = 35
MAX_TYPE_LINES = 220
MAX_GREP = 100
MAX_FUNCS = 5

ap = argparse.ArgumentParser()
ap.add_argument("-out", required=True)
ap.add_argument("-packets", required=True)
ap.add_argument("-list", required=True)
ap.add_argument("mods", nargs="+")
args = ap.parse_args()
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
helper = os.path.join(args.out, "packet")
subprocess.run(["go", "build", "-o", helper, "./bench/precision/packet"], cwd=repo, check=True)


def modname(mv):
    return mv.replace("/", "_")


def text_blocks(path):
    """The text report split into findings: {first line: [lines]}."""
    blocks, cur = {}, None
    for line in open(path).read().splitlines():
        if line.startswith("\t") and cur is not None:
            blocks[cur].append(line)
        elif line:
            cur = line
            blocks.setdefault(cur, [line])
    return blocks


def first_line(f):
    p = f["pos"]
    where = f"{p['file']}:{p['line']}:{p['column']}" if p.get("column") else f"{p['file']}:{p['line']}"
    return f"{where}: {f['rule']} {f['message']}"


def decls(src, file, lines):
    path = os.path.join(src, file)
    if not os.path.exists(path):
        return []
    r = subprocess.run([helper, "decl", path] + [str(n) for n in lines], capture_output=True, text=True)
    if r.returncode != 0:
        return []
    return json.loads(r.stdout)


def types(src, pkgdir, names):
    if not names:
        return []
    r = subprocess.run([helper, "types", os.path.join(src, pkgdir)] + sorted(names), capture_output=True, text=True)
    if r.returncode != 0:
        return []
    return json.loads(r.stdout)


def funcs(src, pkgdir, names):
    if not names:
        return []
    r = subprocess.run([helper, "funcs", os.path.join(src, pkgdir)] + sorted(names), capture_output=True, text=True)
    if r.returncode != 0:
        return []
    return json.loads(r.stdout)


def numbered(src, file, start, end, mark=()):
    lines = open(os.path.join(src, file), errors="replace").read().splitlines()
    out = []
    for n in range(max(start, 1), min(end, len(lines)) + 1):
        out.append(f"{'>' if n in mark else ' '}{n:5d}\t{lines[n - 1]}")
    return "\n".join(out)


def show_decl(src, file, d, marks):
    """A declaration with line numbers; a long one around its marked lines."""
    start, end = d["start"], d["end"]
    if end - start + 1 <= BIG_DECL:
        return [(start, end)]
    spans = [(start, min(start + 6, end))]
    for m in sorted(marks):
        if start <= m <= end:
            spans.append((max(start, m - WINDOW), min(end, m + WINDOW)))
    spans.sort()
    merged = []
    for s, e in spans:
        if merged and s <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


IDENT_CHAIN = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


SKIP = {"go", "Lock", "Unlock", "RLock", "RUnlock", "TryLock", "Load", "Store", "Add"}


def names_in(message):
    """Names the message mentions in a.b chains: (all parts after the
    first, the last parts only: the fields and locks themselves)."""
    names, last = set(), set()
    for chain in IDENT_CHAIN.findall(message):
        if re.search(r"\.go$", chain):
            continue
        parts = [p for p in chain.split(".")[1:] if p not in SKIP]
        names.update(parts)
        if parts:
            last.add(parts[-1])
    return names, last


def words_in(message):
    """Every identifier-like word of the message (candidate function names)."""
    # A plain lowercase word ("read", "run") is English more often than a
    # function name: only capitalized or camelCase words, and a.b chains.
    words = {w for w in re.findall(r"\b[A-Za-z_]\w*\b", message)
             if w not in SKIP and len(w) > 2 and (w[0].isupper() or "_" in w or any(c.isupper() for c in w[1:]))}
    return words | names_in(message)[0]


def grep_uses(src, pkgdir, names):
    hits = []
    d = os.path.join(src, pkgdir)
    for fn in sorted(os.listdir(d)):
        if not fn.endswith(".go"):
            continue
        for i, line in enumerate(open(os.path.join(d, fn), errors="replace").read().splitlines(), 1):
            for n in names:
                if re.search(r"\." + re.escape(n) + r"\b", line):
                    hits.append((os.path.join(pkgdir, fn), i, line))
                    break
    return hits


def packet(num, mv, src, f, text):
    file = f["pos"]["file"]
    pkgdir = os.path.dirname(file) or "."
    out = [f"# Finding {num:02d}: {f['rule']} in {mv}", ""]
    out += [f"- module: `{mv}` (from the Go module proxy: `go mod download -json {mv}`)",
            f"- package: `{f.get('package', '')}`",
            f"- file: `{file}` (relative to the module root)",
            f"- function: `{f.get('func', '')}`",
            f"- rule: {f['rule']} (definition in RULES.md of this directory)", ""]
    out += ["## The finding, as `interleave check` prints it", "", "```text"] + text + ["```", ""]
    # Positions of interest per file.
    marks = {}
    marks.setdefault(file, set()).add(f["pos"]["line"])
    for r in f.get("related") or []:
        if r.get("file") and r.get("line"):
            marks.setdefault(r["file"], set()).add(r["line"])
    out += ["## Code of the finding and its related positions", "",
            "Lines marked `>` are the finding's position and its related positions.", ""]
    shown = set()
    for fl in [file] + sorted(k for k in marks if k != file):
        for d in decls(src, fl, sorted(marks[fl])):
            if not d.get("start"):
                out += [f"### {fl}:{d['line']} (outside any declaration)", "", "```go",
                        numbered(src, fl, d["line"] - 10, d["line"] + 10, marks[fl]), "```", ""]
                continue
            key = (fl, d["start"])
            if key in shown:
                continue
            shown.add(key)
            spans = show_decl(src, fl, d, marks[fl])
            note = "" if len(spans) == 1 and spans[0] == (d["start"], d["end"]) else f", lines {d['start']}-{d['end']}, shown around the marked lines"
            out += [f"### {fl}: {d['name']}{note}", "", "```go"]
            for i, (s, e) in enumerate(spans):
                if i:
                    out.append("       ...")
                out.append(numbered(src, fl, s, e, marks[fl]))
            out += ["```", ""]
    alltext = f["message"] + " " + " ".join(r.get("message", "") for r in f.get("related") or [])
    names, fields = names_in(alltext)
    # The receiver's type, when the finding is in a method.
    m = re.match(r"\(\*?(\w+)\)\.", next((d["name"] for d in decls(src, file, [f["pos"]["line"]]) if d.get("name")), ""))
    tnames = set(names)
    if m:
        tnames.add(m.group(1))
    # Types that declare a lock-like name (mu, xxxLock, Mutex) are many:
    # looked for only when no other name matched.
    lockish = {n for n in tnames if re.match(r"^(m|mu|\w*[Mm]u|\w*[Ll]ock|\w*Mutex)$", n)}
    ts = types(src, pkgdir, (tnames - lockish) | (words_in(alltext) & set(re.findall(r"\b[A-Z]\w*", alltext))))
    if not ts:
        ts = types(src, pkgdir, tnames)
    if ts:
        out += ["## Struct types of the package naming those fields, locks or the receiver", "",
                f"Names looked for: {', '.join(sorted(tnames))}.", ""]
        total = 0
        for t in ts:
            fl = os.path.relpath(t["file"], src)
            if (fl, t["start"]) in shown:
                continue
            shown.add((fl, t["start"]))
            end = min(t["end"], t["start"] + MAX_TYPE_LINES - 1)
            cut = "" if end == t["end"] else f" (first {MAX_TYPE_LINES} of {t['end'] - t['start'] + 1} lines)"
            out += [f"### {fl}: type {t['name']} (matches `{t['match']}`){cut}", "", "```go",
                    numbered(src, fl, t["start"], end), "```", ""]
            total += end - t["start"] + 1
            if total > 3 * MAX_TYPE_LINES:
                out += ["(more types left out)", ""]
                break
    # Functions and methods of the package the message names (the callee of
    # a call under a lock, a locked helper), not already shown.
    words = words_in(alltext)
    fs = [fd for fd in funcs(src, pkgdir, words) if (os.path.relpath(fd["file"], src), fd["start"]) not in shown]
    # Methods of the receiver's type or of a type the message names first.
    recvs = set(tnames) | words

    def rank(fd):
        mm = re.match(r"\(\*?(\w+)\)\.", fd["name"])
        return (0 if mm and mm.group(1) in recvs else 1, fd["file"], fd["start"])
    fs.sort(key=rank)
    if fs:
        out += ["## Functions of the package named in the message", ""]
        total = 0
        for fd in fs[:MAX_FUNCS]:
            fl = os.path.relpath(fd["file"], src)
            shown.add((fl, fd["start"]))
            end = min(fd["end"], fd["start"] + BIG_DECL - 1)
            cut = "" if end == fd["end"] else f" (first {BIG_DECL} of {fd['end'] - fd['start'] + 1} lines)"
            out += [f"### {fl}: {fd['name']}{cut}", "", "```go", numbered(src, fl, fd["start"], end), "```", ""]
        if len(fs) > MAX_FUNCS:
            out += [f"({len(fs) - MAX_FUNCS} more functions of those names left out: " +
                    ", ".join(f"{os.path.relpath(fd['file'], src)}:{fd['start']} {fd['name']}" for fd in fs[MAX_FUNCS:]) + ")", ""]
    if fields:
        hits = grep_uses(src, pkgdir, fields)
        # The finding's own files first.
        hits.sort(key=lambda h: (h[0] not in marks, h[0], h[1]))
        if hits:
            byfile = {}
            for fl, n, _ in hits:
                byfile.setdefault(fl, []).append(n)
            fn = {}
            for fl, ns in byfile.items():
                for d in decls(src, fl, ns):
                    fn[(fl, d["line"])] = d.get("name") or "-"
            out += [f"## Lines of package `{pkgdir}` that mention " + ", ".join(f"`.{n}`" for n in sorted(fields)),
                    "", f"{len(hits)} lines" + (f"; the first {MAX_GREP} shown" if len(hits) > MAX_GREP else "") +
                    ", with the declaration each is in; the finding's own files first.", "", "```text"]
            for fl, n, line in hits[:MAX_GREP]:
                out.append(f"{fl}:{n}\t[{fn.get((fl, n), '-')}]\t{line.strip()}")
            out += ["```", ""]
    out += ["## More source", "",
            f"The whole module is in the module cache after `go mod download -json {mv}` (its `Dir`);",
            f"bench/precision/sample.sh keeps a writable copy in $OUT/{modname(mv)}/src.", ""]
    return "\n".join(out)


def main():
    os.makedirs(args.packets, exist_ok=True)
    for old in os.listdir(args.packets):
        if re.match(r"\d+-.*\.md$", old) or old.startswith("findings-"):
            os.remove(os.path.join(args.packets, old))
    sample, counts, num = [], [], 0
    for mv in args.mods:
        res = os.path.join(args.out, modname(mv))
        src = os.path.join(res, "src")
        fj = os.path.join(res, "findings.json")
        status = open(os.path.join(res, "exit")).read().strip() if os.path.exists(os.path.join(res, "exit")) else "not run"
        if not os.path.exists(fj) or status not in ("0", "1"):
            counts.append({"module": mv, "status": status, "findings": None, "sampled": 0, "rules": {}})
            continue
        findings = json.load(open(fj)).get("findings") or []
        txt = os.path.join(res, "findings.txt")
        if not os.path.exists(txt):
            env = dict(os.environ, GOWORK="off", GOFLAGS="-mod=mod")
            subprocess.run(["nice", "-n", "10", os.path.join(args.out, "interleave"), "check", "-format", "text", "-o", txt, "./..."],
                           cwd=src, env=env, stderr=subprocess.DEVNULL)
        blocks = text_blocks(txt) if os.path.exists(txt) else {}
        findings.sort(key=lambda f: (f["pos"]["file"], f["pos"]["line"], f["pos"].get("column", 0), f["rule"]))
        with open(os.path.join(args.packets, f"findings-{modname(mv)}.txt"), "w") as w:
            for f in findings:
                w.write("\n".join(blocks.get(first_line(f), [first_line(f)])) + "\n")
        chosen = findings if len(findings) <= CAP else random.Random(SEED).sample(findings, CAP)
        chosen.sort(key=lambda f: (f["pos"]["file"], f["pos"]["line"], f["pos"].get("column", 0), f["rule"]))
        rules = {}
        for f in findings:
            rules.setdefault(f["rule"], [0, 0])[0] += 1
        for f in chosen:
            rules[f["rule"]][1] += 1
        counts.append({"module": mv, "status": status, "findings": len(findings), "sampled": len(chosen), "rules": rules})
        for f in chosen:
            num += 1
            text = blocks.get(first_line(f))
            if text is None:
                print(f"packets: {mv}: no text block for {first_line(f)}", file=sys.stderr)
                text = [first_line(f)] + [f"\t{r['file']}:{r['line']}:{r.get('column', 0)}: {r['message']}" for r in f.get("related") or []]
            short = mv.split("@")[0].rstrip("/").split("/")
            short = short[-1] if not re.match(r"v\d+$", short[-1]) else short[-2]
            name = f"{num:02d}-{short}-{f['rule']}.md"
            with open(os.path.join(args.packets, name), "w") as w:
                w.write(packet(num, mv, src, f, text))
            sample.append({"id": num, "packet": name, "module": mv, "rule": f["rule"], "file": f["pos"]["file"],
                           "line": f["pos"]["line"], "text": text})
    json.dump(sample, open(os.path.join(args.packets, "sample.json"), "w"), indent=1)
    write_counts(counts, sample)


def write_counts(counts, sample):
    allrules = sorted({r for c in counts for r in c["rules"]})
    out = ["# Findings per module and rule (default settings)", "",
           "`findings` is every default finding of the module (`findings-<module>.txt`);",
           f"`sampled` is what the packets hold (all, or random.Random({SEED}).sample of {CAP}).", "",
           "| module | exit | findings | sampled | " + " | ".join(allrules) + " |",
           "|---|---|---|---|" + "---|" * len(allrules)]
    for c in counts:
        cells = [f"{c['rules'][r][0]} ({c['rules'][r][1]})" if r in c["rules"] else "" for r in allrules]
        out.append(f"| {c['module']} | {c['status']} | {c['findings'] if c['findings'] is not None else '-'} | {c['sampled']} | " + " | ".join(cells) + " |")
    tot = {r: [sum(c["rules"].get(r, [0, 0])[0] for c in counts), sum(c["rules"].get(r, [0, 0])[1] for c in counts)] for r in allrules}
    out.append(f"| all | | {sum(c['findings'] or 0 for c in counts)} | {sum(c['sampled'] for c in counts)} | " +
               " | ".join(f"{tot[r][0]} ({tot[r][1]})" for r in allrules) + " |")
    out += ["", "Rule cells: findings (sampled).", "", "## Packets", ""]
    for s in sample:
        out.append(f"- [{s['packet']}]({s['packet']}): {s['rule']} {s['module']} `{s['file']}:{s['line']}`")
    open(os.path.join(args.packets, "counts.md"), "w").write("\n".join(out) + "\n")


main()

#!/usr/bin/env python3
"""rules.py writes RULES.md for a triage sample: each default rule's definition
as the repository documents it (the Text of its entry in the pass's
checks/static/PASS/rules.go, in the order of checks/static/suite.go's Passes,
and the doc.go of its pass), without precision figures:
sentences that start with "Opt-in:" or "Default since", or only point to
docs/precision.md, are left out. A rule whose Text the script cannot read or
evaluate stops it with a message (no RULES.md with a rule missing or misplaced).

Usage: bench/precision/rules.py REPO OUTFILE
"""
import glob
import re
import sys

repo, outfile = sys.argv[1], sys.argv[2]
suite = open(f"{repo}/checks/static/suite.go").read()

def strip(text):
    text = re.sub(r" ?Opt-in:[^`]*?(?=( The [a-z-]+ case is| Documented guards are| The precise case is|$))", "", text)
    text = re.sub(r" ?Default since \d{4}-\d\d-\d\d[^`]*$", "", text)  # its posting status and figures
    text = re.sub(r" ?See docs/precision\.md\.", "", text)
    text = re.sub(r";? see docs/precision\.md", "", text)
    return text.strip()

out = ["# Rule definitions (for triage)", "",
       "Copied from the repository's own documentation at commit " + sys.argv[3] if len(sys.argv) > 3 else "",
       "",
       "Each default rule's text from `checks/static/suite.go` (what a finding of the",
       "rule claims, and what it does not report), then the package documentation",
       "(`doc.go`) of the pass that reports it. Opt-in rules are not run by default",
       "and do not appear in the sample.", ""]
# One entry: its header on one line, its Text on the next. The Text may be
# a concatenation of string literals and calls such as
# percent(inferredThreshold), evaluated below; the header's match must not
# run on into the next entry (that put IL1005's text under IL1008 and left
# IL1002 and IL1009 out).
rule_re = re.compile(r'\{ID: (\w+|"IL\d+"), Slug: "([^"]+)", Title: "((?:[^"\\]|\\.)*)", Severity: checks\.(\w+), Level: checks\.(\w+),[^\n]*\n\s*Text: ([^\n]*?)\},?[ \t]*$', re.M)
literal_re = re.compile(r'"((?:[^"\\]|\\.)*)"|`([^`]*)`|([\w.]+)\((\w+)\)')

def unquote(text):
    """A Go interpreted string literal's body, decoded: escapes only (the
    old text.encode().decode("unicode_escape") turned UTF-8 such as "…"
    into mojibake)."""
    simple = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "'": "'"}
    def repl(m):
        e = m.group(1)
        if e in simple:
            return simple[e]
        return chr(int(e[1:], 16))
    return re.sub(r'\\(["\\nt\']|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})', repl, text)

def value(name, src):
    """The number a constant or variable of the pass is set to."""
    m = re.search(r"\b" + name + r"\s*=\s*([0-9.]+)\b", src)
    if not m:
        sys.exit(f"rules.py: no value for {name} in the pass's sources")
    return m.group(1)

def evaluate(expr, src, rid):
    """The string a Text expression of literals joined by + evaluates to."""
    out, pos = [], 0
    for m in literal_re.finditer(expr):
        between = expr[pos:m.start()].strip()
        if between not in ("", "+"):
            sys.exit(f"rules.py: {rid}: cannot evaluate {between!r} in its Text")
        if m.group(1) is not None:
            out.append(unquote(m.group(1)))
        elif m.group(2) is not None:
            out.append(m.group(2))
        elif m.group(3) == "percent":  # guardedby's percent: 0.75 is "75%"
            out.append(f"{int(float(value(m.group(4), src)) * 100 + 0.5)}%")
        elif m.group(3) == "strconv.Itoa":
            out.append(str(int(value(m.group(4), src))))
        else:
            sys.exit(f"rules.py: {rid}: cannot evaluate {m.group(0)!r} in its Text")
        pos = m.end()
    if expr[pos:].strip():
        sys.exit(f"rules.py: {rid}: cannot evaluate {expr[pos:]!r} in its Text")
    return "".join(out)

def pass_rules_of(src, pkgsrc):
    consts = dict(re.findall(r'(Rule\w+)\s*=\s*"(IL\d+)"', src))
    rules = []
    for r in rule_re.finditer(src):
        rid, slug, title, sev, level, text = r.groups()
        rid = rid.strip('"') if rid.startswith('"') else consts.get(rid, rid)
        rules.append((rid, slug, unquote(title), sev, level, evaluate(text, pkgsrc, rid)))
    if len(rules) != src.count("{ID: "):
        sys.exit(f"rules.py: {len(rules)} of {src.count('{ID: ')} rule entries read (has the layout changed?)")
    return rules

pass_rules = []
for m in re.finditer(r"\{(\w+)\.Analyzer, ([\w.]+)\}", suite):
    pkg, var = m.group(1), m.group(2)
    if var == f"{pkg}.Rules":
        src = open(f"{repo}/checks/static/{pkg}/rules.go").read()
        pkgsrc = "\n".join(open(f).read() for f in sorted(glob.glob(f"{repo}/checks/static/{pkg}/*.go")) if not f.endswith("_test.go"))
    else:  # a pass of go vet's whose rules checks/static declares (waitgroup.go)
        src = open(f"{repo}/checks/static/{pkg}.go").read()
        pkgsrc = src
    pass_rules.append((pkg, pass_rules_of(src, pkgsrc)))
if not any(rules for _, rules in pass_rules):
    sys.exit("rules.py: no rule found in checks/static/*/rules.go (has the layout changed?)")
for pkg, rules in pass_rules:
    default = [r for r in rules if r[4] == "Default"]
    if not default:
        continue
    out.append(f"## Pass {pkg} (checks/static/{pkg})")
    out.append("")
    for rid, slug, title, sev, level, text in default:
        out.append(f"### {rid} {slug}: {title}")
        out.append("")
        out.append(f"Severity: {sev.lower()}.")
        out.append("")
        out.append(strip(text))
        out.append("")
    try:
        doc = open(f"{repo}/checks/static/{pkg}/doc.go").read()
    except FileNotFoundError:
        continue  # go vet's own pass (waitgroup): its rule text is all
    lines = []
    for line in doc.splitlines():
        if line.startswith("package "):
            break
        if line.startswith("//"):
            lines.append(line[3:] if line.startswith("// ") else line[2:])
    out.append(f"#### Package documentation of {pkg} (doc.go)")
    out.append("")
    out.append("```text")
    out.extend(lines)
    out.append("```")
    out.append("")
open(outfile, "w").write("\n".join(out).rstrip() + "\n")

#!/usr/bin/env python3
"""rules.py writes RULES.md for a triage sample: each default rule's definition
as the repository documents it (the Text of its entry in the pass's
checks/static/PASS/rules.go, in the order of checks/static/suite.go's Passes,
and the doc.go of its pass), without precision figures:
sentences that start with "Opt-in:" or only point to docs/precision.md are left out.

Usage: bench/precision/rules.py REPO OUTFILE
"""
import re
import sys

repo, outfile = sys.argv[1], sys.argv[2]
suite = open(f"{repo}/checks/static/suite.go").read()

def strip(text):
    text = re.sub(r" ?Opt-in:[^`]*?(?=( The [a-z-]+ case is| Documented guards are| The precise case is|$))", "", text)
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
rule_re = re.compile(r'\{ID: (\w+|"IL\d+"), Slug: "([^"]+)", Title: "((?:[^"\\]|\\.)*)", Severity: checks\.(\w+), Level: checks\.(\w+),.*?\n\s*Text: "((?:[^"\\]|\\.)*)"\}', re.S)

def unquote(text):
    return text.encode().decode("unicode_escape") if "\\" in text else text

def pass_rules_of(src):
    consts = dict(re.findall(r'(Rule\w+)\s*=\s*"(IL\d+)"', src))
    rules = []
    for r in rule_re.finditer(src):
        rid, slug, title, sev, level, text = r.groups()
        rid = rid.strip('"') if rid.startswith('"') else consts.get(rid, rid)
        rules.append((rid, slug, unquote(title), sev, level, unquote(text)))
    return rules

pass_rules = []
for m in re.finditer(r"\{(\w+)\.Analyzer, ([\w.]+)\}", suite):
    pkg, var = m.group(1), m.group(2)
    if var == f"{pkg}.Rules":
        src = open(f"{repo}/checks/static/{pkg}/rules.go").read()
    else:  # a pass of go vet's whose rules checks/static declares (waitgroup.go)
        src = open(f"{repo}/checks/static/{pkg}.go").read()
    pass_rules.append((pkg, pass_rules_of(src)))
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

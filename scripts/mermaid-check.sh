#!/usr/bin/env bash
# mermaid-check.sh parses every Mermaid diagram of the golden review
# comments and summaries with Mermaid itself (npm: mermaid, in jsdom), as
# GitHub will render them. It installs the two packages into a temp dir
# (or MERMAID_DIR, kept between runs) from the npm registry.
#
# Usage: scripts/mermaid-check.sh [FILE.md...]
# Without node it says so and exits 0: it checks nothing then.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "mermaid-check: node/npm not found; skipped" >&2
	exit 0
fi
files=("$@")
if ((${#files[@]} == 0)); then
	files=(report/testdata/golden/bank.md report/github/testdata/golden/bank-*.md)
fi
dir=${MERMAID_DIR:-}
if [[ -z $dir ]]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
if [[ ! -d $dir/node_modules/mermaid || ! -d $dir/node_modules/jsdom ]]; then
	(cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent mermaid@11 jsdom@26 >/dev/null)
fi
cat >"$dir/check.mjs" <<'JS'
// Parses every ```mermaid block of the files named on the command line;
// each must be a sequence diagram.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await import('mermaid')).default;
mermaid.initialize({ startOnLoad: false });
let blocks = 0, bad = 0;
for (const file of process.argv.slice(2)) {
  const re = /```mermaid\n([\s\S]*?)```/g;
  const text = readFileSync(file, 'utf8');
  let m;
  while ((m = re.exec(text)) !== null) {
    blocks++;
    try {
      const r = await mermaid.parse(m[1]);
      if (!r || r.diagramType !== 'sequence') {
        bad++;
        console.error(`${file}: diagram ${blocks}: parsed as ${r && r.diagramType}, want sequence`);
      }
    } catch (e) {
      bad++;
      console.error(`${file}: diagram ${blocks}: ${e.message || e}`);
    }
  }
}
console.log(`mermaid-check: ${blocks} diagram(s) parsed, ${bad} bad`);
if (blocks === 0 || bad > 0) process.exit(1);
JS
abs=()
for f in "${files[@]}"; do abs+=("$(pwd)/$f"); done
(cd "$dir" && node check.mjs "${abs[@]}")

#!/usr/bin/env bash
# readme-picture.sh draws the README's picture: the review comment of the
# bundled example's deadlock (the golden markdown report/github's tests
# compare against) as GitHub shows it, Mermaid diagram included, to
# docs/img/review-comment.png. It renders the markdown with marked and the
# diagram with Mermaid (npm, pinned below) in headless Chromium (Debian:
# apt-get install chromium fonts-noto-core), then records the hashes of its
# inputs in docs/img/review-comment.sha256: TestREADMEPictureCurrent
# (cmd/interleave) fails when an input changed and the picture was not redrawn.
#
# Usage: scripts/readme-picture.sh
# PICTURE_DIR keeps the npm packages between runs (default: a temp dir).
set -euo pipefail
cd "$(dirname "$0")/.."

golden=report/github/testdata/golden/bank-deadlock.md
source_file=examples/bank/bank.go
path=examples/bank/bank.go # the comment's file, as the pull request shows it
line=62                    # the comment's line (the finding's position)
hunk=4                     # diff lines shown above the comment, ending at $line
out=docs/img/review-comment.png
sums=docs/img/review-comment.sha256

chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
	echo "readme-picture: chromium not found (apt-get install chromium fonts-noto-core)" >&2
	exit 2
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "readme-picture: node and npm not found" >&2
	exit 2
fi
dir=${PICTURE_DIR:-}
if [[ -z $dir ]]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
if [[ ! -f $dir/node_modules/mermaid/package.json || ! -f $dir/node_modules/marked/package.json ]] ||
	! grep -q '"version": "11.17.2"' "$dir/node_modules/mermaid/package.json" ||
	! grep -q '"version": "18.2.1"' "$dir/node_modules/marked/package.json"; then
	(cd "$dir" && { [[ -f package.json ]] || npm init -y >/dev/null; } &&
		npm install --no-audit --no-fund --silent mermaid@11.17.2 marked@18.2.1 >/dev/null)
fi
cp "$dir/node_modules/mermaid/dist/mermaid.min.js" "$dir/mermaid.min.js"

# The page: GitHub's light theme, a review comment under its file header
# and the diff lines it sits on.
cat >"$dir/template.html" <<'HTML'
<!doctype html>
<html><head><meta charset="utf-8">
<style>
body { margin: 0; background: #fff; color: #1f2328;
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
  font-size: 14px; line-height: 1.5; }
.page { padding: 16px; width: 848px; }
.thread { border: 1px solid #d1d9e0; border-radius: 6px; overflow: hidden; }
.file { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px;
  font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 12px; color: #1f2328; }
.hunk { width: 100%; border-collapse: collapse;
  font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 12px; line-height: 20px; }
.hunk td { padding: 0 8px; white-space: pre; }
.hunk td.num { width: 1%; min-width: 40px; text-align: right; color: #59636e; background: #d1f8d9; }
.hunk td.code { background: #dafbe1; }
.hunk tr.at td.code { background: #fff8c5; }
.hunk tr.at td.num { background: #fff1a8; }
.comment { border-top: 1px solid #d1d9e0; padding: 16px; }
.who { display: flex; align-items: center; gap: 8px; margin-bottom: 8px; color: #59636e; }
.avatar { width: 24px; height: 24px; border-radius: 6px; background: #0969da; color: #fff;
  font-weight: 600; font-size: 13px; display: flex; align-items: center; justify-content: center; }
.who b { color: #1f2328; }
.bot { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 7px; font-size: 12px; line-height: 18px; }
.markdown-body > :first-child { margin-top: 0; }
.markdown-body > :last-child { margin-bottom: 0; }
.markdown-body p, .markdown-body ul, .markdown-body ol, .markdown-body pre { margin: 0 0 16px; }
.markdown-body ul, .markdown-body ol { padding-left: 2em; }
.markdown-body code { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 85%; padding: .2em .4em; background: #818b981f; border-radius: 6px; }
.markdown-body pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto;
  font-size: 85%; line-height: 1.45; }
.markdown-body pre code { background: none; padding: 0; font-size: 100%; white-space: pre; }
.markdown-body pre.mermaid { background: none; padding: 0; text-align: center; font-family: inherit; }
</style></head>
<body><div class="page"><div class="thread">
<div class="file">{{PATH}}</div>
<table class="hunk">{{HUNK}}</table>
<div class="comment">
<div class="who"><span class="avatar">i</span><b>interleave</b><span class="bot">bot</span>commented</div>
<div class="markdown-body">{{BODY}}</div>
</div></div></div>
<script src="mermaid.min.js"></script>
<script>
mermaid.initialize({ startOnLoad: false, theme: "default" });
mermaid.run().then(() => {
  document.body.setAttribute("data-height", Math.ceil(document.querySelector(".page").getBoundingClientRect().height));
});
</script>
</body></html>
HTML

cat >"$dir/render.mjs" <<'JS'
// Fills the template: the golden markdown rendered by marked (a ```mermaid
// block becomes <pre class="mermaid"> for Mermaid in the page) and the
// diff lines above the comment.
import { readFileSync, writeFileSync } from 'node:fs';
import { marked } from 'marked';
const [golden, source, path, line, hunk, template, out] = process.argv.slice(2);
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
marked.use({ renderer: { code(tok) {
  return tok.lang === 'mermaid' ? `<pre class="mermaid">${esc(tok.text)}</pre>\n` : false;
} } });
const body = marked.parse(readFileSync(golden, 'utf8'));
const lines = readFileSync(source, 'utf8').split('\n');
const last = Number(line), first = Math.max(1, last - Number(hunk) + 1);
let rows = '';
for (let n = first; n <= last; n++) {
  rows += `<tr${n === last ? ' class="at"' : ''}><td class="num">${n}</td><td class="code">+${esc(lines[n - 1].replace(/\t/g, '    '))}</td></tr>`;
}
const page = readFileSync(template, 'utf8')
  .replace('{{PATH}}', () => esc(path)).replace('{{HUNK}}', () => rows).replace('{{BODY}}', () => body);
writeFileSync(out, page);
JS
(cd "$dir" && node render.mjs "$OLDPWD/$golden" "$OLDPWD/$source_file" "$path" "$line" "$hunk" template.html page.html)

flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=30000)
height=$("$chromium" "${flags[@]}" --window-size=880,2000 --dump-dom "file://$dir/page.html" 2>/dev/null |
	sed -n 's/.*<body data-height="\([0-9]*\)".*/\1/p')
if [[ -z $height ]]; then
	echo "readme-picture: the page did not finish drawing (no data-height on <body>)" >&2
	exit 1
fi
mkdir -p "$(dirname "$out")"
"$chromium" "${flags[@]}" --window-size="880,$height" --force-device-scale-factor=2 \
	--screenshot="$dir/shot.png" "file://$dir/page.html" 2>/dev/null
mv "$dir/shot.png" "$out"
sha256sum "$golden" "$source_file" scripts/readme-picture.sh >"$sums"
echo "readme-picture: wrote $out (880x$height CSS px at 2x) and $sums"

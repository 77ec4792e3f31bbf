#!/bin/sh
# gen.sh regenerates the *.diff inputs of the golden tests from real git.
# Run it from anywhere; then `go test ./affected/diff -update` rewrites the
# *.diff.json files, which must be reviewed before committing.
set -eu
out=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
git init -q .
git config user.email gen@example.com
git config user.name gen
git config core.quotepath on
# Exactly the flags package affected passes.
d() { git -c diff.noprefix=false -c diff.mnemonicPrefix=false diff --no-color --no-ext-diff --no-textconv --src-prefix=a/ --dst-prefix=b/ -M "$@"; }

cat > ledger.go <<'GO'
package ledger

import "sync"

type Ledger struct {
	mu  sync.Mutex
	bal map[string]int
}

func (l *Ledger) Deposit(a string, n int) {
	l.mu.Lock()
	l.bal[a] += n
	l.mu.Unlock()
}

func (l *Ledger) Balance(a string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bal[a]
}
GO
printf 'first\nsecond\nthird\n' > notes.txt
printf '\000\001\002binary' > blob.bin
printf '#!/bin/sh\necho hi\n' > run.sh
printf 'package x\n\nfunc A() {}\n\nfunc B() {}\n\nfunc C() {}\n' > old_name.go
printf 'package x\n\nfunc Same() {}\n' > moved.go
printf 'package x\n' > gone.go
printf 'spaces\n' > 'with space.txt'
printf 'quote\n' > 'q"uote.txt'
printf 'no newline' > nonl.txt
git add -A && git commit -qm base

# modified: one replaced line, one added block, one deleted block
sed -i 's/l.bal\[a\] += n/l.bal[a] = l.bal[a] + n/' ledger.go
cat >> ledger.go <<'GO'

func (l *Ledger) Transfer(from, to string, n int) {
	l.bal[from] -= n
	l.bal[to] += n
}
GO
sed -i '/^func (l \*Ledger) Balance/,/^}/d' ledger.go
printf 'first\nthird\n' > notes.txt
printf '\000\001\002binary changed' > blob.bin
chmod +x run.sh
printf 'package x\n\nfunc A() {}\n\nfunc B() { println() }\n\nfunc C() {}\n' > old_name.go
git mv old_name.go new_name.go
mkdir -p sub && git mv moved.go sub/moved.go
git rm -q gone.go
printf 'spaces changed\n' > 'with space.txt'
printf 'quote changed\n' > 'q"uote.txt'
printf 'no newline changed' > nonl.txt
printf 'package x\n\nfunc New() {}\n' > 'new file.go'
printf 'caf\303\251\n' > "$(printf 'caf\303\251.txt')"
git add -A && git commit -qm head

d -U0 HEAD~1 HEAD > "$out/mixed_u0.diff"
d HEAD~1 HEAD > "$out/mixed_u3.diff"
d --binary -U0 HEAD~1 HEAD -- blob.bin > "$out/binary_patch.diff"

package rlockwrite

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// guardUse counts, per field, the accesses in the package's non-test
// files, and per (field, lock) those that hold the lock in any mode.
type guardUse struct {
	total map[types.Object]int
	held  map[guardKey]int
}

func newGuardUse() *guardUse {
	return &guardUse{total: map[types.Object]int{}, held: map[guardKey]int{}}
}

// add counts acc, made holding st, unless it is in a test file.
func (g *guardUse) add(pass *analysis.Pass, acc lockset.Access, st lockset.State) {
	if acc.Field == nil || acc.Kind == lockset.Ref || inTestFile(pass, acc.Pos) {
		return
	}
	g.total[acc.Field.Origin()]++
	seen := map[guardKey]bool{}
	for _, h := range st.Locks() {
		if k := keyOf(acc, h); related(acc, h) && !seen[k] {
			seen[k] = true
			g.held[k]++
		}
	}
}

// testSetup reports whether the write acc, under the read lock keyed k,
// is a test's set-up of a field its package does not guard with that
// lock: acc is in a test file, no go statement of its function can run
// before it, and at most half of the field's accesses in the package's
// own code hold the lock (s.mu.RLock(); s.opts.Timeout = d in a test,
// where the server reads s.opts without s.mu). The read lock then
// protects nothing the write could race with through it.
func (g *guardUse) testSetup(pass *analysis.Pass, acc lockset.Access, k guardKey) bool {
	if acc.Field == nil || !inTestFile(pass, acc.Pos) || goBefore(acc.Instr) {
		return false
	}
	n := g.total[acc.Field.Origin()]
	return n > 0 && 2*g.held[k] <= n
}

func inTestFile(pass *analysis.Pass, pos token.Pos) bool {
	f := pass.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// goBefore reports whether a go statement of instr's function (or of a
// function literal it starts on the spot) may run before instr: in a
// block from which instr's block can be reached, or earlier in its own.
func goBefore(instr ssa.Instruction) bool {
	b := instr.Block()
	if b == nil {
		return true
	}
	fn := instr.Parent()
	if fn.Parent() != nil {
		return true // a function literal: when it runs is not known here
	}
	reach := map[*ssa.BasicBlock]bool{}
	var walk func(*ssa.BasicBlock)
	walk = func(x *ssa.BasicBlock) {
		for _, p := range x.Preds {
			if !reach[p] {
				reach[p] = true
				walk(p)
			}
		}
	}
	walk(b)
	for _, x := range fn.Blocks {
		for _, i := range x.Instrs {
			if x == b && !reach[b] && i == instr {
				break
			}
			if _, ok := i.(*ssa.Go); ok && (reach[x] || x == b) {
				return true
			}
		}
	}
	return false
}

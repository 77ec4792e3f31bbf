package rlockwrite

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

// guardUse counts, per location, the accesses in the package's non-test
// files, and per (location, lock) those that hold the lock in any mode.
// A location is a field (s.opts), or a field of the object a pointer
// field points to (s.opts.Timeout), which a write through s.opts sets.
type guardUse struct {
	total map[useLoc]int
	held  map[useKey]int
}

type useLoc struct{ field, inner *types.Var }

type useKey struct {
	loc  useLoc
	lock string // relative to the field's owner: ".mu"
}

func newGuardUse() *guardUse {
	return &guardUse{total: map[useLoc]int{}, held: map[useKey]int{}}
}

// add counts acc, made holding st, unless it is in a test file.
func (g *guardUse) add(pass *analysis.Pass, acc lockset.Access, st lockset.State) {
	if acc.Field == nil || acc.Kind == lockset.Ref || inTestFile(pass, acc.Pos) {
		return
	}
	loc := useLoc{field: acc.Field.Origin()}
	g.total[loc]++
	seen := map[useKey]bool{}
	for _, h := range st.Locks() {
		if k := (useKey{loc, keyOf(acc, h).lock}); related(acc, h) && !seen[k] {
			seen[k] = true
			g.held[k]++
		}
	}
	// acc is also a field of what a pointer field of an outer object
	// points to: s.opts.Timeout, with s.mu a lock of s.
	outer := pointerField(acc.Instr)
	base := owner(acc.Base)
	if outer == nil || base.IsZero() {
		return
	}
	loc = useLoc{field: outer, inner: acc.Field.Origin()}
	g.total[loc]++
	for _, h := range st.Locks() {
		if h.Lock.Root != base.Root || !strings.HasPrefix(h.Lock.Fields, base.Fields+".") {
			continue
		}
		if k := (useKey{loc, strings.TrimPrefix(h.Lock.Fields, base.Fields)}); !seen[k] {
			seen[k] = true
			g.held[k]++
		}
	}
}

// pointerField returns, for an access made through x.f.g (a load or
// store of the address of g in the object x.f points to), the field f.
func pointerField(instr ssa.Instruction) *types.Var {
	var addr ssa.Value
	switch i := instr.(type) {
	case *ssa.Store:
		addr = i.Addr
	case *ssa.UnOp:
		addr = i.X
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	load, ok := fa.X.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	ofa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	if v := lockset.FieldOf(ofa); v != nil {
		return v.Origin()
	}
	return nil
}

// testSetup reports whether the write acc, under the read lock keyed k,
// is a test's set-up of a location its package does not guard with that
// lock: acc is in a test file, no go statement of its function can run
// before it, and at most half of the location's accesses in the
// package's own code hold the lock (s.mu.RLock(); s.opts.Timeout = d in a
// test, where the server reads s.opts.Timeout without s.mu). The read
// lock then protects nothing the write could race with through it.
func (g *guardUse) testSetup(pass *analysis.Pass, acc lockset.Access, k guardKey) bool {
	if acc.Field == nil || !inTestFile(pass, acc.Pos) || goBefore(acc.Instr) {
		return false
	}
	loc := useLoc{field: acc.Field.Origin()}
	if st, ok := acc.Instr.(*ssa.Store); ok && acc.Kind == lockset.PtrWrite {
		if fa, ok := st.Addr.(*ssa.FieldAddr); ok && pointerField(st) == loc.field {
			if v := lockset.FieldOf(fa); v != nil {
				loc.inner = v.Origin() // the field written through the pointer
			}
		}
	}
	n := g.total[loc]
	return n > 0 && 2*g.held[useKey{loc, k.lock}] <= n
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

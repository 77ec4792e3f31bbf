package atomicmix

// A plain write under the write side of an RWMutex against atomic
// accesses that hold its read side (gopkg's circuit-breaker window:
// tick bumps w.latest under w.rw.Lock(), getBucket loads it atomically
// and every caller of getBucket holds w.rw, some through RLock or
// RLocker()): the write lock excludes them all.

import (
	"go/ast"
	"go/types"

	"github.com/interleave-dev/interleave/checks/static/internal/lockregion"
	"github.com/interleave-dev/interleave/checks/static/internal/syncarg"
)

// orderedByWriteLock reports whether the plain write e of v (slot) in fd
// holds a mutex exclusively that every atomic access of the same memory
// holds in some mode, directly or through every caller (a read lock of
// the callers counts here: the write side excludes it).
func (pc *passContext) orderedByWriteLock(fd *ast.FuncDecl, e ast.Expr, v, slot *types.Var) bool {
	if v.Pkg() != pc.pass.Pkg {
		return false
	}
	held := pc.exclusiveHeld(fd)[e]
	if len(held) == 0 {
		return false
	}
	var common map[string]bool
	n := 0
	for _, use := range pc.uses[v] {
		if !overlaps(use.slot, slot) {
			continue
		}
		n++
		common = intersect(common, pc.anyModeHeld(use), n > 1)
	}
	if n == 0 {
		return false
	}
	for k := range held {
		if common[k] {
			return true
		}
	}
	return false
}

// exclusiveHeld returns, for the selectors and identifiers of fd, the
// mutexes held there by Lock (not RLock), with the ones every caller
// holds exclusively; computed once per function.
func (pc *passContext) exclusiveHeld(fd *ast.FuncDecl) map[ast.Node]lockregion.Held {
	if m, ok := pc.exclHeld[fd]; ok {
		return m
	}
	m := map[ast.Node]lockregion.Held{}
	entry, escaping := pc.callerHeld(fd)
	w := &lockregion.Walker{Info: pc.pass.TypesInfo, KeyOf: pc.lockKey, Exclusive: true, Visit: func(n ast.Node, held lockregion.Held) {
		switch n.(type) {
		case *ast.SelectorExpr, *ast.Ident:
			if held = escaping(n, held); len(held) > 0 {
				m[n] = held
			}
		}
	}}
	w.WalkFunc(fd.Body, entry)
	if pc.exclHeld == nil {
		pc.exclHeld = map[*ast.FuncDecl]map[ast.Node]lockregion.Held{}
	}
	pc.exclHeld[fd] = m
	return m
}

// anyModeHeld is the mutexes held at the atomic access use in any mode:
// those held at it, and those every caller of its function holds, read
// side included, unless the access is in a function literal (it may run
// elsewhere).
func (pc *passContext) anyModeHeld(use atomicUse) lockregion.Held {
	out := lockregion.Held{}
	for k, p := range use.held {
		out[k] = p
	}
	if use.decl == nil || inLiteral(use.decl.Body, use.call) {
		return out
	}
	if pc.callersAny == nil {
		var nonTest []*ast.File
		for _, f := range pc.pass.Files {
			if !isTestFile(pc, f) {
				nonTest = append(nonTest, f)
			}
		}
		pc.callersAny = lockregion.CallerLocksWith(nonTest, pc.pass.TypesInfo, pc.lockKey, pc.pass.ResultOf[syncarg.Analyzer].(*syncarg.Result).Arg, lockregion.CallerOpts{AnyMode: true})
		if pc.callersAny == nil {
			pc.callersAny = map[*types.Func][]string{}
		}
	}
	fn, _ := pc.pass.TypesInfo.Defs[use.decl.Name].(*types.Func)
	for _, k := range pc.callersAny[fn] {
		out[k] = use.decl.Pos()
	}
	return out
}

func isTestFile(pc *passContext, f *ast.File) bool {
	name := pc.pass.Fset.Position(f.Pos()).Filename
	return len(name) > len("_test.go") && name[len(name)-len("_test.go"):] == "_test.go"
}

// inLiteral reports whether n lies inside a function literal of body.
func inLiteral(body *ast.BlockStmt, n ast.Node) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		if found {
			return false
		}
		if lit, ok := x.(*ast.FuncLit); ok && lit.Pos() <= n.Pos() && n.End() <= lit.End() {
			found = true
		}
		return true
	})
	return found
}

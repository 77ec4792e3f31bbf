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
		pc.callersAny = lockregion.CallerLocksWith(nonTest, pc.pass.TypesInfo, pc.lockKey, pc.pass.ResultOf[syncarg.Analyzer].(*syncarg.Result).Arg, lockregion.CallerOpts{AnyMode: true, Exported: true, GoLiterals: true})
		if pc.callersAny == nil {
			pc.callersAny = map[*types.Func][]string{}
		}
	}
	fn, _ := pc.pass.TypesInfo.Defs[use.decl.Name].(*types.Func)
	for _, k := range pc.callersAny[fn] {
		if fn.Exported() && !pc.touchesOrdered(use.decl, k) {
			continue
		}
		out[k] = use.decl.Pos()
	}
	return out
}

// touchesOrdered reports whether fd, an exported function every call of
// which in this package holds k, also reads state that another function
// of the package accesses while holding k exclusively: the same field
// path (lockregion.TypeKey of an outermost selector; k itself and the
// variables accessed atomically anywhere in the package not counted), as uap-go's ParseUserAgent ranges over
// parser.RegexDefinitions.UA, which checkAndSort sorts under
// parser.mu.Lock(). Calls from other packages are not seen; such a call
// made without k already races on that state, so k is part of fd's
// contract, not a lock only this package's callers happen to take.
func (pc *passContext) touchesOrdered(fd *ast.FuncDecl, k string) bool {
	type key struct {
		fd *ast.FuncDecl
		k  string
	}
	if r, ok := pc.touched[key{fd, k}]; ok {
		return r
	}
	paths := map[string]bool{}
	for _, sel := range pc.outerSelectors(fd) {
		if v := pc.variable(sel); v != nil && len(pc.uses[v]) > 0 {
			continue
		}
		if p := pc.lockKey(sel); p != k {
			paths[p] = true
		}
	}
	found := false
	pc.forEachFunc(func(g *ast.FuncDecl) {
		if found || g == fd || isTestFile(pc, pc.fileOf(g)) {
			return
		}
		held := pc.exclusiveHeld(g)
		for _, sel := range pc.outerSelectors(g) {
			if _, ok := held[sel][k]; ok && paths[pc.lockKey(sel)] {
				found = true
				return
			}
		}
	})
	if pc.touched == nil {
		pc.touched = map[any]bool{}
	}
	pc.touched[key{fd, k}] = found
	return found
}

// outerSelectors returns the field selectors of fd's body that are not
// the operand of another selector (p.defs.UA, not p.defs), outside
// function literals.
func (pc *passContext) outerSelectors(fd *ast.FuncDecl) []*ast.SelectorExpr {
	inner := map[ast.Expr]bool{}
	var out []*ast.SelectorExpr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			inner[ast.Unparen(n.X)] = true
			if sel := pc.pass.TypesInfo.Selections[n]; sel != nil && sel.Kind() == types.FieldVal && !inner[n] {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// fileOf returns the file of the package that holds n.
func (pc *passContext) fileOf(n ast.Node) *ast.File {
	for _, f := range pc.pass.Files {
		if f.FileStart <= n.Pos() && n.Pos() <= f.FileEnd {
			return f
		}
	}
	return nil
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

package atomicmix

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/interleave-dev/interleave/checks/static/internal/forkjoin"
	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// joinedReset reports whether the plain write e of v in fd resets state
// that only fd's own goroutines update atomically: e runs before fd's
// first go statement, outside loops and function literals; fd joins every
// goroutine it starts before it returns (forkjoin.JoinedAll); and every
// atomic access of v through e's owner path is in fd outside function
// literals, in a goroutine fd starts, or in a function only those reach
// (goroutineOnly). The package never runs fd itself from a goroutine or a
// function literal. Within one call the go statements order e before the
// atomics; one call's goroutines end before it returns, so a later call's
// reset follows them. Only two overlapping calls of fd race, and those
// would also mix one counting run with another (certificate-transparency's
// ScanLog zeroes its counters, starts a ticker and matchers that add to
// them, and waits for both).
func (pc *passContext) joinedReset(fd *ast.FuncDecl, e ast.Expr, v *types.Var, stack []ast.Node, firstGo token.Pos) bool {
	if firstGo == token.NoPos || e.Pos() >= firstGo || passutil.InsideFuncLit(stack) {
		return false
	}
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return false
		}
	}
	gos, ok := forkjoin.JoinedAll(pc.pass.TypesInfo, fd.Body, func(fn *types.Func) *ast.FuncDecl {
		if fn.Pkg() != pc.pass.Pkg {
			return nil
		}
		return pc.funcDecls()[fn]
	})
	if !ok {
		return false
	}
	only, self := pc.goroutineOnly(fd, gos)
	if !self {
		return false
	}
	info := pc.pass.TypesInfo
	owner := pc.lockKey(e)
	for _, u := range pc.uses[v.Origin()] {
		if u.owner != owner {
			continue
		}
		if u.decl == fd && (forkjoin.InGo(gos, u.call.Pos()) || !forkjoin.InFuncLit(fd.Body, u.call.Pos())) {
			continue
		}
		if u.decl != nil && u.decl != fd && !forkjoin.InFuncLit(u.decl.Body, u.call.Pos()) {
			if fn, ok := info.Defs[u.decl.Name].(*types.Func); ok && only[fn] {
				continue
			}
		}
		return false
	}
	return true
}

// goroutineOnly returns the unexported functions of the package (outside
// tests, starting no goroutine, not named by an interface method call)
// that run only on fd's goroutines or fd's own: every reference is a
// direct call in one of fd's go statements, in fd outside function
// literals, or in such a function outside literals. Calls in test files
// do not count. self says fd is never itself started by a go statement,
// called from a function literal or used as a value in the package.
func (pc *passContext) goroutineOnly(fd *ast.FuncDecl, started []*ast.GoStmt) (map[*types.Func]bool, bool) {
	info := pc.pass.TypesInfo
	target, _ := info.Defs[fd.Name].(*types.Func)
	ifaceNames := map[string]bool{}
	for _, sel := range info.Selections {
		if sel.Kind() == types.MethodVal && types.IsInterface(sel.Recv()) {
			ifaceNames[sel.Obj().Name()] = true
		}
	}
	type site struct {
		caller *types.Func
		ok     bool // in fd's goroutines, or in fd outside literals
		inLit  bool
	}
	cands := map[*types.Func]bool{}
	sites := map[*types.Func][]site{}
	self := true
	for fn, d := range pc.funcDecls() {
		if fn != target && !fn.Exported() && !ifaceNames[fn.Name()] && !forkjoin.HasGo(d.Body) && !strings.HasSuffix(pc.pass.Fset.Position(d.Pos()).Filename, "_test.go") {
			cands[fn] = true
		}
	}
	for _, f := range pc.pass.Files {
		if strings.HasSuffix(pc.pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			continue
		}
		for _, decl := range f.Decls {
			d, isFD := decl.(*ast.FuncDecl)
			if !isFD || d.Body == nil {
				ast.Inspect(decl, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if fn, ok := info.Uses[id].(*types.Func); ok {
							sites[fn.Origin()] = append(sites[fn.Origin()], site{})
						}
					}
					return true
				})
				continue
			}
			caller, _ := info.Defs[d.Name].(*types.Func)
			calls := map[ast.Expr]bool{}
			gos := map[ast.Expr]bool{}
			ast.Inspect(d.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					calls[ast.Unparen(n.Fun)] = true
				case *ast.GoStmt:
					gos[ast.Unparen(n.Call.Fun)] = true
				}
				return true
			})
			ast.PreorderStack(d.Body, nil, func(n ast.Node, stack []ast.Node) bool {
				var id *ast.Ident
				var fun ast.Expr
				switch n := n.(type) {
				case *ast.SelectorExpr:
					id, fun = n.Sel, n
				case *ast.Ident:
					if len(stack) > 0 {
						if sel, ok := stack[len(stack)-1].(*ast.SelectorExpr); ok && sel.Sel == n {
							return true
						}
					}
					id, fun = n, n
				default:
					return true
				}
				fn, ok := info.Uses[id].(*types.Func)
				if !ok {
					return true
				}
				fn = fn.Origin()
				lit := passutil.InsideFuncLit(stack)
				if fn == target && (gos[fun] || lit || !calls[fun]) {
					self = false
				}
				s := site{caller: caller, inLit: lit}
				if !calls[fun] && !gos[fun] {
					s.caller = nil // a func or method value: runs anywhere
				} else if d == fd && (forkjoin.InGo(started, id.Pos()) || !lit) {
					s.ok = true
				}
				sites[fn] = append(sites[fn], s)
				return true
			})
		}
	}
	only := passutil.EveryCall(cands, sites, func(s site, out map[*types.Func]bool) bool {
		return s.ok || s.caller != nil && out[s.caller] && !s.inLit
	})
	return only, self
}

package atomicmix

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/interleave-dev/interleave/checks/static/internal/passutil"
)

// lastRefFuncs returns the unexported functions and methods that run only
// on a value whose reference count this goroutine has just dropped to
// zero: every call (outside test files) is made, on the value x, in the
// body of if atomic.AddInt32(&x.refs, -1) == 0 { … } (or AddInt64,
// AddUint32, AddUint64), or from another such function on the value it
// was given (unref → freeEventLog(el) → el.reset()). No other goroutine
// holds the value then, so their plain writes (reset's el.refs = 0) do not
// race with the atomics, which run while references are held.
func (pc *passContext) lastRefFuncs() map[*types.Func]bool {
	info := pc.pass.TypesInfo
	type site struct {
		caller *types.Func
		ok     bool         // under a zero test of the value passed
		passed types.Object // the caller's receiver or parameter passed, if any
	}
	sites := map[*types.Func][]site{}
	decls := map[*types.Func]bool{}
	for _, f := range pc.pass.Files {
		test := strings.HasSuffix(pc.pass.Fset.Position(f.Pos()).Filename, "_test.go")
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			caller, _ := info.Defs[fd.Name].(*types.Func)
			if caller != nil && !fd.Name.IsExported() && !test {
				decls[caller] = true
			}
			if test {
				continue
			}
			params := passutil.ParamObjects(info, fd)
			ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn, ok := typeutil.Callee(info, call).(*types.Func)
				if !ok || fn.Pkg() != pc.pass.Pkg {
					return true
				}
				fn = fn.Origin()
				s := site{caller: caller}
				for _, x := range callValues(call) {
					id, ok := ast.Unparen(x).(*ast.Ident)
					if !ok {
						continue
					}
					obj := info.Uses[id]
					if zeroTested(info, obj, call, stack) {
						s.ok = true
					}
					if params[obj] {
						s.passed = obj
					}
				}
				sites[fn] = append(sites[fn], s)
				return true
			})
		}
	}
	return passutil.EveryCall(decls, sites, func(s site, out map[*types.Func]bool) bool {
		return s.ok || s.passed != nil && s.caller != nil && out[s.caller]
	})
}

// callValues returns the receiver expression (x in x.m()) and the
// arguments of call.
func callValues(call *ast.CallExpr) []ast.Expr {
	out := append([]ast.Expr(nil), call.Args...)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		out = append(out, sel.X)
	}
	return out
}

// zeroTested reports whether call is in the body of an if statement of
// stack whose condition is atomic.AddN(&x.f, -1) == 0 with x the object
// obj (or 0 == …).
func zeroTested(info *types.Info, obj types.Object, call *ast.CallExpr, stack []ast.Node) bool {
	if obj == nil {
		return false
	}
	for i := len(stack) - 1; i >= 0; i-- {
		ifs, ok := stack[i].(*ast.IfStmt)
		if !ok || call.Pos() < ifs.Body.Pos() || call.End() > ifs.Body.End() {
			continue
		}
		cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || cond.Op != token.EQL {
			continue
		}
		for _, pair := range [][2]ast.Expr{{cond.X, cond.Y}, {cond.Y, cond.X}} {
			if isZero(info, pair[1]) && decrements(info, pair[0], obj) {
				return true
			}
		}
	}
	return false
}

// decrements reports whether e is atomic.AddN(&x.f, -1) with x the
// object obj.
func decrements(info *types.Info, e ast.Expr, obj types.Object) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" || !strings.HasPrefix(fn.Name(), "Add") {
		return false
	}
	addr, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
	if !ok || addr.Op != token.AND {
		return false
	}
	sel, ok := ast.Unparen(addr.X).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	root, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || info.Uses[root] != obj {
		return false
	}
	tv, ok := info.Types[call.Args[1]]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(-1))
}

func isZero(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}

// Package passutil holds the small syntax and type helpers the static passes
// share: whether a package imports another, the variable at the base of a
// field path, a function's parameters.
package passutil

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Imports reports whether pkg imports path directly.
func Imports(pkg *types.Package, path string) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == path {
			return true
		}
	}
	return false
}

// ImportsSync reports whether pkg imports package sync directly: a pass
// about mutexes has nothing to do in a package that does not.
func ImportsSync(pkg *types.Package) bool { return Imports(pkg, "sync") }

// RootIdent returns the variable at the base of a field path (x in x.a.b,
// (*x).a), or nil. An index expression ends the path: x.a[i].b has no root.
func RootIdent(e ast.Expr) *ast.Ident {
	return root(e, false)
}

// ElemRootIdent is RootIdent that also looks through index expressions:
// x in x.a[i].b, the variable whose elements the path reaches.
func ElemRootIdent(e ast.Expr) *ast.Ident {
	return root(e, true)
}

func root(e ast.Expr, throughIndex bool) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			if !throughIndex {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// ParamObjects returns fd's receiver and parameters.
func ParamObjects(info *types.Info, fd *ast.FuncDecl) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				if obj := info.Defs[id]; obj != nil {
					out[obj] = true
				}
			}
		}
	}
	return out
}

// Copied reports whether root is a struct parameter passed by value:
// accesses to it touch the caller's copy, never shared state.
func Copied(root ssa.Value) bool {
	p, ok := root.(*ssa.Parameter)
	if !ok {
		return false
	}
	_, isPtr := p.Type().Underlying().(*types.Pointer)
	return !isPtr
}

// IsBuiltinCall reports whether e calls the builtin named name (close,
// panic, new).
func IsBuiltinCall(info *types.Info, e ast.Expr, name string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// EveryCall returns the functions of candidates all of whose call sites
// (sites, at least one) hold: a site holds on its own, or through its
// caller, which holds asks of the result so far. It is the least fixed
// point: unref → free(x) → x.reset() holds when every unref call does.
func EveryCall[S any](candidates map[*types.Func]bool, sites map[*types.Func][]S, holds func(s S, out map[*types.Func]bool) bool) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	for changed := true; changed; {
		changed = false
		for fn := range candidates {
			if out[fn] || len(sites[fn]) == 0 {
				continue
			}
			all := true
			for _, s := range sites[fn] {
				if !holds(s, out) {
					all = false
					break
				}
			}
			if all {
				out[fn] = true
				changed = true
			}
		}
	}
	return out
}

// CallOf is the call whose callee id names (id(...) or x.id(...)), read
// from the preorder stack above id, and its index in stack; nil and -1
// when id is not called there.
func CallOf(id *ast.Ident, stack []ast.Node) (*ast.CallExpr, int) {
	k := len(stack) - 1
	if k < 0 {
		return nil, -1
	}
	var fun ast.Expr = id
	if sel, ok := stack[k].(*ast.SelectorExpr); ok && sel.Sel == id {
		fun, k = sel, k-1
		if k < 0 {
			return nil, -1
		}
	}
	if c, ok := stack[k].(*ast.CallExpr); ok && c.Fun == fun {
		return c, k
	}
	return nil, -1
}

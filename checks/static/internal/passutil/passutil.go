// Package passutil holds the small syntax and type helpers the static passes
// share: whether a package imports another, the variable at the base of a
// field path.
package passutil

import (
	"go/ast"
	"go/types"
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

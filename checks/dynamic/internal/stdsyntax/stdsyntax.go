// Package stdsyntax lets a go/packages load that needs its dependencies'
// syntax read the standard library's without function bodies.
package stdsyntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
)

// ParseFile is a packages.Config.ParseFile that parses the standard
// library's files (under goroot, when known) without the bodies of their
// functions: nothing here rewrites or reads them, and type-checking them
// was most of a load's time. The bodies of generic functions and of init
// stay, as go/types wants them; the declarations, and so every type the
// module's code uses, are whole. Other files are parsed as the loader
// does.
func ParseFile(goroot string) func(*token.FileSet, string, []byte) (*ast.File, error) {
	std := ""
	if goroot != "" {
		std = filepath.Join(goroot, "src") + string(filepath.Separator)
	}
	return func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
		// The loader's own mode (it resolves objects) outside.
		mode := parser.AllErrors | parser.ParseComments
		inStd := std != "" && strings.HasPrefix(name, std)
		if inStd {
			mode |= parser.SkipObjectResolution
		}
		f, err := parser.ParseFile(fset, name, src, mode)
		if f == nil || !inStd {
			return f, err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name != "init" && !genericFunc(fd) {
				fd.Body = nil
			}
		}
		return f, err
	}
}

// genericFunc: fd has type parameters, or is a method of a generic type.
func genericFunc(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

package passutil

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

func TestRootIdent(t *testing.T) {
	for _, c := range []struct {
		src        string
		root, elem string // "" is nil
	}{
		{"x", "x", "x"},
		{"x.a.b", "x", "x"},
		{"(*x).a", "x", "x"},
		{"(x).a", "x", "x"},
		{"x.a[i].b", "", "x"},
		{"x[i]", "", "x"},
		{"f().a", "", ""},
	} {
		e, err := parser.ParseExpr(c.src)
		if err != nil {
			t.Fatal(err)
		}
		name := func(id *ast.Ident) string {
			if id == nil {
				return ""
			}
			return id.Name
		}
		if got := name(RootIdent(e)); got != c.root {
			t.Errorf("RootIdent(%s) = %q, want %q", c.src, got, c.root)
		}
		if got := name(ElemRootIdent(e)); got != c.elem {
			t.Errorf("ElemRootIdent(%s) = %q, want %q", c.src, got, c.elem)
		}
	}
}

func TestImports(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\nimport (\n\t\"sync\"\n\t\"strings\"\n)\nvar _ sync.Mutex\nvar _ = strings.ToLower\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !Imports(pkg, "strings") || !ImportsSync(pkg) || Imports(pkg, "sync/atomic") {
		t.Errorf("Imports: strings %v, sync %v, sync/atomic %v; want true, true, false",
			Imports(pkg, "strings"), ImportsSync(pkg), Imports(pkg, "sync/atomic"))
	}
}

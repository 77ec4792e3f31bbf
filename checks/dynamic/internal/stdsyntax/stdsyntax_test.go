package stdsyntax

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"testing"
)

// TestParseFile: the loader reads the standard library's functions
// without their bodies (never rewritten, and most of a load's time), but
// keeps those of generic functions and init, and every body of the
// module's own files.
func TestParseFile(t *testing.T) {
	const src = `package p

func Plain() int { return 1 }

func (T) Method() {}

func Generic[E any](e E) E { return e }

func (g *G[E]) OfGeneric() {}

func init() { _ = Plain() }

type T struct{}

type G[E any] struct{}
`
	goroot := t.TempDir()
	parse := ParseFile(goroot)
	bodies := func(name string) map[string]bool {
		t.Helper()
		f, err := parse(token.NewFileSet(), name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				out[fd.Name.Name] = fd.Body != nil
			}
		}
		return out
	}
	std := bodies(filepath.Join(goroot, "src", "p", "p.go"))
	for name, want := range map[string]bool{"Plain": false, "Method": false, "Generic": true, "OfGeneric": true, "init": true} {
		if std[name] != want {
			t.Errorf("standard library: %s has a body %v, want %v", name, std[name], want)
		}
	}
	for name, has := range bodies(filepath.Join(t.TempDir(), "p.go")) {
		if !has {
			t.Errorf("the module's file: %s lost its body", name)
		}
	}
	// Without GOROOT (go env failed), nothing is cut.
	if f, err := ParseFile("")(token.NewFileSet(), filepath.Join(goroot, "src", "p", "p.go"), []byte(src)); err != nil || f.Decls[0].(*ast.FuncDecl).Body == nil {
		t.Errorf("no GOROOT: %v, Plain's body cut", err)
	}
}

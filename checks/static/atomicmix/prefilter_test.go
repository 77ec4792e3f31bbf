package atomicmix

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestCallsAtomic: collectAtomics skips a function only when it calls
// nothing of sync/atomic (in a function literal too); a typed atomic's
// method is walked, as before the check, and ignored there.
func TestCallsAtomic(t *testing.T) {
	const src = `package p

import "sync/atomic"

var n int64
var m atomic.Int64

func add()   { atomic.AddInt64(&n, 1) }
func inLit() { go func() { _ = atomic.LoadInt64(&n) }() }
func typed() { m.Add(1) }
func plain() { n++ }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"add": true, "inLit": true, "typed": true, "plain": false}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if got := callsAtomic(info, fd.Body); got != want[fd.Name.Name] {
			t.Errorf("callsAtomic(%s) = %v, want %v", fd.Name.Name, got, want[fd.Name.Name])
		}
	}
}

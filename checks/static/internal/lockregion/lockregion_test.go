package lockregion

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestLockWalker checks the lock state the walker reports at mark("...")
// calls: which mutexes may be held there.
func TestLockWalker(t *testing.T) {
	const src = `package p

import "sync"

type T struct {
	mu, other sync.Mutex
	rw        sync.RWMutex
}

func mark(string) {}

func (t *T) f(c bool) {
	mark("none")
	t.mu.Lock()
	mark("mu")
	t.mu.Unlock()
	mark("released")
	t.rw.RLock()
	defer t.rw.RUnlock()
	mark("rw")
	if t.other.TryLock() {
		mark("rw,other")
		t.other.Unlock()
	}
	mark("rw after try")
	if !t.mu.TryLock() {
		return
	}
	mark("mu,rw")
	t.mu.Unlock()
	if c {
		t.other.Lock()
	}
	mark("other,rw maybe")
	t.other.Unlock()
	go func() { mark("goroutine") }()
	t.mu.Lock()
	func() { mark("closure mu,rw") }()
	t.mu.Unlock()
	for i := 0; i < 2; i++ {
		t.mu.Lock()
		mark("loop mu,rw")
		t.mu.Unlock()
	}
	mark("end rw")
}
`
	want := map[string]string{
		"none":           "",
		"mu":             "t.mu",
		"released":       "",
		"rw":             "t.rw",
		"rw,other":       "t.other t.rw",
		"rw after try":   "t.rw", // released in the branch that took it
		"mu,rw":          "t.mu t.rw",
		"other,rw maybe": "t.other t.rw",
		"goroutine":      "",
		"closure mu,rw":  "t.mu t.rw",
		"loop mu,rw":     "t.mu t.rw",
		"end rw":         "t.rw",
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	w := &Walker{Info: info, Visit: func(n ast.Node, held Held) {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return
		}
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "mark" {
			label := strings.Trim(call.Args[0].(*ast.BasicLit).Value, `"`)
			got[label] = strings.Join(slices.Sorted(maps.Keys(held)), " ")
		}
	}}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "f" {
			w.WalkFunc(fd.Body, Held{})
		}
	}
	for label, w := range want {
		if g, ok := got[label]; !ok {
			t.Errorf("%s: not visited", label)
		} else if g != w {
			t.Errorf("%s: got held %q, want %q", label, g, w)
		}
	}
}

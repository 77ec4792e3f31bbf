package lockregion

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestCallerLocks checks which functions every caller calls holding a
// write lock (the name of each function says what it expects).
func TestCallerLocks(t *testing.T) {
	const src = `package p

import "sync"

type T struct {
	mu sync.Mutex
	rw sync.RWMutex
	f  func()
}

type I interface{ viaIface() }

func (t *T) A() {
	t.mu.Lock()
	t.heldMu()
	t.heldMuChain()
	t.viaIface()
	t.mu.Unlock()
}

func (t *T) B(c bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.heldMu()
	func() { t.heldMu() }()
	t.f = t.valueUse
	go t.inGo()
	defer t.inDefer()
	func() { t.escapes() }()
	t.valueUse()
	t.inGo()
	t.inDefer()
	t.release()
	t.afterRelease()
}

func (t *T) C(c bool) {
	if c {
		t.mu.Lock()
	}
	t.oneBranch()
	t.mu.Lock()
	t.heldMu()
	t.mu.Unlock()
	t.mu.Lock()
	for i := 0; i < 3; i++ {
		t.inLoop()
		if c {
			t.mu.Unlock()
			continue
		}
	}
	t.rw.RLock()
	t.readLocked()
	t.rw.RUnlock()
	t.mu.Lock()
	switch {
	case c:
		t.mu.Unlock()
	default:
	}
	t.afterSwitch()
	t.mu.Lock()
	defer func() { t.mu.Unlock() }()
	t.heldMu()
}

func (t *T) D() { go func() { t.escapes() }() }

func (t *T) E() {
	t.rw.Lock()
	t.readLocked()
	t.rw.Unlock()
	t.Exported()
}

func (t *T) heldMu()      {}
func (t *T) heldMuChain() { t.heldMu() }
func (t *T) viaIface()    {}
func (t *T) valueUse()    {}
func (t *T) inGo()        {}
func (t *T) inDefer()     {}
func (t *T) escapes()     {}
func (t *T) release()     { t.mu.Unlock() }
func (t *T) afterRelease() {}
func (t *T) oneBranch()   {}
func (t *T) inLoop()      {}
func (t *T) readLocked()  {}
func (t *T) afterSwitch() {}
func (t *T) Exported()    {}
`
	want := map[string]string{
		"heldMu":      "T.mu",
		"heldMuChain": "T.mu",
		"release":     "T.mu", // it releases the lock its callers hold
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
	// Keys as atomicmix names them: the receiver's type, then the fields.
	keyOf := func(e ast.Expr) string {
		s := types.ExprString(e)
		return "T" + strings.TrimPrefix(s, "t")
	}
	got := map[string]string{}
	for fn, keys := range CallerLocks([]*ast.File{f}, info, keyOf, nil) {
		got[fn.Name()] = strings.Join(keys, " ")
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: callers hold %q, want %q", name, got[name], w)
		}
	}
	for name, g := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: callers hold %q, want nothing", name, g)
		}
	}
}

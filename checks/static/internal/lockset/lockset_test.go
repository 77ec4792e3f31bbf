package lockset_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

const prelude = `package p

import "sync"

type S struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	inner struct{ mu sync.Mutex }
	n     int
	m     map[string]int
	items []int
	p     *T
	sync.Mutex
}

type T struct{ x int }

var gmu sync.Mutex

func here()

func (s *S) lock()   { s.mu.Lock() }
func (s *S) unlock() { s.mu.Unlock() }

func (s *S) relockWait() {
	if s.n == 0 {
		return
	}
	s.mu.Unlock()
	s.n--
	s.mu.Lock()
}

func (s *S) unlockSome() {
	if s.n == 0 {
		return
	}
	s.mu.Unlock()
}
`

// fset and imp are shared so that package sync is type-checked once.
var (
	fset = token.NewFileSet()
	imp  = importer.ForCompiler(fset, "source", nil)
)

// build type-checks src and returns its SSA package.
func build(t *testing.T, src string) *ssa.Package {
	t.Helper()
	f, err := parser.ParseFile(fset, "p.go", prelude+src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	conf := &types.Config{Importer: imp}
	pkg, _, err := ssautil.BuildPackage(conf, fset, types.NewPackage("p", "p"), []*ast.File{f}, ssa.BuilderMode(0))
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// heldAtHere returns the lock state before each call to here() in f, in
// source order.
func heldAtHere(t *testing.T, pkg *ssa.Package) []string {
	t.Helper()
	fn := pkg.Func("f")
	if fn == nil {
		t.Fatal("no func f")
	}
	r := lockset.New().Func(fn, lockset.TopLevel, lockset.State{})
	var got []string
	for _, f := range r.Functions() {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if callee := c.Call.StaticCallee(); callee == nil || callee.Name() != "here" {
					continue
				}
				st, ok := r.Before(c)
				if !ok {
					got = append(got, "unreachable")
					continue
				}
				got = append(got, st.String())
			}
		}
	}
	return got
}

func TestHeld(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // states at each here(), joined by " "
	}{
		{"lock-unlock", `func f(s *S) { s.mu.Lock(); here(); s.mu.Unlock(); here() }`, "{s.mu} {}"},
		{"rlock", `func f(s *S) { s.rw.RLock(); here(); s.rw.RUnlock() }`, "{s.rw(r)}"},
		{"defer", `func f(s *S) { s.mu.Lock(); defer s.mu.Unlock(); if s.n > 0 { here(); return }; here() }`, "{s.mu} {s.mu}"},
		{"join", `func f(s *S) { if s.n > 0 { s.mu.Lock() }; here(); if s.n > 0 { s.mu.Unlock() } }`, "{}"},
		{"join-modes", `func f(s *S) { if s.n > 0 { s.rw.Lock() } else { s.rw.RLock() }; here() }`, "{s.rw(r)}"},
		{"trylock", `func f(s *S) { if s.mu.TryLock() { here(); s.mu.Unlock() }; here() }`, "{s.mu} {}"},
		{"trylock-not", `func f(s *S) { if !s.mu.TryLock() { here(); return }; here(); s.mu.Unlock() }`, "{} {s.mu}"},
		{"nested-path", `func f(s *S) { s.inner.mu.Lock(); here(); s.inner.mu.Unlock() }`, "{s.inner.mu}"},
		{"embedded", `func f(s *S) { s.Lock(); here(); s.Unlock() }`, "{s.Mutex}"},
		{"global", `func f() { gmu.Lock(); here(); gmu.Unlock() }`, "{p.gmu}"},
		{"locker", `func f(s *S) { var l sync.Locker = &s.mu; l.Lock(); here(); l.Unlock(); here() }`, "{s.mu} {}"},
		{"closure-inline", `func f(s *S) { s.mu.Lock(); func() { here() }(); s.mu.Unlock() }`, "{s.mu}"},
		{"closure-captured", `func f(s *S) { s.mu.Lock(); func() { s.n++; here() }(); here(); s.mu.Unlock(); s = nil }`, "{s.mu} {s.mu}"},
		{"closure-after-defer", `func f(s *S) { s.mu.Lock(); defer s.mu.Unlock(); ok := func() bool { for i := 0; i < s.n; i++ { if i > 2 { return true } }; return false }(); if ok { here() }; here() }`, "{s.mu} {s.mu}"},
		{"closure-own-defer", `func f(s *S) { func() { s.mu.Lock(); defer s.mu.Unlock(); here() }(); here() }`, "{} {s.mu}"},
		{"defer-closure", `func f(s *S) { s.mu.Lock(); defer func() { s.mu.Unlock() }(); here() }`, "{s.mu}"},
		{"helper-summary", `func f(s *S) { s.lock(); here(); s.unlock(); here() }`, "{s.mu} {}"},
		{"helper-relock", `func f(s *S) { s.mu.Lock(); defer s.mu.Unlock(); s.relockWait(); here() }`, "{s.mu}"},
		{"helper-unlock-some", `func f(s *S) { s.mu.Lock(); defer s.mu.Unlock(); s.unlockSome(); here() }`, "{}"},
		{"loop", `func f(s *S) { for i := 0; i < s.n; i++ { s.mu.Lock(); here(); s.mu.Unlock() }; here() }`, "{s.mu} {}"},
		{"go-not-inlined", `func f(s *S) { s.mu.Lock(); go func() { here() }(); s.mu.Unlock() }`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(heldAtHere(t, build(t, tt.src)), " ")
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAccesses(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // kind:field@locks for each access of f, joined by " "
	}{
		{"store-load", `func f(s *S) { s.mu.Lock(); s.n = s.n + 1; s.mu.Unlock() }`, "read:n@{s.mu} written:n@{s.mu}"},
		{"incr", `func f(s *S) { s.n++ }`, "read:n@{} written:n@{}"},
		{"map", `func f(s *S) { s.rw.RLock(); s.m["a"] = 1; s.rw.RUnlock() }`, "read:m@{s.rw(r)} map written:m@{s.rw(r)}"},
		{"delete", `func f(s *S) { delete(s.m, "a") }`, "read:m@{} map written:m@{}"},
		{"elem", `func f(s *S) { s.items[0] = 1 }`, "read:items@{} written:items@{}"},
		{"append", `func f(s *S) { s.items = append(s.items, 1) }`, "read:items@{} written:items@{}"},
		{"ptr", `func f(s *S) { s.p.x = 1 }`, "read:p@{} written:p@{} written:x@{}"},
		{"local-copy", `func f(s *S) { v := *s.p; v.x = 1; _ = v }`, "read:p@{} written:x@{}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg := build(t, tt.src)
			r := lockset.New().Func(pkg.Func("f"), lockset.TopLevel, lockset.State{})
			var got []string
			for _, a := range r.Accesses() {
				if a.Field == nil || lockset.IsSyncType(a.Field.Type()) || a.Field.Name() == "inner" {
					continue
				}
				st, _ := r.Before(a.Instr)
				got = append(got, a.Kind.String()+":"+a.Field.Name()+"@"+st.String())
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("got %q, want %q", g, tt.want)
			}
		})
	}
}

func TestCallerEntry(t *testing.T) {
	pkg := build(t, `
func (s *S) helper() { here() }
func (s *S) mixed()  { here() }
func (s *S) A() { s.mu.Lock(); s.helper(); s.mixed(); s.mu.Unlock() }
func (s *S) B() { s.mu.Lock(); defer s.mu.Unlock(); s.helper() }
func (s *S) C() { s.mixed() }
func (s *S) relock() { s.rw.RUnlock(); defer s.rw.RLock(); s.rw.Lock(); s.rw.Unlock() }
func (s *S) D() { s.rw.RLock(); s.relock(); here(); s.rw.RUnlock() }
func f() {}
`)
	var funcs []*ssa.Function
	for _, name := range []string{"helper", "mixed", "A", "B", "C", "relock", "D"} {
		funcs = append(funcs, pkg.Prog.LookupMethod(types.NewPointer(pkg.Pkg.Scope().Lookup("S").Type()), pkg.Pkg, name))
	}
	want := map[string]string{"helper": "{s.mu}", "mixed": "{}", "D": "{s.rw(r)}"}
	seen := 0
	for _, r := range lockset.New().Package(funcs, nil) {
		w, ok := want[r.Fn.Name()]
		if !ok {
			continue
		}
		for _, b := range r.Fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(*ssa.Call); ok && c.Call.StaticCallee() != nil && c.Call.StaticCallee().Name() == "here" {
					st, _ := r.Before(c)
					seen++
					if got := st.String(); got != w {
						t.Errorf("%s: got %s, want %s", r.Fn.Name(), got, w)
					}
				}
			}
		}
	}
	if seen != len(want) {
		t.Errorf("got %d probes, want %d", seen, len(want))
	}
}

func TestFreshParams(t *testing.T) {
	pkg := build(t, `
func NewS() *S { s := &S{}; s.setup(); return s }
func (s *S) setup() { s.fill() }
func (s *S) fill() {}
func (s *S) shared() {}
func (s *S) Run() { s.shared() }
func f() {}
`)
	ptr := types.NewPointer(pkg.Pkg.Scope().Lookup("S").Type())
	funcs := []*ssa.Function{pkg.Func("NewS")}
	for _, name := range []string{"setup", "fill", "shared", "Run"} {
		funcs = append(funcs, pkg.Prog.LookupMethod(ptr, pkg.Pkg, name))
	}
	want := map[string]bool{"setup": true, "fill": true, "shared": false}
	for _, r := range lockset.New().Package(funcs, nil) {
		w, ok := want[r.Fn.Name()]
		if !ok {
			continue
		}
		delete(want, r.Fn.Name())
		if got := r.IsFresh(r.Fn.Params[0]); got != w {
			t.Errorf("%s: IsFresh(receiver) = %v, want %v", r.Fn.Name(), got, w)
		}
	}
	if len(want) != 0 {
		t.Errorf("functions not analyzed: %v", want)
	}
}

// TestReturnedUnlockRecursion: a lock helper whose returned literal calls
// the helper again must not recurse forever.
func TestReturnedUnlockRecursion(t *testing.T) {
	pkg := build(t, `
func (s *S) scope() func() {
	s.mu.Lock()
	return func() { s.mu.Unlock(); s.scope()() }
}
func (s *S) Use() {
	defer s.scope()()
	s.n++
}
`)
	fn := pkg.Prog.LookupMethod(types.NewPointer(pkg.Pkg.Scope().Lookup("S").Type()), pkg.Pkg, "Use")
	r := lockset.New().Func(fn, lockset.TopLevel, lockset.State{})
	for _, acc := range r.Accesses() {
		if st, _ := r.Before(acc.Instr); acc.Field != nil && acc.Field.Name() == "n" && st.String() != "{s.mu}" {
			t.Errorf("s.n: got %s, want {s.mu}", st)
		}
	}
}

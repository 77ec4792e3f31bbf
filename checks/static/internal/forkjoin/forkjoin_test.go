package forkjoin

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// fakes stand in for the packages the finders recognize, by path.
var fakes = map[string]string{
	"sync": `package sync

type WaitGroup struct{ n int }

func (wg *WaitGroup) Add(n int) {}
func (wg *WaitGroup) Done()     {}
func (wg *WaitGroup) Wait()     {}

type Mutex struct{ state int }

func (m *Mutex) Lock()   {}
func (m *Mutex) Unlock() {}
`,
	"golang.org/x/sync/errgroup": `package errgroup

type Group struct{}

func (g *Group) Go(f func() error) {}
func (g *Group) Wait() error        { return nil }
`,
}

// fakeImporter type-checks the fakes, once each.
type fakeImporter struct {
	fset *token.FileSet
	pkgs map[string]*types.Package
}

func (im *fakeImporter) Import(path string) (*types.Package, error) {
	if p := im.pkgs[path]; p != nil {
		return p, nil
	}
	src, ok := fakes[path]
	if !ok {
		return nil, fmt.Errorf("no fake for %q", path)
	}
	f, err := parser.ParseFile(im.fset, path+".go", src, 0)
	if err != nil {
		return nil, err
	}
	p, err := (&types.Config{}).Check(path, im.fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, err
	}
	im.pkgs[path] = p
	return p, nil
}

// load parses and type-checks src as package p.
func load(t *testing.T, src string) (*token.FileSet, *ast.File, *types.Package, *types.Info, *types.Config) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := &types.Config{Importer: &fakeImporter{fset, map[string]*types.Package{}}}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{},
	}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f, pkg, info, conf
}

// goIndex numbers the go statements of f in source order.
func goIndex(f *ast.File) map[*ast.GoStmt]int {
	idx := map[*ast.GoStmt]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok {
			idx[g] = len(idx)
		}
		return true
	})
	return idx
}

func numbers(idx map[*ast.GoStmt]int, gos []*ast.GoStmt) []int {
	out := []int{}
	for _, g := range gos {
		out = append(out, idx[g])
	}
	slices.Sort(out)
	return out
}

const prelude = `package p

import (
	"sync"

	"golang.org/x/sync/errgroup"
)

var (
	_ errgroup.Group
	_ sync.Mutex
)

func work()        {}
func use(int)      {}
func cond() bool   { return true }

`

func TestJoinedNext(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []int // the go statements joined, in source order
	}{
		{"wg.Wait", `var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); work() }()
	wg.Wait()`, []int{0}},
		{"receive", `ch := make(chan int)
	go func() { work(); ch <- 1 }()
	<-ch`, []int{0}},
		{"receive assigned", `ch := make(chan int)
	go func() { defer close(ch); work() }()
	v := <-ch
	use(v)`, []int{0}},
		{"errgroup", `var g errgroup.Group
	done := make(chan int)
	go func() { work(); close(done) }()
	_ = g.Wait()`, []int{0}},
		{"ready signal, then work", `ready := make(chan int)
	go func() { ready <- 1; work() }()
	<-ready`, nil},
		{"loop-forked", `var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		n := i
		wg.Add(1)
		go func() { defer wg.Done(); use(n) }()
	}
	wg.Wait()`, []int{0}},
		{"loop doing more than starting", `var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		work()
		wg.Add(1)
		go func() { defer wg.Done() }()
	}
	wg.Wait()`, nil},
		{"loop of receives", `ch := make(chan int)
	go func() { work(); ch <- 1 }()
	for i := 0; i < 1; i++ {
		<-ch
	}`, []int{0}},
		{"range of receives", `ch := make(chan int)
	go func() { work(); ch <- 1 }()
	for range []int{1} {
		<-ch
	}`, []int{0}},
		{"range over a channel", `ch, done := make(chan int), make(chan int)
	go func() { ch <- 1; close(ch) }()
	for range ch {
		<-done
	}`, nil},
		{"nested", `var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		done := make(chan int)
		go func() { work(); done <- 1 }()
		<-done
		wg.Done()
	}()
	wg.Wait()`, []int{0, 1}},
		{"joined after the region ends", `var mu sync.Mutex
	var wg sync.WaitGroup
	mu.Lock()
	wg.Add(1)
	go func() { defer wg.Done() }()
	mu.Unlock()
	wg.Wait()`, nil},
		{"a named function", `var wg sync.WaitGroup
	wg.Add(1)
	go work()
	wg.Wait()`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, f, _, info, _ := load(t, prelude+"func f() {\n\t"+tt.body+"\n}\n")
			// As lockregion walks them: every statement list.
			var got []*ast.GoStmt
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BlockStmt:
					got = append(got, JoinedNext(info, n.List)...)
				case *ast.CaseClause:
					got = append(got, JoinedNext(info, n.Body)...)
				case *ast.CommClause:
					got = append(got, JoinedNext(info, n.Body)...)
				}
				return true
			})
			want := tt.want
			if want == nil {
				want = []int{}
			}
			if g := numbers(goIndex(f), got); !slices.Equal(g, want) {
				t.Errorf("got joined %v, want %v", g, want)
			}
		})
	}
}

func TestJoinedAll(t *testing.T) {
	tests := []struct {
		name string
		src  string // declares f
		want []int  // nil: not every goroutine joined
	}{
		{"wg.Wait later", `func f() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); work() }()
	work()
	wg.Wait()
}`, []int{0}},
		{"wg.Done last", `func f() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { work(); wg.Done() }()
	wg.Wait()
}`, []int{0}},
		{"loop-forked", `func f() {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); use(i) }()
	}
	wg.Wait()
}`, []int{0}},
		{"return before the join", `func f() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done() }()
	if cond() {
		return
	}
	wg.Wait()
}`, nil},
		{"another WaitGroup", `func f() {
	var wg, other sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done() }()
	other.Wait()
}`, nil},
		{"a field's WaitGroup", `type S struct{ wg sync.WaitGroup }

func (s *S) f() {
	s.wg.Add(1)
	go func() { defer s.wg.Done() }()
	s.wg.Wait()
}`, nil},
		{"receive is no join here", `func f() {
	ch := make(chan int)
	go func() { ch <- 1 }()
	<-ch
}`, nil},
		{"stop channel", `func ticker(stop chan bool) {
	for {
		select {
		case <-stop:
			return
		default:
			work()
		}
	}
}

func f() {
	stop := make(chan bool)
	go ticker(stop)
	defer func() { stop <- true }()
	work()
}`, []int{0}},
		{"buffered stop channel", `func ticker(stop chan bool) {
	select {
	case <-stop:
		return
	}
}

func f() {
	stop := make(chan bool, 1)
	go ticker(stop)
	defer func() { stop <- true }()
}`, nil},
		{"nested: a goroutine of a goroutine", `func f() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		go work()
	}()
	wg.Wait()
}`, nil},
		{"go in a literal run elsewhere", `func f() {
	var wg sync.WaitGroup
	g := func() { go func() { defer wg.Done() }() }
	g()
	wg.Wait()
}`, nil},
		{"one of two not joined", `func f() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done() }()
	go work()
	wg.Wait()
}`, nil},
		{"no goroutine", `func f() {
	work()
}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, f, pkg, info, _ := load(t, prelude+tt.src+"\n")
			decls := map[*types.Func]*ast.FuncDecl{}
			var fd *ast.FuncDecl
			for _, d := range f.Decls {
				if d, ok := d.(*ast.FuncDecl); ok {
					decls[info.Defs[d.Name].(*types.Func)] = d
					if d.Name.Name == "f" {
						fd = d
					}
				}
			}
			gos, ok := JoinedAll(info, fd.Body, func(fn *types.Func) *ast.FuncDecl {
				if fn.Pkg() != pkg {
					return nil
				}
				return decls[fn]
			})
			if tt.want == nil {
				if ok {
					t.Errorf("got every goroutine joined (%v), want not", numbers(goIndex(f), gos))
				}
				return
			}
			if !ok {
				t.Fatalf("got not every goroutine joined, want %v", tt.want)
			}
			if g := numbers(goIndex(f), gos); !slices.Equal(g, tt.want) {
				t.Errorf("got joined %v, want %v", g, tt.want)
			}
		})
	}
}

// build builds src's package in SSA form.
func build(t *testing.T, src string) *ssa.Package {
	t.Helper()
	fset, f, _, _, conf := load(t, src)
	p, _, err := ssautil.BuildPackage(conf, fset, types.NewPackage("p", ""), []*ast.File{f}, ssa.InstantiateGenerics)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// method returns (*S).name of p.
func method(p *ssa.Package, name string) *ssa.Function {
	ms := p.Prog.MethodSets.MethodSet(types.NewPointer(p.Pkg.Scope().Lookup("S").Type()))
	for i := 0; i < ms.Len(); i++ {
		if fn := p.Prog.MethodValue(ms.At(i)); fn.Name() == name {
			return fn
		}
	}
	return nil
}

// last returns fn's last instruction of type T.
func last[T ssa.Instruction](fn *ssa.Function) T {
	var out T
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if x, ok := instr.(T); ok {
				out = x
			}
		}
	}
	return out
}

const ssaPrelude = `package p

import "sync"

type S struct {
	wg, other sync.WaitGroup
	x         []int
}

func (s *S) run()      { defer s.wg.Done() }
func (s *S) runOther() { defer s.other.Done() }
func cond() bool       { return true }

`

func TestStartWG(t *testing.T) {
	tests := []struct {
		name string
		body string // of (s *S) start
		want string // the field, "" for none
	}{
		{"Add then go", `s.wg.Add(1)
	go s.run()`, "wg"},
		{"literal", `s.wg.Add(1)
	go func() { defer s.wg.Done() }()`, "wg"},
		{"Add not on every path", `if cond() {
		s.wg.Add(1)
	}
	go s.run()`, ""},
		{"Add after go", `go s.run()
	s.wg.Add(1)`, ""},
		{"Done on another field", `s.wg.Add(1)
	go s.runOther()`, ""},
		{"a local WaitGroup", `var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done() }()`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := build(t, ssaPrelude+"func (s *S) start() {\n\t"+tt.body+"\n}\n")
			g := last[*ssa.Go](method(p, "start"))
			var f *ssa.Function
			switch v := g.Call.Value.(type) {
			case *ssa.Function:
				f = v
			case *ssa.MakeClosure:
				f = v.Fn.(*ssa.Function)
			}
			got := ""
			if wg := StartWG(g, f); wg != nil {
				got = wg.Name()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWaits(t *testing.T) {
	tests := []struct {
		name string
		body string // of (s *S) stop; the waits before the store to s.x
		want []string
	}{
		{"Wait before", `s.wg.Wait()
	s.x = nil`, []string{"wg"}},
		{"both", `s.other.Wait()
	s.wg.Wait()
	s.x = nil`, []string{"other", "wg"}},
		{"Wait on one path", `if cond() {
		s.wg.Wait()
	}
	s.x = nil`, nil},
		{"joined after the access", `s.x = nil
	s.wg.Wait()`, nil},
		{"a local WaitGroup", `var wg sync.WaitGroup
	wg.Wait()
	s.x = nil`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := build(t, ssaPrelude+"func (s *S) stop() {\n\t"+tt.body+"\n}\n")
			var got []string
			for _, w := range Waits(last[*ssa.Store](method(p, "stop"))) {
				got = append(got, w.Field.Name())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

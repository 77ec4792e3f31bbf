package rewrite

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// hostFunc counts a function that starts a goroutine calling its
// caller's function (a func parameter, or one of an exported interface
// its package declares for callers to implement, also by an alias) and
// returns without waiting for it, and only that: not a context's Done, not
// an interface with no method, not an unexported one.
func TestHostFunc(t *testing.T) {
	const src = `package p

import (
	"context"
	"sync"
	"time"
)

type Group struct{ wg sync.WaitGroup }

// Job is the caller's work, as a scheduler's (robfig/cron's Job).
type Job interface{ Run() }

// Any has no method: nothing of the caller's to run.
type Any interface{}

type Cron struct{ wg sync.WaitGroup }

func (c *Cron) startJob(j Job) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		j.Run()
	}()
}

func WaitJob(j Job, done chan struct{}) {
	go j.Run()
	<-done
}

func Watch(ctx context.Context, stop func()) {
	go func() {
		<-ctx.Done()
	}()
}

func Keep(v Any, c chan Any) {
	go func() { c <- v }()
}

// handler is implemented by the package's own types.
type handler interface{ handle() }

func serve(h handler) {
	go h.handle()
}

// Task is Job by another name.
type Task = Job

func StartTask(t Task) {
	go t.Run()
}

func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func Direct(f func()) { go f() }

func InLoop(fs []func(), f func()) {
	for range fs {
		go f()
	}
}

func Poll(cond func() bool) {
	done := make(chan struct{})
	go func() {
		for !cond() {
		}
		close(done)
	}()
	<-done
}

func Joined(f func(), wg *sync.WaitGroup) {
	go f()
	wg.Wait()
}

func Sleeps(f func()) {
	go f()
	time.Sleep(time.Millisecond)
}

func SelectAfter(f func(), c chan int) {
	go f()
	select {
	case <-c:
	}
}

func OwnWork(ch chan int) {
	go func() { ch <- 1 }()
}

func WaitBefore(f func(), c chan int) {
	<-c
	go f()
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"Go": true, "Direct": true, "InLoop": true, "WaitBefore": true,
		"Poll": false, "Joined": false, "Sleeps": false, "SelectAfter": false, "OwnWork": false,
		"startJob": true, "WaitJob": false, "Watch": false, "Keep": false, "serve": false, "StartTask": true}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		w, named := want[fd.Name.Name]
		if !named {
			continue
		}
		if got := hostFunc(info, fd); got != w {
			t.Errorf("hostFunc(%s) = %v, want %v", fd.Name.Name, got, w)
		}
		delete(want, fd.Name.Name)
	}
	if len(want) > 0 {
		t.Errorf("functions not seen: %v", want)
	}
}

// TestHostFuncHandsOn: a goroutine that runs another function of the
// package with the caller's function as an argument (singleflight's
// DoChan: `go g.doCall(c, key, fn)`) hosts the caller's code too; one
// that is handed only other values does not.
func TestHostFuncHandsOn(t *testing.T) {
	const src = `package p

import "sync"

type call struct {
	wg  sync.WaitGroup
	val int
}

type Group struct{ mu sync.Mutex }

func (g *Group) doCall(c *call, fn func() int) {
	defer c.wg.Done()
	c.val = fn()
}

func (g *Group) DoChan(fn func() int) *call {
	c := new(call)
	c.wg.Add(1)
	go g.doCall(c, fn)
	return c
}

func run(fs []func()) {
	for _, f := range fs {
		f()
	}
}

func Start(f func()) { go run([]func(){f}) }

func (g *Group) Do(fn func() int) int {
	c := new(call)
	c.wg.Add(1)
	g.doCall(c, fn)
	return c.val
}

func count(n int) {}

func Count(n int, f func()) {
	f()
	go count(n)
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"DoChan": true, "Start": true, "Do": false, "Count": false, "doCall": false}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if w, named := want[fd.Name.Name]; named {
			if got := hostFunc(info, fd); got != w {
				t.Errorf("hostFunc(%s) = %v, want %v", fd.Name.Name, got, w)
			}
			delete(want, fd.Name.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("functions not seen: %v", want)
	}
}

// TestHostsStored: a package that stores its caller's function (a send,
// an append, a field, a package variable) and runs a function of that
// type on a goroutine it started (a worker pool's Submit and its
// constructor's workers) hosts the caller's code; storing without such a
// goroutine, or a goroutine running functions of another type, does not.
func TestHostsStored(t *testing.T) {
	const head = `package p

import "sync"

var _ sync.Mutex
`
	cases := []struct {
		name string
		src  string
		want bool
	}{
		{"channel pool", `
type Pool struct{ tasks chan func() }

func New(n int) *Pool {
	p := &Pool{tasks: make(chan func(), 4)}
	for range n {
		go p.work()
	}
	return p
}

func (p *Pool) work() {
	for f := range p.tasks {
		f()
	}
}

func (p *Pool) Submit(f func()) { p.tasks <- f }
`, true},
		{"slice queue, job struct", `
type job struct {
	fn   func() int
	done chan int
}

type Queue struct {
	mu      sync.Mutex
	pending []job
}

func (q *Queue) Push(fn func() int) chan int {
	j := job{fn: fn, done: make(chan int, 1)}
	q.mu.Lock()
	q.pending = append(q.pending, j)
	q.mu.Unlock()
	return j.done
}

func (q *Queue) Start() { go func() { q.loop() }() }

func (q *Queue) loop() {
	for {
		q.mu.Lock()
		if len(q.pending) == 0 {
			q.mu.Unlock()
			return
		}
		j := q.pending[0]
		q.pending = q.pending[1:]
		q.mu.Unlock()
		j.done <- j.fn()
	}
}
`, true},
		{"generic pool", `
type Pool[T any] struct{ in chan func() T }

func (p *Pool[T]) Go(f func() T) { p.in <- f }

func (p *Pool[T]) Start(out chan T) { go p.run(out) }

func (p *Pool[T]) run(out chan T) {
	for f := range p.in {
		out <- f()
	}
}
`, true},
		{"package variable", `
type Handler func(string)

var onEvent Handler

func OnEvent(h Handler) { onEvent = h }

func Start(events chan string) {
	go func() {
		for e := range events {
			onEvent(e)
		}
	}()
}
`, true},
		{"stored, no goroutine", `
type Reg struct{ hooks []func() }

func (r *Reg) Add(f func()) { r.hooks = append(r.hooks, f) }

func (r *Reg) Run() {
	for _, f := range r.hooks {
		f()
	}
}
`, false},
		{"goroutine runs another type", `
type Reg struct{ hooks []func(int) }

func (r *Reg) Add(f func(int)) { r.hooks = append(r.hooks, f) }

type Loop struct{ ticks chan func() }

func (l *Loop) Start() {
	go func() {
		for f := range l.ticks {
			f()
		}
	}()
}
`, false},
		{"called, not stored", `
func Each(xs []int, f func(int)) {
	for _, x := range xs {
		g := f
		g(x)
	}
}

func Spin(c chan func()) {
	go func() {
		for f := range c {
			f()
		}
	}()
}
`, false},
	}
	for _, c := range cases {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", head+c.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
		if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := hostsFiles(info, []*ast.File{f}); got != c.want {
			t.Errorf("%s: hostsFiles = %v, want %v", c.name, got, c.want)
		}
	}
}

package lockset_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/interleave-dev/interleave/checks/static/internal/lockset"
)

const callersSrc = `package p

import "sync"

type D struct {
	mu    sync.RWMutex
	rings []*R
}

type R struct {
	dmu *sync.RWMutex
	own sync.Mutex
}

func newR(d *D) *R { return &R{dmu: &d.mu} }

func (d *D) Handle(i int) { d.mu.Lock(); d.Set(i); d.mu.Unlock() }
func (d *D) Set(i int)    { d.rings[i].Set() }
func (r *R) Set()         {}

func (r *R) popBatch() { r.dmu.RLock(); r.pop(); r.dmu.RUnlock() }
func (r *R) pop()      {}

func (r *R) Defer()    { r.own.Lock(); defer r.deferred(); r.own.Unlock() }
func (r *R) deferred() {}

func (r *R) Go()      { r.own.Lock(); go r.spawned(); r.own.Unlock() }
func (r *R) spawned() {}

func (r *R) Both()  { r.own.Lock(); r.mixed(); r.own.Unlock(); r.mixed() }
func (r *R) mixed() {}
`

// callerClasses builds callersSrc as package path (named name) and returns each
// method's caller classes ("D.mu locked", "D.mu read-locked").
func callerClasses(t *testing.T, path, name string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(fset, "p.go", strings.Replace(callersSrc, "package p", "package "+name, 1), 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: imp}, fset, types.NewPackage(path, name), []*ast.File{f}, ssa.BuilderMode(0))
	if err != nil {
		t.Fatal(err)
	}
	funcs := []*ssa.Function{pkg.Func("newR")}
	for _, tn := range []string{"D", "R"} {
		ms := pkg.Prog.MethodSets.MethodSet(types.NewPointer(pkg.Pkg.Scope().Lookup(tn).Type()))
		for i := 0; i < ms.Len(); i++ {
			funcs = append(funcs, pkg.Prog.MethodValue(ms.At(i)))
		}
	}
	for _, fn := range funcs {
		funcs = append(funcs, fn.AnonFuncs...)
	}
	out := map[string]string{}
	for _, r := range lockset.New().Package(funcs, nil) {
		if r.Fn.Parent() != nil {
			continue
		}
		var cs []string
		for _, c := range r.CallerClasses() {
			owner := ""
			for _, tn := range []string{"D", "R"} {
				st := pkg.Pkg.Scope().Lookup(tn).Type().Underlying().(*types.Struct)
				for i := 0; i < st.NumFields(); i++ {
					if st.Field(i) == c.Field {
						owner = tn
					}
				}
			}
			cs = append(cs, fmt.Sprintf("%s.%s %s", owner, c.Field.Name(), c.Mode))
		}
		sort.Strings(cs)
		fn := r.Fn.Name()
		if recv := r.Fn.Signature.Recv(); recv != nil {
			fn = strings.TrimPrefix(recv.Type().String(), "*"+path+".") + "." + fn
		}
		out[fn] = strings.Join(cs, ", ")
	}
	return out
}

// TestCallerClasses: the locks every call holds, named by their mutex
// field, through a call that does not pass the lock's owner (D.Set calls
// d.rings[i].Set()) and through a pointer field every store of which
// takes &d.mu (R.dmu); nothing through a go or defer statement or from a
// caller without the lock; an exported method's callers count only in an
// internal or a main package.
func TestCallerClasses(t *testing.T) {
	inside := map[string]string{"D.Set": "D.mu locked", "R.Set": "D.mu locked", "R.pop": "D.mu read-locked", "R.deferred": "", "R.spawned": "", "R.mixed": "", "D.Handle": ""}
	for _, tc := range []struct {
		path, name string
		want       map[string]string
	}{
		{"example.com/m/internal/p", "p", inside},
		{"example.com/m/cmd/p", "main", inside},
		{"example.com/m/p", "p", map[string]string{"D.Set": "", "R.Set": "", "R.pop": "D.mu read-locked", "R.deferred": "", "R.spawned": "", "R.mixed": "", "D.Handle": ""}},
	} {
		got := callerClasses(t, tc.path, tc.name)
		for fn, w := range tc.want {
			if got[fn] != w {
				t.Errorf("%s: %s: caller classes %q, want %q", tc.path, fn, got[fn], w)
			}
		}
	}
}

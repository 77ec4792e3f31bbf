package claim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"
)

func TestClaim(t *testing.T) {
	for doc, want := range map[string]bool{
		"// T is safe for concurrent use.":                        true,
		"// T is safe for concurrent use by multiple goroutines.": true,
		"// T is goroutine-safe.":                                 true,
		"// T is not safe for concurrent use.":                    false,
		"// T is not thread-safe.":                                false,
		"// T counts.\n//\n//interleave:threadsafe":               true,
		"// T counts.": false,
		"// LRU implements a non-thread safe fixed size LRU cache.":                                             false,
		"// T is unsafe for concurrent use.":                                                                    false,
		"// Configs are treated as readonly. As long as they are unmodified, they are safe for concurrent use.": false,
		"// T is safe for concurrent use if every caller holds its lock.":                                       false,
		"// T is read-only. If in doubt, copy it. T is safe for concurrent use.":                                true,
		"// Goroutine safety: Do not mutate T's fields after Start.":                                            false,
		"// Thread safety: see the package doc.":                                                                false,
		"// T is thread safe, and goroutine-safe.":                                                              true,
	} {
		src := "package p\n\n" + doc + "\ntype T struct{}\n"
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		cg := f.Decls[0].(*ast.GenDecl).Doc
		if got := Of(cg) != ""; got != want {
			t.Errorf("Of(%q) = %v, want %v", doc, got, want)
		}
	}
}

func TestDisclaims(t *testing.T) {
	for doc, want := range map[string]bool{
		"// Buffer is like bytes.Buffer. It is NOT thread-safe.": true,
		"// T is not safe for concurrent use.":                   true,
		"// T is safe for concurrent use.":                       false,
		"// T counts.":                                           false,
	} {
		src := "package p\n\n" + doc + "\ntype T struct{}\n"
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if got := Disclaims(f.Decls[0].(*ast.GenDecl).Doc); got != want {
			t.Errorf("Disclaims(%q) = %v, want %v", doc, got, want)
		}
	}
}

func TestTypes(t *testing.T) {
	const src = `package p

// A is safe for concurrent use.
type A struct{}

// Not a claim.
type B struct{}

// C is thread-safe, but not a struct.
type C int

// D is goroutine-safe.
type (
	D struct{}
)

// The group's doc is no claim for specs in a group of two: thread-safe.
type (
	E struct{}
	// F is safe for concurrent use.
	F struct{}
)

// G is a client. Both the Read and Write are thread-safe.
type G struct{}

func (*G) Read()    {}
func (*G) Write()   {}
func (*G) Connect() {}

// H is a client; its Read is fast. H is thread-safe.
type H struct{}

func (*H) Read() {}

// I is a driver. Registration methods must be called before the first
// call to Open. The methods are safe to call concurrently with each other.
type I struct{}

func (*I) Register() {}
func (*I) Open()     {}

// J is a pool. Close must be called before the process exits. J is safe
// for concurrent use.
type J struct{}

func (*J) Get() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range Types([]*ast.File{f}, info) {
		if c.Spec.Name.Name != c.Name.Name() || c.Doc == nil {
			t.Errorf("%s: spec %s, doc %v", c.Name.Name(), c.Spec.Name.Name, c.Doc)
		}
		got = append(got, c.Name.Name()+":"+c.Phrase)
	}
	want := "A:safe for concurrent use D:goroutine-safe F:safe for concurrent use H:thread-safe J:safe for concurrent use"
	if strings.Join(got, " ") != want {
		t.Errorf("Types = %q, want %q", got, want)
	}
}

func TestGuard(t *testing.T) {
	const src = `package p

import (
	"sync"
	at "sync/atomic"
)

type A struct {
	n  int
	mu sync.RWMutex
}
type B struct{ sync.Mutex }
type C struct{ p at.Pointer[int] }
type D struct {
	mu *sync.Mutex
	wg sync.WaitGroup
	o  sync.Once
}

// The package's own types that hold a lock: lock wrappers.
type E struct {
	n  int
	mu MutexWrap
}
type F struct{ wrap }
type G struct{ l locker }
type H struct{ g alias }
type I struct{ w *MutexWrap }
type J struct{ e empty }
type K struct {
	k *K
	l loop
}
type L struct{ w gen[int] }
type M struct{ o other }
`
	const other = `package p

import "sync"

// MutexWrap is logrus's: a mutex that can be disabled.
type MutexWrap struct {
	lock     sync.Mutex
	disabled bool
}

type wrap struct{ MutexWrap }
type locker sync.Mutex
type alias = MutexWrap
type empty struct{ n int }
type loop struct{ l *loop }
type gen[T any] struct {
	v  T
	mu sync.Mutex
}
type other struct{ wg sync.WaitGroup }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	o, err := parser.ParseFile(fset, "o.go", other, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"A": "mu sync.RWMutex", "B": "Mutex sync.Mutex", "C": "p atomic.Pointer", "D": "",
		"E": "mu MutexWrap (lock sync.Mutex)", "F": "wrap wrap (MutexWrap MutexWrap (lock sync.Mutex))",
		"G": "l locker (Mutex sync.Mutex)", "H": "g alias (MutexWrap MutexWrap (lock sync.Mutex))", "I": "", "J": "", "K": "",
		"L": "w gen (mu sync.Mutex)", "M": ""}
	files := []*ast.File{f, o}
	for ts := range StructDocs([]*ast.File{f}) {
		if got := Guard(files, f, ts.Type.(*ast.StructType)); got != want[ts.Name.Name] {
			t.Errorf("Guard(%s) = %q, want %q", ts.Name.Name, got, want[ts.Name.Name])
		}
	}
	// Without the package's other file the wrappers are unknown.
	for ts := range StructDocs([]*ast.File{f}) {
		if got := Guard([]*ast.File{f}, f, ts.Type.(*ast.StructType)); ts.Name.Name == "E" && got != "" {
			t.Errorf("Guard(E) without o.go = %q, want \"\"", got)
		}
	}
}

// TestGuardFields: every guarding field, not only the first one; an
// embedded field by its type's name.
func TestGuardFields(t *testing.T) {
	const src = `package p

import (
	"sync"
	"sync/atomic"
)

type A struct {
	n      int
	a, b   atomic.Uint32
	remote *int
	sync.Mutex
	w      wrap[int]
	p      *sync.Mutex
	m      map[string]int
}

type wrap[T any] struct {
	v  T
	mu sync.RWMutex
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	for ts := range StructDocs([]*ast.File{f}) {
		if ts.Name.Name != "A" {
			continue
		}
		got := strings.Join(GuardFields([]*ast.File{f}, f, ts.Type.(*ast.StructType)), " ")
		if want := "a b Mutex w"; got != want {
			t.Errorf("GuardFields(A) = %q, want %q", got, want)
		}
	}
}

func TestDisclaimedInterfaces(t *testing.T) {
	const src = `package p

type (
	// P publishes. A P is NOT safe for concurrent use. All calls must be
	// made from a single goroutine.
	P interface{ Add() }
	// Q is safe for concurrent use.
	Q interface{ Get() }
)

// R is not thread-safe, but it is no interface.
type R struct{}

// S makes no promise.
type S interface{ Put() }

// T is not goroutine-safe.
type T interface{ Take() }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	var got []string
	for tn := range DisclaimedInterfaces([]*ast.File{f}, info) {
		got = append(got, tn.Name())
	}
	slices.Sort(got)
	if want := "P T"; strings.Join(got, " ") != want {
		t.Errorf("DisclaimedInterfaces = %q, want %q", got, want)
	}
}

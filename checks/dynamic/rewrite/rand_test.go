package rewrite

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestRandDraws: math/rand's and math/rand/v2's top-level draws become
// draws of the runtime's schedule-seeded generators, in the code under
// test and in a dependency's time-only rewrite alike (a replay must draw
// what the recording drew); Seed is the runtime's MathRandSeed (it
// restarts that stream), Read stays as written, and so do the methods of a
// generator the code made itself.
func TestRandDraws(t *testing.T) {
	const src = `package p

import (
	"math/rand"
	r2 "math/rand/v2"
	"time"
)

func Pick(n int) int { return rand.Intn(n) }

func Jitter() time.Duration { return r2.N(10 * time.Millisecond) }

func Both() (int, float64, uint64) {
	f := rand.Float64
	rand.Shuffle(3, func(i, j int) {})
	return r2.IntN(4), f(), r2.Uint64()
}

func Seeded() { rand.Seed(1); rand.Read(nil) }

func Own(r *rand.Rand) uint32 { r.Seed(2); return r.Uint32() }
`
	p, f := checkedFile(t, "p.go", src)
	for _, timeOnly := range []bool{false, true} {
		out, warns, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", timeOnly)
		if err != nil || !changed {
			t.Fatalf("timeOnly %v: changed %v, err %v", timeOnly, changed, err)
		}
		got := string(out)
		for _, want := range []string{
			"return " + rtp + "MathRand.Intn(n)",
			"return " + rtp + "RandN(10 * " + rtp + "Millisecond)",
			"f := " + rtp + "MathRand.Float64",
			rtp + "MathRand.Shuffle(3,",
			"return " + rtp + "MathRandV2.IntN(4), f(), " + rtp + "MathRandV2.Uint64()",
			rtp + "MathRandSeed(1); rand.Read(nil)",
			"r.Seed(2); return r.Uint32()",
		} {
			want = strings.ReplaceAll(want, rtp+"Millisecond", "time.Millisecond")
			if !strings.Contains(got, want) {
				t.Errorf("timeOnly %v: no %q in\n%s", timeOnly, want, got)
			}
		}
		if strings.Contains(got, "r2 \"math/rand/v2\"") {
			t.Errorf("timeOnly %v: math/rand/v2 still imported, no use left:\n%s", timeOnly, got)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
			t.Errorf("timeOnly %v: %v\n%s", timeOnly, err, got)
		}
		for _, w := range warns {
			t.Errorf("timeOnly %v: warning %s", timeOnly, w)
		}
	}
}

// TestRandSeeds: math/rand's NewSource and math/rand/v2's NewPCG become
// rt's (which take a seed read from the clock from the schedule's stream),
// in the code under test and in dependencies; New stays.
func TestRandSeeds(t *testing.T) {
	const src = `package p

import (
	"math/rand"
	r2 "math/rand/v2"
	"time"
)

func Own() *rand.Rand { return rand.New(rand.NewSource(time.Now().UnixNano())) }

func OwnV2() *r2.Rand { return r2.New(r2.NewPCG(1, 2)) }
`
	p, f := checkedFile(t, "p.go", src)
	for _, timeOnly := range []bool{false, true} {
		out, warns, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", timeOnly)
		if err != nil || !changed {
			t.Fatalf("timeOnly %v: changed %v, err %v", timeOnly, changed, err)
		}
		got := string(out)
		for _, want := range []string{
			"return rand.New(" + rtp + "NewSource(" + rtp + "Now().UnixNano()))",
			"return r2.New(" + rtp + "NewPCG(1, 2))",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("timeOnly %v: no %q in\n%s", timeOnly, want, got)
			}
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
			t.Errorf("timeOnly %v: %v\n%s", timeOnly, err, got)
		}
		for _, w := range warns {
			t.Errorf("timeOnly %v: warning %s", timeOnly, w)
		}
	}
}

// checkedFile parses and type-checks src as the one file, name, of a
// package "p", for the file rewriter's unit tests.
func checkedFile(t *testing.T, name, src string) (*packages.Package, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits: map[ast.Node]types.Object{}, Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{}}
	tp, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return &packages.Package{PkgPath: "p", Fset: fset, Types: tp, TypesInfo: info, Syntax: []*ast.File{f}}, f
}

// TestDependencyGosched: a dependency's runtime.Gosched, in its time-only
// rewrite, is the runtime's Gosched (a yield the scheduler sees); its
// other runtime calls stay as written.
func TestDependencyGosched(t *testing.T) {
	const src = `package p

import "runtime"

func yield() { runtime.Gosched() }

func procs() int { return runtime.GOMAXPROCS(0) }
`
	p, f := checkedFile(t, "p.go", src)
	out, _, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", true)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	got := string(out)
	if !strings.Contains(got, "func yield() { "+rtp+"Gosched() }") {
		t.Errorf("Gosched not rewritten:\n%s", got)
	}
	if !strings.Contains(got, "return runtime.GOMAXPROCS(0)") {
		t.Errorf("GOMAXPROCS rewritten:\n%s", got)
	}
}

// TestDependencyGoschedOnly: a file whose only use of runtime is Gosched
// keeps the import blank (unused, it would not compile).
func TestDependencyGoschedOnly(t *testing.T) {
	const src = `package p

import "runtime"

func yield() { runtime.Gosched() }
`
	p, f := checkedFile(t, "p.go", src)
	out, _, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", true)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	if got := string(out); !strings.Contains(got, `import _ "runtime"`) || !strings.Contains(got, "func yield() { "+rtp+"Gosched() }") {
		t.Errorf("want Gosched rewritten and the runtime import blank:\n%s", got)
	}
}

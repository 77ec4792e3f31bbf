package gen

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/internal/testctx"
)

// showOrderKernel is the shape of a generated case under the scheduler:
// goroutine A writes x, formats its result with genShow and hands over to
// goroutine B in a way the race detector does not see (the scheduler's
// futex; here a plain word read in norace code), and B formats its own
// result and reads x. The write and the read race on every round, unless
// genShow itself orders A before B: fmt's printers come from a sync.Pool,
// and a printer A puts back and B takes is such an order (in race mode
// Put drops one in four at random, so it hides the race on most rounds,
// not all). One P, so that A and B share the pool's per-P cache, as the
// scheduler's goroutines often do.
const showOrderKernel = `
const showOrderRounds = 20

var handed uint32

//go:norace
//go:noinline
func hand() { handed = 1 }

//go:norace
//go:noinline
func wasHanded() bool { return handed == 1 }

//go:norace
//go:noinline
func unhand() { handed = 0 }

type showName string

type showGo int

func (showGo) GoString() string { return "showGo!" }

func main() {
	// genShow says what fmt's %#v says, without fmt where it can.
	for _, v := range []interface{}{nil, true, -5, int8(-128), int64(1 << 62), 'x', byte(255), uint(0), uintptr(4096), uint64(1<<64 - 1),
		"", "a\"b\n\u00e9\x00", showName("q` + "`" + `"), showGo(3), 1.5, []int{1}, map[string]int{"a": 1}, struct{ A int }{1}, (*int)(nil)} {
		if got, want := genShow(v), fmt.Sprintf("%#v", v); got != want {
			fmt.Printf("MISMATCH %T: genShow %q, fmt %q\n", v, got, want)
		}
	}
	if got, want := genShown(genShow(fmt.Errorf("e %q", "x"))), fmt.Sprintf("error(%q)", ` + "`" + `e "x"` + "`" + `); got != want {
		fmt.Printf("MISMATCH error: genShow %q, want %q\n", got, want)
	}
	// A call that fails is compared by what its error wraps last, not by
	// the text around it or its other results.
	invalid, other := errors.New("invalid"), errors.New("other")
	a := genShow(3, fmt.Errorf("%w: from %d", invalid, 3))
	b := genShow(0, fmt.Errorf("%w: from %d", invalid, 0))
	if genKeyOf(a) != genKeyOf(b) || genShown(a) != "3, error(\"invalid: from 3\")" {
		fmt.Printf("MISMATCH wrapped: %q and %q\n", a, b)
	}
	for _, c := range []string{genShow(0, fmt.Errorf("%w: from %d", other, 0)), genShow(0, nil), genShow(0, fmt.Errorf("invalid: from 0"))} {
		if genKeyOf(c) == genKeyOf(b) {
			fmt.Printf("MISMATCH %q compared as %q\n", c, b)
		}
	}
	if got := genKey([]string{genShow(1, nil), b}); got != "1, <nil>\x00error(*errors.errorString \"invalid\")" {
		fmt.Printf("MISMATCH key %q\n", got)
	}
	runtime.GOMAXPROCS(1)
	for i := 0; i < showOrderRounds; i++ {
		x := new(int64)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			*x = 1
			_ = genShow(nil)
			hand()
		}()
		go func() {
			defer wg.Done()
			for !wasHanded() {
				runtime.Gosched()
			}
			_ = genShow(nil)
			_ = *x
		}()
		wg.Wait()
		unhand()
	}
}
`

// TestGenShowAddsNoOrder: genShow, run in a case's goroutines, must not
// order them for the race detector. Counted, not timed: the kernel's race
// is reported on every one of its rounds (each report on its own with
// GORACE suppress_equal_stacks=0). With fmt.Sprintf("%#v", nil) in genShow
// (before racereplay29) about a quarter of the rounds reported it, and
// TestInterleaveGen_Bank_19 of the README's example replayed its race 3
// times in 10.
func TestGenShowAddsNoOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	helpers := helperFuncs(t, "genShow", "genShown", "genKey")
	dir := t.TempDir()
	src := "package main\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\t\"reflect\"\n\t\"runtime\"\n\t\"strconv\"\n\t\"strings\"\n\t\"sync\"\n)\n\nvar (\n\t_ = fmt.Sprint\n\t_ = reflect.TypeOf\n\t_ = strconv.Itoa\n)\n\n" + showOrderKernel + "\n" + helpers
	formatted, err := format.Source([]byte(src))
	if err != nil {
		t.Fatalf("kernel does not format: %v\n%s", err, src)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), formatted, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module showorder\n\ngo 1.17\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := testctx.New(t)
	cmd := exec.CommandContext(ctx, "go", "run", "-race", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GORACE=suppress_equal_stacks=0 atexit_sleep_ms=0", "GOFLAGS=-mod=mod")
	out, _ := cmd.CombinedOutput() // exit 66: the races
	if strings.Contains(string(out), "MISMATCH") {
		t.Errorf("genShow and fmt's %%#v differ:\n%s", out)
	}
	reports := strings.Count(string(out), "WARNING: DATA RACE")
	if reports != 20 {
		t.Fatalf("the kernel's race was reported on %d of its 20 rounds, want every one: genShow orders the goroutines for the race detector\n%s", reports, tail(string(out), 40))
	}
}

// helperFuncs returns the source of the named functions of the generated
// file's helpers and of the helpers they call.
func helperFuncs(t *testing.T, names ...string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, FileName, "package p\n"+concurrentHelpers+commonHelpers, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	decls := map[string]ast.Decl{} // functions and constants by name
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				decls[d.Name.Name] = d
			}
		case *ast.GenDecl:
			if d.Tok == token.CONST {
				for _, s := range d.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						decls[n.Name] = d
					}
				}
			}
		}
	}
	var b bytes.Buffer
	done := map[string]bool{}
	printed := map[ast.Decl]bool{}
	for len(names) > 0 {
		name := names[0]
		names = names[1:]
		d := decls[name]
		if d == nil {
			t.Fatalf("no helper %s in the generated file's helpers", name)
		}
		if done[name] {
			continue
		}
		done[name] = true
		if printed[d] {
			continue
		}
		printed[d] = true
		if err := format.Node(&b, fset, d); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n\n")
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && decls[id.Name] != nil && !done[id.Name] {
				names = append(names, id.Name)
			}
			return true
		})
	}
	return b.String()
}

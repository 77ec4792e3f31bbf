package stdsyntax

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestParseFile: the loader reads the standard library's functions
// without their bodies (never rewritten, and most of a load's time), but
// keeps those of generic functions and init, and every body of the
// module's own files.
func TestParseFile(t *testing.T) {
	const src = `package p

func Plain() int { return 1 }

func (T) Method() {}

func Generic[E any](e E) E { return e }

func (g *G[E]) OfGeneric() {}

func init() { _ = Plain() }

type T struct{}

type G[E any] struct{}
`
	goroot := t.TempDir()
	parse := ParseFile(goroot)
	bodies := func(name string) map[string]bool {
		t.Helper()
		f, err := parse(token.NewFileSet(), name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				out[fd.Name.Name] = fd.Body != nil
			}
		}
		return out
	}
	std := bodies(filepath.Join(goroot, "src", "p", "p.go"))
	for name, want := range map[string]bool{"Plain": false, "Method": false, "Generic": true, "OfGeneric": true, "init": true} {
		if std[name] != want {
			t.Errorf("standard library: %s has a body %v, want %v", name, std[name], want)
		}
	}
	for name, has := range bodies(filepath.Join(t.TempDir(), "p.go")) {
		if !has {
			t.Errorf("the module's file: %s lost its body", name)
		}
	}
	// Without GOROOT (go env failed), nothing is cut.
	if f, err := ParseFile("")(token.NewFileSet(), filepath.Join(goroot, "src", "p", "p.go"), []byte(src)); err != nil || f.Decls[0].(*ast.FuncDecl).Body == nil {
		t.Errorf("no GOROOT: %v, Plain's body cut", err)
	}
}

// TestBodiesNotParsed: the bodies are blanked before the parse, so the
// parser never reads them (a syntax error there is not seen); those
// ParseFile keeps (init, generic) and package-level function literals
// hold a loop instead. A body with a line directive is left to the
// parser, which needs it for the positions after it.
func TestBodiesNotParsed(t *testing.T) {
	goroot := t.TempDir()
	name := filepath.Join(goroot, "src", "p", "p.go")
	parse := func(src string) (*ast.File, error) {
		return ParseFile(goroot)(token.NewFileSet(), name, []byte(src))
	}
	f, err := parse(`package p

func Plain() int { return 1 +* }

func (T) M() { ) }

func init() {
	return 1 +*
}

func G[E any]() int { return ) }

var V = func() int { return ) }

var W = T{ ) }

type T struct{}
`)
	if err != nil {
		t.Fatalf("a blanked body was parsed: %v", err)
	}
	var b strings.Builder
	printer.Fprint(&b, token.NewFileSet(), f)
	for _, want := range []string{"func Plain() int\n", "func (T) M()\n", "func init() {\n\tfor {\n\t}\n}", "func G[E any]() int {\n\tfor {\n\t}\n}", "var V = func() int {\n\tfor {\n\t}\n}", "var W = T{}"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the parse does not hold %q:\n%s", want, b.String())
		}
	}
	if _, err := parse("package p\n\nfunc Plain() {\n//line q.go:1\n ) }\n"); err == nil {
		t.Errorf("a body with a line directive was blanked")
	}
}

// TestBlankBodiesSameDecls: on the standard library's own files, the
// declarations parsed from the blanked source are those parsed from the
// file, at the same positions, but for what blankBodies blanks (bodies,
// composite literals but [...]T ones).
func TestBlankBodiesSameDecls(t *testing.T) {
	goroot := goRoot(t)
	files := 0
	for _, pkg := range []string{"runtime", "sync", "time", "net/http", "unicode", "html", "internal/poll", "go/types", "iter", "testing"} {
		names, err := filepath.Glob(filepath.Join(goroot, "src", pkg, "*.go"))
		if err != nil || len(names) == 0 {
			t.Fatalf("%s: no files (%v)", pkg, err)
		}
		for _, name := range names {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			blank := blankBodies(src)
			if len(blank) != len(src) {
				t.Fatalf("%s: %d bytes blanked to %d", name, len(src), len(blank))
			}
			// Fresh file sets: equal positions are equal offsets.
			fset, fset2 := token.NewFileSet(), token.NewFileSet()
			want, err1 := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
			got, err2 := parser.ParseFile(fset2, name, blank, parser.SkipObjectResolution)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %v; blanked: %v", name, err1, err2)
			}
			if len(got.Decls) != len(want.Decls) {
				t.Fatalf("%s: %d declarations, want %d", name, len(got.Decls), len(want.Decls))
			}
			for i, d := range want.Decls {
				g := got.Decls[i]
				if d.Pos() != g.Pos() || d.End() != g.End() {
					t.Errorf("%s: declaration %d moved", name, i)
				}
				if wfd, ok := d.(*ast.FuncDecl); ok {
					gfd := g.(*ast.FuncDecl)
					if (wfd.Body == nil) != (gfd.Body == nil) || wfd.Body != nil && (gfd.Body.Lbrace != wfd.Body.Lbrace || gfd.Body.Rbrace != wfd.Body.Rbrace) {
						t.Errorf("%s: %s's body moved", name, wfd.Name.Name)
					}
					if gfd.Body != nil && len(gfd.Body.List) > 0 && !isLoop(gfd.Body) && !slices.Equal(lines(src, fset, wfd.Body), lines(blank, fset2, gfd.Body)) {
						t.Errorf("%s: %s's body neither blanked, a loop nor kept", name, wfd.Name.Name)
					}
					wfd.Body, gfd.Body = nil, nil
				}
				normalize(d)
				normalize(g)
				if print(t, fset, d) != print(t, fset2, g) {
					t.Errorf("%s: declaration %d differs:\n%s\nblanked:\n%s", name, i, print(t, fset, d), print(t, fset2, g))
				}
			}
			files++
		}
	}
	t.Logf("%d files", files)
}

// normalize empties what blankBodies may blank in a declaration: the
// bodies of function literals, the outermost composite literals but
// [...]T ones, whose unkeyed elements become the last one keyed by its
// index (the key without a position: where blankBodies puts it varies).
func normalize(d ast.Decl) {
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			n.Body = &ast.BlockStmt{}
			return false
		case *ast.CompositeLit:
			if at, ok := n.Type.(*ast.ArrayType); ok {
				if _, ok := at.Len.(*ast.Ellipsis); ok {
					keyed := slices.ContainsFunc(n.Elts, func(e ast.Expr) bool { _, ok := e.(*ast.KeyValueExpr); return ok })
					if len(n.Elts) > 1 && !keyed {
						n.Elts = []ast.Expr{&ast.KeyValueExpr{Key: &ast.BasicLit{Kind: token.INT, Value: strconv.Itoa(len(n.Elts) - 1)}, Value: n.Elts[len(n.Elts)-1]}}
					} else if len(n.Elts) == 1 {
						if kv, ok := n.Elts[0].(*ast.KeyValueExpr); ok {
							if key, ok := kv.Key.(*ast.BasicLit); ok {
								n.Elts = []ast.Expr{&ast.KeyValueExpr{Key: &ast.BasicLit{Kind: token.INT, Value: key.Value}, Value: kv.Value}}
							}
						}
					}
					return false
				}
			}
			n.Elts = nil
			return false
		}
		return true
	})
}

// TestArrayLiteralLength: a package-level [...]T literal of unkeyed
// elements is blanked but for its last element, keyed by its index, so
// that its length (its type) stays; a keyed one stays whole. A syntax
// error in an element blanked is not seen.
func TestArrayLiteralLength(t *testing.T) {
	goroot := t.TempDir()
	name := filepath.Join(goroot, "src", "p", "p.go")
	const src = `package p

var A = [...]int{1, 2 +*, 3}

var B = [...]string{5: "x"}

var C = [...]int{len([2]int{1, 2}), (3)}

var D = [...][2]int{
	{1, 2},
	{3, 4},
	{5, 6},
}

var E = [...]byte{0x1}
`
	fset := token.NewFileSet()
	f, err := ParseFile(goroot)(fset, name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[string]string{"A": "[3]int", "B": "[6]string", "C": "[2]int", "D": "[3][2]int", "E": "[1]byte"} {
		if got := pkg.Scope().Lookup(v).Type().String(); got != want {
			t.Errorf("%s: %s, want %s", v, got, want)
		}
	}
	lit := f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values[0].(*ast.CompositeLit)
	if len(lit.Elts) != 1 {
		t.Errorf("A keeps %d elements, want the last one", len(lit.Elts))
	}
}

// isLoop: b is "for{}".
func isLoop(b *ast.BlockStmt) bool {
	if len(b.List) != 1 {
		return false
	}
	f, ok := b.List[0].(*ast.ForStmt)
	return ok && f.Init == nil && f.Cond == nil && f.Post == nil && len(f.Body.List) == 0
}

// lines is the source of n.
func lines(src []byte, fset *token.FileSet, n ast.Node) []byte {
	return src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset]
}

// TestBlankBodiesSameTypes: the standard library packages loaded from
// the blanked files declare the objects, of the same types, as loaded
// from the files with the bodies cut after the parse.
func TestBlankBodiesSameTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks standard packages twice")
	}
	goroot := goRoot(t)
	cut := func(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
		f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && !pkgInit(fd) && !genericFunc(fd) {
				fd.Body = nil
			}
		}
		return f, err
	}
	load := func(parse func(*token.FileSet, string, []byte) (*ast.File, error)) map[string]string {
		t.Helper()
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedDeps | packages.NeedImports | packages.NeedTypes | packages.NeedSyntax, ParseFile: parse},
			"html", "net/url", "unicode", "go/types", "time", "crypto/internal/fips140/nistec", "vendor/golang.org/x/text/unicode/norm", "internal/strconv")
		if err != nil {
			t.Fatal(err)
		}
		objs := map[string]string{}
		packages.Visit(pkgs, nil, func(p *packages.Package) {
			if p.Types == nil {
				t.Fatalf("%s: no types", p.PkgPath)
			}
			for _, n := range p.Types.Scope().Names() {
				objs[p.PkgPath+"."+n] = types.ObjectString(p.Types.Scope().Lookup(n), nil)
			}
		})
		return objs
	}
	want, got := load(cut), load(ParseFile(goroot))
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d objects, want %d", len(got), len(want))
	}
	t.Logf("%d objects", len(want))
}

func print(t *testing.T, fset *token.FileSet, n ast.Node) string {
	t.Helper()
	var b strings.Builder
	if err := printer.Fprint(&b, fset, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// goRoot is the GOROOT of the go command that runs the tests.
func goRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestBlankCacheByContent: a standard library file parsed again comes
// from the cache (a hit, and the declarations a fresh blanking gives), and
// the cache is keyed by the content, not the name or the length: the same
// name with other content of the same length is blanked anew.
func TestBlankCacheByContent(t *testing.T) {
	goroot := t.TempDir()
	name := filepath.Join(goroot, "src", "p", "p.go")
	a := "package p\n\nfunc Aaa() int { return 1 }\n\nvar V = []int{1, 2}\n"
	b := "package p\n\nfunc Bbb() int { return 2 }\n\nvar W = []int{3, 4}\n"
	if len(a) != len(b) {
		t.Fatal("the two files must have one length")
	}
	decls := func(src string) string {
		t.Helper()
		fset := token.NewFileSet()
		f, err := ParseFile(goroot)(fset, name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return print(t, fset, f)
	}
	hits := func() int {
		blankCache.Lock()
		defer blankCache.Unlock()
		return blankCache.hits
	}
	first := decls(a)
	h := hits()
	if again := decls(a); again != first || hits() != h+1 {
		t.Errorf("the same file again: %d hits (want %d), parsed\n%s\nwant\n%s", hits()-h, 1, again, first)
	}
	got := decls(b)
	if !strings.Contains(got, "func Bbb() int") || !strings.Contains(got, "var W = []int{}") || strings.Contains(got, "Aaa") {
		t.Errorf("another content under the same name parsed as\n%s", got)
	}
	if got := string(blankBodies([]byte(b))); got != string(blanked([]byte(b))) {
		t.Errorf("cached blanking differs from blankBodies: %q", got)
	}
}

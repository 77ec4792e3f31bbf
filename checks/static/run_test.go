package static

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/interleave-dev/interleave/checks"
)

// markAnalyzer reports every call to a function named mark (no category:
// the pass's first rule) and optin (category IL8002, an opt-in rule), with
// the enclosing declaration as related information.
var markAnalyzer = &analysis.Analyzer{
	Name: "mark",
	Doc:  "mark: report calls to mark and optin, for the runner tests",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, decl := range f.Decls {
				ast.Inspect(decl, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					id, ok := call.Fun.(*ast.Ident)
					if !ok {
						return true
					}
					d := analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: id.Name + " called",
						Related: []analysis.RelatedInformation{{Pos: decl.Pos(), Message: "in this declaration"}}}
					switch id.Name {
					case "mark":
					case "optin":
						d.Category = "IL8002"
					default:
						return true
					}
					pass.Report(d)
					return true
				})
			}
		}
		return nil, nil
	},
}

// TestMain lets the test binary serve as the go vet tool of the tests that
// drive Run through go vet: go vet runs it with -V=full, -flags, or flags
// and a *.cfg file, never with -test.* flags.
func TestMain(m *testing.M) {
	if args := os.Args[1:]; len(args) > 0 && (args[0] == "-V=full" || args[0] == "-flags" || strings.HasSuffix(args[len(args)-1], ".cfg")) {
		// As VetToolMain does (facts only on dependencies, heavy passes under the lock).
		unitchecker.Main(vetToolSetup(args, append([]*analysis.Analyzer{markAnalyzer, panicAnalyzer}, VetToolAnalyzers()...))...) // exits
	}
	os.Exit(m.Run())
}

// vetTool is the test binary itself, a vet tool running markAnalyzer and
// the suite (see TestMain).
func vetTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go vet")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// panicAnalyzer crashes, as a buggy pass would.
var panicAnalyzer = &analysis.Analyzer{
	Name: "crash",
	Doc:  "crash: panic, for the runner tests",
	Run:  func(*analysis.Pass) (any, error) { panic("crash analyzer panicked") },
}

var testPasses = []Pass{{markAnalyzer, []checks.Rule{
	{ID: "IL8001", Slug: "unit-mark", Title: "Call to mark", Severity: checks.Warning, Level: checks.Default},
	{ID: "IL8002", Slug: "unit-optin", Title: "Call to optin", Severity: checks.Note, Level: checks.OptIn},
}}}

// got renders findings as "file:line rule func message" for comparison.
func got(t *testing.T, res *Result) []string {
	t.Helper()
	var out []string
	for _, f := range res.Findings {
		rel, err := filepath.Rel(modDir(t), f.Pos.File)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s:%d %s %s %s", filepath.ToSlash(rel), f.Pos.Line, f.Rule, f.Func, f.Message))
	}
	return out
}

func modDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("testdata/mod")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRunFindings(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{
			name: "defaults",
			opts: Options{Patterns: []string{"./a"}},
			want: []string{
				"a/a.go:10 IL8001 Plain mark called",
				"a/a.go:34 IL0001 Malformed malformed //interleave:ignore directive: missing the reason after IL8001",
				"a/a.go:35 IL8001 Malformed mark called",
				"a/a.go:40 IL0002 Unused directive //interleave:ignore IL8001 matched no finding",
				"a/a.go:53 IL8001 T.M mark called",
			},
		},
		{
			name: "tests and opt-in",
			opts: Options{Patterns: []string{"./a"}, Tests: true, Enable: []string{"all"}},
			want: []string{
				"a/a.go:10 IL8001 Plain mark called",
				"a/a.go:34 IL0001 Malformed malformed //interleave:ignore directive: missing the reason after IL8001",
				"a/a.go:35 IL8001 Malformed mark called",
				"a/a.go:40 IL0002 Unused directive //interleave:ignore IL8001 matched no finding",
				"a/a.go:46 IL8002 OptIn optin called",
				"a/a_test.go:6 IL8001 TestA mark called",
				"a/a.go:53 IL8001 T.M mark called",
			},
		},
		{
			name: "minimum severity drops notes",
			opts: Options{Patterns: []string{"./a"}, Enable: []string{"unit-optin"}, MinSeverity: checks.Warning},
			want: []string{
				"a/a.go:10 IL8001 Plain mark called",
				"a/a.go:34 IL0001 Malformed malformed //interleave:ignore directive: missing the reason after IL8001",
				"a/a.go:35 IL8001 Malformed mark called",
				"a/a.go:53 IL8001 T.M mark called",
			},
		},
		{
			name: "disable all then enable one",
			opts: Options{Patterns: []string{"./a"}, Disable: []string{"all"}, Enable: []string{"IL8002"}},
			want: []string{"a/a.go:46 IL8002 OptIn optin called"},
		},
		{
			name: "disabled rule makes its directive neither used nor unused",
			opts: Options{Patterns: []string{"./a"}, Disable: []string{"IL8001"}},
			want: []string{
				"a/a.go:34 IL0001 Malformed malformed //interleave:ignore directive: missing the reason after IL8001",
			},
		},
		{
			name: "cgo positions",
			opts: Options{Patterns: []string{"./cgo"}},
			want: []string{"cgo/cgo.go:13 IL8001 One mark called"},
		},
		{
			name: "build tag off",
			opts: Options{Patterns: []string{"./tags", "./cgo"}},
			want: []string{"cgo/cgo.go:13 IL8001 One mark called"},
		},
		{
			name: "build tag on",
			opts: Options{Patterns: []string{"./tags"}, BuildFlags: []string{"-tags=integ"}},
			want: []string{"tags/integ.go:7 IL8001 Tagged mark called"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "cgo") && !cgoEnabled(t) {
				t.Skip("cgo is disabled")
			}
			tt.opts.Dir = modDir(t)
			res, err := run(context.Background(), tt.opts, testPasses)
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			g := got(t, res)
			slices.Sort(g)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(g, want) {
				t.Errorf("got findings\n\t%s\nwant\n\t%s", strings.Join(g, "\n\t"), strings.Join(want, "\n\t"))
			}
		})
	}
}

func cgoEnabled(t *testing.T) bool {
	t.Helper()
	if os.Getenv("CGO_ENABLED") == "0" {
		return false
	}
	_, err := exec.LookPath("gcc")
	return err == nil
}

func TestRunFindingFields(t *testing.T) {
	res, err := run(context.Background(), Options{Dir: modDir(t), Patterns: []string{"./a"}}, testPasses)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"example.com/mod/a"}; !slices.Equal(res.Packages, want) {
		t.Errorf("got packages %v, want %v", res.Packages, want)
	}
	var f *checks.Finding
	for i := range res.Findings {
		if res.Findings[i].Func == "Plain" {
			f = &res.Findings[i]
		}
	}
	if f == nil {
		t.Fatal("no finding in Plain")
	}
	if f.Severity != checks.Warning || f.Evidence != checks.Static || f.Package != "example.com/mod/a" || f.Snippet != "mark()" {
		t.Errorf("got severity %v evidence %v package %q snippet %q, want warning static example.com/mod/a \"mark()\"", f.Severity, f.Evidence, f.Package, f.Snippet)
	}
	if f.Pos.Column != 2 || f.Pos.EndLine != 10 || f.Pos.EndColumn != 8 {
		t.Errorf("got position %+v, want column 2, end 10:8", f.Pos)
	}
	if len(f.Related) != 1 || f.Related[0].Line != 9 || f.Related[0].Message != "in this declaration" {
		t.Errorf("got related %+v, want one at line 9", f.Related)
	}
}

func TestRunRealSuite(t *testing.T) {
	res, err := Run(context.Background(), Options{Dir: modDir(t), Patterns: []string{"./vetbug"}})
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range res.Findings {
		rules = append(rules, f.Rule)
	}
	if !slices.Contains(rules, "IL6101") {
		t.Errorf("got rules %v, want IL6101 from the waitgroup pass", rules)
	}
}

func TestRunErrors(t *testing.T) {
	noMod := t.TempDir()
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "go.mod"), []byte("module example.com/empty\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"no go.mod", Options{Dir: noMod}, "no go.mod in"},
		{"missing directory", Options{Dir: filepath.Join(noMod, "nope")}, "does not exist"},
		{"empty module", Options{Dir: empty}, "matched no packages"},
		{"outside the module", Options{Dir: "testdata/mod", Patterns: []string{"../broken/..."}}, "outside the module"},
		{"nested module", Options{Dir: "testdata", Patterns: []string{"./mod/a"}}, "belongs to the module in"},
		{"missing package directory", Options{Dir: "testdata/mod", Patterns: []string{"./nope"}}, "does not exist"},
		{"unknown rule", Options{Dir: "testdata/mod", Enable: []string{"IL0000"}}, `unknown rule "IL0000": valid values are all, IL0001`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(context.Background(), tt.opts, testPasses)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestRunLoadError(t *testing.T) {
	_, err := run(context.Background(), Options{Dir: "testdata/broken"}, testPasses)
	var lerr *LoadError
	if !errors.As(err, &lerr) {
		t.Fatalf("got error %v, want a *LoadError", err)
	}
	if len(lerr.Packages) != 1 || lerr.Packages[0].Path != "example.com/broken/bad" {
		t.Fatalf("got packages %+v, want only example.com/broken/bad", lerr.Packages)
	}
	msg := lerr.Error()
	for _, want := range []string{"package example.com/broken/bad does not compile", "bad/bad.go:4:9", `"not an int"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("got error %q, want it to contain %q", msg, want)
		}
	}
}

func TestDedupe(t *testing.T) {
	f := checks.Finding{Rule: "IL8001", Message: "m", Pos: checks.Position{File: "a.go", Line: 3, Column: 1}}
	g := f
	g.Pos.Line = 4
	out := dedupe([]checks.Finding{f, g, f})
	if len(out) != 2 {
		t.Errorf("got %d findings, want 2", len(out))
	}
}

func TestParseIgnore(t *testing.T) {
	tests := []struct {
		name, in  string
		wantRules []string
		wantErr   string
	}{
		{"one rule", " IL8001 reason here", []string{"IL8001"}, ""},
		{"slug and list", " unit-mark,IL8002 reason", []string{"IL8001", "IL8002"}, ""},
		{"nothing", "", nil, "missing the rule ID and the reason"},
		{"no reason", " IL8001", nil, "missing the reason after IL8001"},
		{"unknown", " IL7777 reason", nil, `unknown rule "IL7777"`},
		{"empty in list", " IL8001, reason", nil, "empty rule ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, problem := parseIgnore(tt.in, testPasses[0].Rules)
			if !slices.Equal(rules, tt.wantRules) || !strings.Contains(problem, tt.wantErr) || (tt.wantErr == "") != (problem == "") {
				t.Errorf("got %v %q, want %v %q", rules, problem, tt.wantRules, tt.wantErr)
			}
		})
	}
}

// TestRunVetMatchesInProcess pins the go vet driver to the in-process one:
// the same findings, field for field, for every case of TestRunFindings
// with tests included (go vet always includes them).
func TestRunVetMatchesInProcess(t *testing.T) {
	tool := vetTool(t)
	cases := []Options{
		{Patterns: []string{"./a"}},
		{Patterns: []string{"./a"}, Enable: []string{"all"}},
		{Patterns: []string{"./a"}, Enable: []string{"unit-optin"}, MinSeverity: checks.Warning},
		{Patterns: []string{"./a"}, Disable: []string{"all"}, Enable: []string{"IL8002"}},
		{Patterns: []string{"./a"}, Disable: []string{"IL8001"}},
		{Patterns: []string{"./tags", "./cgo"}},
		{Patterns: []string{"./tags"}, BuildFlags: []string{"-tags=integ"}},
		{Patterns: []string{"./..."}},
	}
	for _, opts := range cases {
		name := fmt.Sprintf("%v enable=%v disable=%v %v %v", opts.Patterns, opts.Enable, opts.Disable, opts.MinSeverity, opts.BuildFlags)
		t.Run(name, func(t *testing.T) {
			if slices.Contains(opts.Patterns, "./cgo") || slices.Contains(opts.Patterns, "./...") {
				if !cgoEnabled(t) {
					t.Skip("cgo is disabled")
				}
			}
			opts.Dir, opts.Tests = modDir(t), true
			want, err := run(context.Background(), opts, testPasses)
			if err != nil {
				t.Fatalf("in process: %v", err)
			}
			opts.VetTool = tool
			res, err := run(context.Background(), opts, testPasses)
			if err != nil {
				t.Fatalf("go vet: %v", err)
			}
			if len(want.Findings) == 0 {
				t.Fatal("no findings: the comparison would prove nothing")
			}
			if !slices.Equal(res.Packages, want.Packages) {
				t.Errorf("got packages %v, want %v", res.Packages, want.Packages)
			}
			if !reflect.DeepEqual(res.Findings, want.Findings) {
				t.Errorf("go vet driver found\n\t%s\nin process found\n\t%s", strings.Join(got(t, res), "\n\t"), strings.Join(got(t, want), "\n\t"))
				for i := range min(len(res.Findings), len(want.Findings)) {
					if !reflect.DeepEqual(res.Findings[i], want.Findings[i]) {
						t.Errorf("first difference:\n\tgo vet     %+v\n\tin process %+v", res.Findings[i], want.Findings[i])
						break
					}
				}
			}
		})
	}
}

// TestRunVetRealSuite runs the suite's own analyzers through go vet.
func TestRunVetRealSuite(t *testing.T) {
	res, err := Run(context.Background(), Options{Dir: modDir(t), Patterns: []string{"./vetbug"}, Tests: true, VetTool: vetTool(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 || res.Findings[0].Rule != "IL6101" || res.Findings[0].Package != "example.com/mod/vetbug" {
		t.Errorf("got %+v, want IL6101 in example.com/mod/vetbug from the waitgroup pass", res.Findings)
	}
}

// TestRunVetErrors checks that the go vet driver fails as clearly as the
// in-process one: a package that does not compile is named with the
// compiler's message, and bad patterns are refused before go vet runs.
func TestRunVetErrors(t *testing.T) {
	tool := vetTool(t)
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "go.mod"), []byte("module example.com/empty\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := run(context.Background(), Options{Dir: "testdata/broken", Tests: true, VetTool: tool}, testPasses)
	var lerr *LoadError
	if !errors.As(err, &lerr) {
		t.Fatalf("got error %v, want a *LoadError", err)
	}
	_, inProcess := run(context.Background(), Options{Dir: "testdata/broken", Tests: true}, testPasses)
	if inProcess == nil || lerr.Error() != inProcess.Error() {
		t.Errorf("go vet driver says\n%v\nin-process driver says\n%v", lerr, inProcess)
	}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"empty module", Options{Dir: empty}, "matched no packages"},
		{"outside the module", Options{Dir: "testdata/mod", Patterns: []string{"../broken/..."}}, "outside the module"},
		{"missing package directory", Options{Dir: "testdata/mod", Patterns: []string{"./nope"}}, "does not exist"},
		{"missing vet tool", Options{Dir: "testdata/mod", Patterns: []string{"./a"}, VetTool: filepath.Join(empty, "no-such-tool")}, "go vet -vettool="},
	}
	t.Run("pass that panics", func(t *testing.T) {
		crash := []Pass{{panicAnalyzer, []checks.Rule{{ID: "IL8003", Slug: "unit-crash", Title: "Crash", Level: checks.Default}}}}
		_, err := run(context.Background(), Options{Dir: modDir(t), Patterns: []string{"./a"}, Tests: true, VetTool: tool}, crash)
		var lerr *LoadError
		if err == nil || errors.As(err, &lerr) || !strings.Contains(err.Error(), "crash analyzer panicked") {
			t.Errorf("got error %v, want go vet's failure with the panic", err)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Tests = true
			if tt.opts.VetTool == "" {
				tt.opts.VetTool = tool
			}
			_, err := run(context.Background(), tt.opts, testPasses)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestParsePosn(t *testing.T) {
	tests := []struct {
		in   string
		want checks.Position
	}{
		{"/a/b.go:3:7", checks.Position{File: "/a/b.go", Line: 3, Column: 7}},
		{"/a/b.go:3", checks.Position{File: "/a/b.go", Line: 3}},
		{`C:\a\b.go:3:7`, checks.Position{File: `C:\a\b.go`, Line: 3, Column: 7}},
		{"-", checks.Position{}},
		{"", checks.Position{}},
	}
	for _, tt := range tests {
		if got := parsePosn(tt.in); got != tt.want {
			t.Errorf("parsePosn(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	if got, want := vetPosition("/a.go:3:7", "/a.go:3:7"), (checks.Position{File: "/a.go", Line: 3, Column: 7}); got != want {
		t.Errorf("empty range: got %+v, want %+v", got, want)
	}
	if got, want := vetPosition("/a.go:3:7", "/a.go:4:2"), (checks.Position{File: "/a.go", Line: 3, Column: 7, EndLine: 4, EndColumn: 2}); got != want {
		t.Errorf("range: got %+v, want %+v", got, want)
	}
}

func TestVetTreeParse(t *testing.T) {
	out := []byte("# example.com/p\n{\n\t\"example.com/p\": {\"mark\": [{\"posn\": \"/p.go:1:2\", \"end\": \"/p.go:1:2\", \"message\": \"m\"}]}\n}\n" +
		"# example.com/q\n{\"example.com/q\": {\"mark\": {\"error\": \"boom\"}}}\n")
	tree := vetTree{}
	if err := tree.parse(out); err != nil {
		t.Fatal(err)
	}
	if len(tree) != 2 {
		t.Fatalf("got %d packages, want 2: %v", len(tree), tree)
	}
	_, err := tree.diagnostics(testPasses)
	var aerr *AnalysisError
	if !errors.As(err, &aerr) || len(aerr.Failures) != 1 || aerr.Failures[0] != "mark on example.com/q: boom" {
		t.Errorf("got %v, want the analysis error of example.com/q", err)
	}
	delete(tree, "example.com/q")
	diags, err := tree.diagnostics(testPasses)
	if err != nil || len(diags) != 1 || diags[0].pkgPath != "example.com/p" || diags[0].d.Message != "m" {
		t.Errorf("got %+v, %v, want one diagnostic in example.com/p", diags, err)
	}
	if err := tree.parse([]byte("{not json")); err == nil {
		t.Error("parse of broken JSON succeeded")
	}
}

func TestVetErrorPackages(t *testing.T) {
	out := "# example.com/a\nvet: a/a.go:1:2: undefined: x\n# example.com/b [example.com/b.test]\nb/b_test.go:3:4: oops\n# example.com/a\n" +
		"# [example.com/c]\npanic: boom\n# [example.com/d [example.com/d.test]]\n"
	if got, want := vetErrorPackages(out), []string{"example.com/a", "example.com/b", "example.com/c", "example.com/d"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	cgo := "# example.com/pc\n# [pkg-config --cflags  -- nosuchlib]\nPackage nosuchlib was not found in the pkg-config search path.\n"
	if got, want := vetErrorPackages(cgo), []string{"example.com/pc"}; !slices.Equal(got, want) {
		t.Errorf("cgo's pkg-config line: got %v, want %v", got, want)
	}
	if got := vetOutputOf(cgo, "example.com/pc"); len(got) != 2 || !strings.HasPrefix(got[0], "# [pkg-config") {
		t.Errorf("cgo's pkg-config output of example.com/pc: got %q", got)
	}
	if got := vetErrorPackages("go: no Go files in /x"); len(got) != 0 {
		t.Errorf("got %v, want none", got)
	}
}

// TestGCPercent checks the vet tool's collector target: 64 MiB of growth
// for small heaps (GOGC at most 400), GOGC 100 from 64 MiB, falling to 50
// as the live heap nears 1 GiB.
func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 400}, {8 << 20, 400}, {16 << 20, 400}, {32 << 20, 200}, {64 << 20, 100}, {130 << 20, 100}, {512 << 20, 100}, {640 << 20, 60}, {768 << 20, 50}, {4 << 30, 50},
	} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// TestRunKeepGoing checks that with KeepGoing both drivers analyze the
// packages that compile and list the others: a type error, a test file's
// type error, a package importing a broken one, a missing import and a
// missing embedded file (go list fails: go vet analyzes nothing).
func TestRunKeepGoing(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":            "module example.com/kg\n\ngo 1.22\n",
		"ok/ok.go":          "package ok\n\nfunc mark() {}\n\nfunc OK() { mark() }\n",
		"bad/bad.go":        "package bad\n\nfunc Bad() int { return \"no\" }\n",
		"usesbad/u.go":      "package usesbad\n\nimport \"example.com/kg/bad\"\n\nfunc mark() {}\n\nfunc U() int { mark(); return bad.Bad() }\n",
		"badtest/b.go":      "package badtest\n\nfunc mark() {}\n\nfunc B() { mark() }\n",
		"badtest/b_test.go": "package badtest\n\nvar _ int = \"no\"\n",
		"noimport/n.go":     "package noimport\n\nimport _ \"example.com/kg/nope\"\n",
		"noembed/e.go":      "package noembed\n\nimport _ \"embed\"\n\n//go:embed missing.txt\nvar s string\n",
		"okalso/o.go":       "package okalso\n\nfunc mark() {}\n\nfunc O() { mark() }\n",
		"okalso/o_test.go":  "package okalso\n\nfunc T() { mark() }\n",
	}
	writeFiles(t, dir, files)
	wantPkgs := []string{"example.com/kg/ok", "example.com/kg/okalso"}
	// noimport's own error (could not import nope) is the in-process
	// driver's only; both list nope.
	wantBroken := []string{"example.com/kg/bad", "example.com/kg/badtest", "example.com/kg/noembed", "example.com/kg/nope"}
	for _, vet := range []bool{false, true} {
		t.Run(fmt.Sprintf("vet=%v", vet), func(t *testing.T) {
			opts := Options{Dir: dir, Tests: true}
			if vet {
				opts.VetTool = vetTool(t)
			}
			if _, err := run(context.Background(), opts, testPasses); err == nil {
				t.Fatal("without KeepGoing: no error")
			}
			opts.KeepGoing = true
			res, err := run(context.Background(), opts, testPasses)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Packages, wantPkgs) {
				t.Errorf("analyzed %v, want %v", res.Packages, wantPkgs)
			}
			var broken []string
			for _, p := range res.Broken {
				if !slices.Contains(broken, p.Path) && p.Path != "example.com/kg/noimport" {
					broken = append(broken, p.Path)
				}
				if len(p.Errors) == 0 {
					t.Errorf("%s: no errors", p.Path)
				}
			}
			if !slices.Equal(broken, wantBroken) {
				t.Errorf("broken %v, want %v: %+v", broken, wantBroken, res.Broken)
			}
			var marks []string
			for _, f := range res.Findings {
				marks = append(marks, filepath.Base(filepath.Dir(f.Pos.File))+"/"+filepath.Base(f.Pos.File))
			}
			if want := []string{"ok/ok.go", "okalso/o.go", "okalso/o_test.go"}; !slices.Equal(marks, want) {
				t.Errorf("findings in %v, want %v", marks, want)
			}
		})
	}
}

// TestRunKeepGoingBrokenDependency: a dependency that does not compile
// (an old release the Go of today rejects) leaves out the packages that
// import it, each saying which dependency and why, and the others are
// analyzed, by both drivers.
func TestRunKeepGoingBrokenDependency(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":             "module example.com/kd\n\ngo 1.22\n\nrequire example.com/olddep v0.1.0\n\nreplace example.com/olddep => ./olddep\n",
		"olddep/go.mod":      "module example.com/olddep\n\ngo 1.22\n",
		"olddep/gen/gen.go":  "package gen\n\nconst delta = 16\n\nvar arr [-delta * delta]int\n\nfunc Gen() int { return len(arr) }\n",
		"ok/ok.go":           "package ok\n\nfunc mark() {}\n\nfunc OK() { mark() }\n",
		"tool/tool.go":       "package tool\n\nimport \"example.com/olddep/gen\"\n\nfunc mark() {}\n\nfunc T() int { mark(); return gen.Gen() }\n",
		"usestool/u.go":      "package usestool\n\nfunc mark() {}\n\nfunc U() { mark() }\n",
		"usestool/u_test.go": "package usestool\n\nimport \"example.com/kd/tool\"\n\nvar _ = tool.T\n",
	}
	writeFiles(t, dir, files)
	for _, vet := range []bool{false, true} {
		t.Run(fmt.Sprintf("vet=%v", vet), func(t *testing.T) {
			opts := Options{Dir: dir, Tests: true, KeepGoing: true}
			if vet {
				opts.VetTool = vetTool(t)
			}
			res, err := run(context.Background(), opts, testPasses)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"example.com/kd/ok"}; !slices.Equal(res.Packages, want) {
				t.Errorf("analyzed %v, want %v", res.Packages, want)
			}
			var broken []string
			for _, p := range res.Broken {
				broken = append(broken, p.Path)
				if len(p.Errors) == 0 || !strings.Contains(strings.Join(p.Errors, "\n"), "example.com/olddep/gen") || !strings.Contains(strings.Join(p.Errors, "\n"), "invalid array length") {
					t.Errorf("%s: errors %q, want the dependency named and its compiler error", p.Path, p.Errors)
				}
			}
			if want := []string{"example.com/kd/tool", "example.com/kd/usestool"}; !slices.Equal(broken, want) {
				t.Errorf("broken %v, want %v: %+v", broken, want, res.Broken)
			}
		})
	}
}

// writeFiles writes files (slash-separated path -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A vet tool failing on a dependency ("# [path]") is the tool's failure,
// not the dependency's: only compiler headers name packages that do not
// compile.
func TestCompileFailures(t *testing.T) {
	out := "# example.com/dep/a\na.go:1:1: bad\n# [example.com/dep/b]\npanic: pass failed\n# example.com/m/c [example.com/m/c.test]\nc_test.go:2:2: bad\n# example.com/dep/a\n"
	if got, want := compileFailures(out), []string{"example.com/dep/a", "example.com/m/c"}; !slices.Equal(got, want) {
		t.Errorf("compileFailures = %v, want %v", got, want)
	}
}

package affected

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/affected/diff"
	"github.com/interleave-dev/interleave/internal/testctx"
)

const ledgerBase = `package ledger

import "sync"

// Ledger holds balances.
type Ledger struct {
	mu  sync.Mutex
	bal map[string]int
}

// New returns an empty ledger.
func New() *Ledger { return &Ledger{bal: map[string]int{}} }

// Deposit adds n to a.
func (l *Ledger) Deposit(a string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bal[a] += n
}

// Transfer moves n from one account to another.
func (l *Ledger) Transfer(from, to string, n int) {
	l.bal[from] -= n
	l.bal[to] += n
}

// Balance returns a's balance.
func (l *Ledger) Balance(a string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bal[a]
}
`

const ledgerTest = `package ledger

import (
	"sync"
	"testing"
)

func TestConcurrentTransfer(t *testing.T) {
	l := New()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); l.Transfer("a", "b", 1) }()
	}
	wg.Wait()
}

func TestTransferSeq(t *testing.T) {
	l := &Ledger{bal: map[string]int{}}
	l.Transfer("a", "b", 1)
	if l.bal["b"] != 1 {
		t.Fatal("lost")
	}
}

func TestBalanceOnly(t *testing.T) {
	if New().Balance("x") != 0 {
		t.Fatal("not zero")
	}
}
`

const bankBase = `package bank

import "example.com/m/ledger"

// Move moves n between accounts.
func Move(l *ledger.Ledger, a, b string, n int) { l.Transfer(a, b, n) }
`

const bankTest = `package bank_test

import (
	"testing"

	"example.com/m/bank"
	"example.com/m/ledger"
)

func TestMove(t *testing.T) {
	t.Run("parallel", func(t *testing.T) {
		l := ledger.New()
		done := make(chan bool)
		go func() { bank.Move(l, "a", "b", 1); done <- true }()
		bank.Move(l, "b", "a", 1)
		<-done
	})
}
`

const otherBase = `package other

func Double(x int) int { return 2 * x }
`

const otherTest = `package other

import "testing"

func TestDouble(t *testing.T) {
	if Double(2) != 4 {
		t.Fatal("bad")
	}
}
`

// ledgerRepo is a module with a ledger package, a bank package importing
// it and an unrelated package; it returns the base commit.
func ledgerRepo(t *testing.T) (*repo, string) {
	r := newRepo(t)
	r.write(map[string]string{
		"go.mod":                  "module example.com/m\n\ngo 1.22\n",
		"ledger/ledger.go":        ledgerBase,
		"ledger/ledger_test.go":   ledgerTest,
		"bank/bank.go":            bankBase,
		"bank/bank_test.go":       bankTest,
		"other/other.go":          otherBase,
		"other/other_test.go":     otherTest,
		"README.md":               "hello\n",
		"bin/tool.sh":             "#!/bin/sh\n",
		"ledger/old.go":           "package ledger\n\nfunc old() int { return 1 }\n",
		"ledger/moved_src.go":     "package ledger\n\nfunc moved() int {\n\treturn 1\n}\n\nfunc other2() {}\n\nfunc other3() {}\n\nfunc other4() {}\n",
		"ledger/testdata/in.go":   "package in\n",
		"vendor/v.example/v/v.go": "package v\n",
	})
	return r, r.commit("base")
}

func analyze(t *testing.T, dir, base, head string) *Change {
	t.Helper()
	ctx := testctx.New(t)
	c, err := Analyze(ctx, Options{Dir: dir, Base: base, Head: head})
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return c
}

func TestAnalyzeLedger(t *testing.T) {
	r, base := ledgerRepo(t)
	r.write(map[string]string{
		"ledger/ledger.go": strings.Replace(ledgerBase, "\tl.bal[to] += n\n", "\tl.bal[to] = l.bal[to] + n\n", 1),
	})
	r.commit("head")
	c := analyze(t, r.dir, base, "")

	changed := r.lineOf("ledger/ledger.go", "l.bal[to] = l.bal[to] + n")
	if got, want := c.Packages, []string{"example.com/m/ledger"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Packages = %v, want %v", got, want)
	}
	if len(c.Funcs) != 1 || c.Funcs[0].Name != "(*Ledger).Transfer" || c.Funcs[0].FirstChange() != changed {
		t.Fatalf("Funcs = %+v, want (*Ledger).Transfer changed at line %d", c.Funcs, changed)
	}
	if !c.OnChangedLine("ledger/ledger.go", changed) || !c.OnChangedLine(filepath.Join(r.dir, "ledger", "ledger.go"), changed) {
		t.Errorf("OnChangedLine(ledger.go, %d) = false, want true", changed)
	}
	if c.OnChangedLine("ledger/ledger.go", changed-1) || c.OnChangedLine("ledger/nope.go", changed) {
		t.Errorf("OnChangedLine is true off the change")
	}
	// An unchanged line of the changed function is in it; a line of
	// another function is not.
	if f := c.Funcs[0]; !c.InChangedFunc("ledger/ledger.go", changed-1) || !c.InChangedFunc("ledger/ledger.go", f.EndLine) ||
		c.InChangedFunc("ledger/ledger.go", f.Line-1) || c.InChangedFunc("ledger/ledger.go", f.EndLine+1) || c.InChangedFunc("ledger/nope.go", changed) {
		t.Errorf("InChangedFunc is not exactly (*Ledger).Transfer's lines %d-%d", f.Line, f.EndLine)
	}
	if !c.InHunk("ledger/ledger.go", changed-3) || c.InHunk("ledger/ledger.go", changed-4) {
		t.Errorf("InHunk does not cover exactly %d lines of context", ContextLines)
	}

	var names []string
	for _, tt := range c.Tests {
		names = append(names, tt.Package+"."+tt.Name)
	}
	want := []string{
		"example.com/m/ledger.TestConcurrentTransfer", // 1 call away, goroutines
		"example.com/m/bank.TestMove",                 // 2 calls away (through a t.Run closure), goroutines
		"example.com/m/ledger.TestTransferSeq",        // 1 call away, no concurrency: last
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("Tests = %v, want %v", names, want)
	}
	wantWhy := []string{
		fmt.Sprintf("calls (*Ledger).Transfer, changed at ledger/ledger.go:%d, directly; starts goroutines", changed),
		fmt.Sprintf("calls (*Ledger).Transfer, changed at ledger/ledger.go:%d, 2 calls away; starts goroutines", changed),
		fmt.Sprintf("calls (*Ledger).Transfer, changed at ledger/ledger.go:%d, directly; starts no goroutine and touches no sync primitive or channel", changed),
	}
	for i, tt := range c.Tests {
		if tt.Why != wantWhy[i] {
			t.Errorf("Tests[%d].Why = %q, want %q", i, tt.Why, wantWhy[i])
		}
	}
	if c.Tests[0].Distance != 1 || c.Tests[1].Distance != 2 || !c.Tests[0].Concurrent || c.Tests[2].Concurrent {
		t.Errorf("Tests = %+v", c.Tests)
	}
	if !(c.Tests[0].Score > c.Tests[1].Score && c.Tests[1].Score > c.Tests[2].Score) {
		t.Errorf("scores not decreasing: %v %v %v", c.Tests[0].Score, c.Tests[1].Score, c.Tests[2].Score)
	}
}

func TestAnalyzeFileKinds(t *testing.T) {
	r, base := ledgerRepo(t)
	r.git("mv", "ledger/moved_src.go", "ledger/moved_dst.go")
	r.write(map[string]string{
		"ledger/old.go":           "",
		"ledger/moved_dst.go":     "package ledger\n\nfunc moved() int {\n\treturn 2\n}\n\nfunc other2() {}\n\nfunc other3() {}\n\nfunc other4() {}\n",
		"README.md":               "hello again\n",
		"docs/with space.md":      "spaces\n",
		"ledger/testdata/in.go":   "package in // changed\n",
		"vendor/v.example/v/v.go": "package v // changed\n",
		"ledger/zz_generated.go":  "// Code generated by hand. DO NOT EDIT.\n\npackage ledger\n\nfunc gen() {}\n",
		"ledger/ignored.go":       "//go:build ignore\n\npackage main\n\nfunc main() {}\n",
		"ledger/logo.png":         "\x89PNG\x00\x01\x02binary",
		"other/other.go":          "package other\n\n// Factor multiplies.\nvar Factor = 2\n\nfunc Double(x int) int { return 2 * x }\n",
	})
	if err := os.Chmod(filepath.Join(r.dir, "bin/tool.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.commit("head")
	c := analyze(t, r.dir, base, "HEAD")

	tests := []struct {
		path     string
		status   diff.Status
		analyzed bool
		skip     string
	}{
		{"README.md", diff.Modified, false, skipNonGo},
		{"bin/tool.sh", diff.Modified, false, skipNonGo},
		{"docs/with space.md", diff.Added, false, skipNonGo},
		{"ledger/ignored.go", diff.Added, false, skipBuild},
		{"ledger/logo.png", diff.Added, false, skipBinary},
		{"ledger/moved_dst.go", diff.Renamed, true, ""},
		{"ledger/old.go", diff.Deleted, false, skipDeleted},
		{"ledger/testdata/in.go", diff.Modified, false, skipTestdata},
		{"ledger/zz_generated.go", diff.Added, false, skipGenerated},
		{"other/other.go", diff.Modified, true, ""},
		{"vendor/v.example/v/v.go", diff.Modified, false, skipVendor},
	}
	if len(c.Files) != len(tests) {
		var got []string
		for _, f := range c.Files {
			got = append(got, f.Path)
		}
		t.Errorf("got files %v, want %d", got, len(tests))
	}
	for _, tt := range tests {
		f := c.File(tt.path)
		if f == nil {
			t.Errorf("%s: missing", tt.path)
			continue
		}
		if f.Status != tt.status || f.Analyzed != tt.analyzed || f.Skip != tt.skip {
			t.Errorf("%s: got status=%s analyzed=%v skip=%q, want %s %v %q", tt.path, f.Status, f.Analyzed, f.Skip, tt.status, tt.analyzed, tt.skip)
		}
	}
	if f := c.File("ledger/moved_dst.go"); f == nil || f.OldPath != "ledger/moved_src.go" {
		t.Errorf("rename: got %+v", f)
	}
	if f := c.File("bin/tool.sh"); f == nil || !f.ModeChanged() {
		t.Errorf("mode change not recorded: %+v", f)
	}
	if got, want := c.Packages, []string{"example.com/m/ledger", "example.com/m/other"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Packages = %v, want %v", got, want)
	}
	if len(c.Funcs) != 1 || c.Funcs[0].Name != "moved" || c.Funcs[0].File != "ledger/moved_dst.go" {
		t.Errorf("Funcs = %+v, want moved in ledger/moved_dst.go", c.Funcs)
	}
	// other's only change is a package-level var: its test is chosen, last.
	var found bool
	for _, tt := range c.Tests {
		if tt.Name == "TestDouble" {
			found = true
			if tt.Distance != -1 || !strings.Contains(tt.Why, "package-level declarations changed at other/other.go:4") {
				t.Errorf("TestDouble: %+v", tt)
			}
		}
	}
	if !found {
		t.Errorf("TestDouble not chosen: %+v", c.Tests)
	}
	var sum bytes.Buffer
	if err := c.WriteSummary(&sum); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not analyzed (9):", skipVendor + ": vendor/v.example/v/v.go", skipGenerated + ": ledger/zz_generated.go", skipNonGo + ": README.md, bin/tool.sh, docs/with space.md"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sum.String())
		}
	}
}

func TestAnalyzeModeOnlyGo(t *testing.T) {
	r, base := ledgerRepo(t)
	if err := os.Chmod(filepath.Join(r.dir, "other/other.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.commit("chmod")
	c := analyze(t, r.dir, base, "")
	f := c.File("other/other.go")
	if f == nil || f.Analyzed || f.Skip != skipModeOnly+" (100644 to 100755)" {
		t.Fatalf("got %+v, want a mode-only skip", f)
	}
	if len(c.Packages) != 0 || len(c.Tests) != 0 {
		t.Errorf("mode-only change selected packages %v, tests %v", c.Packages, c.Tests)
	}
}

func TestAnalyzeWorkTree(t *testing.T) {
	r, base := ledgerRepo(t)
	r.write(map[string]string{
		"other/other.go":  "package other\n\nfunc Double(x int) int { return x + x }\n",
		"other/triple.go": "package other\n\nfunc Triple(x int) int {\n\treturn 3 * x\n}\n",
	})
	c := analyze(t, r.dir, base, WorkTree)
	if f := c.File("other/triple.go"); f == nil || f.Status != diff.Added || !reflect.DeepEqual(f.Lines, []diff.Range{{Start: 1, End: 5}}) {
		t.Errorf("untracked file: got %+v", f)
	}
	var names []string
	for _, f := range c.Funcs {
		names = append(names, f.Name)
	}
	if want := []string{"Double", "Triple"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Funcs = %v, want %v", names, want)
	}
	if len(c.Tests) != 1 || c.Tests[0].Name != "TestDouble" || c.Tests[0].Distance != 1 {
		t.Errorf("Tests = %+v, want TestDouble at distance 1", c.Tests)
	}
}

func TestAnalyzeChangedTest(t *testing.T) {
	r, base := ledgerRepo(t)
	r.write(map[string]string{"other/other_test.go": strings.Replace(otherTest, "Double(2) != 4", "Double(3) != 6", 1)})
	r.commit("test change")
	c := analyze(t, r.dir, base, "")
	want := "the test itself changed at other/other_test.go:6; starts no goroutine and touches no sync primitive or channel"
	if len(c.Tests) != 1 || c.Tests[0].Distance != 0 || c.Tests[0].Why != want {
		t.Errorf("Tests = %+v, want one at distance 0 with Why %q", c.Tests, want)
	}
	// Changed together with the function it calls: the reason says both.
	r.write(map[string]string{"other/other.go": "package other\n\nfunc Double(x int) int { return x << 1 }\n"})
	r.commit("code change")
	c = analyze(t, r.dir, base, "")
	want = "the test itself changed at other/other_test.go:6; calls Double, changed at other/other.go:3, directly; starts no goroutine and touches no sync primitive or channel"
	if len(c.Tests) != 1 || c.Tests[0].Why != want || c.Tests[0].Reaches != "Double" {
		t.Errorf("Tests = %+v, want Why %q", c.Tests, want)
	}
}

func TestAnalyzeSubdirModule(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{
		"svc/go.mod":        "module example.com/svc\n\ngo 1.22\n",
		"svc/a/a.go":        "package a\n\nfunc A() int { return 1 }\n",
		"tools/go.mod":      "module example.com/tools\n\ngo 1.22\n",
		"tools/t/t.go":      "package t\n\nfunc T() int { return 1 }\n",
		"svc/nested/go.mod": "module example.com/nested\n\ngo 1.22\n",
		"svc/nested/n.go":   "package nested\n",
	})
	base := r.commit("base")
	r.write(map[string]string{
		"svc/a/a.go":      "package a\n\nfunc A() int { return 2 }\n",
		"tools/t/t.go":    "package t\n\nfunc T() int { return 2 }\n",
		"svc/nested/n.go": "package nested\n\nfunc N() {}\n",
	})
	r.commit("head")
	c := analyze(t, filepath.Join(r.dir, "svc"), base, "")
	if got := c.Packages; !reflect.DeepEqual(got, []string{"example.com/svc/a"}) {
		t.Errorf("Packages = %v", got)
	}
	if f := c.File("tools/t/t.go"); f == nil || f.Skip != "outside module example.com/svc" {
		t.Errorf("tools/t/t.go: %+v", f)
	}
	if f := c.File("svc/nested/n.go"); f == nil || f.Skip != "in another module (svc/nested/go.mod)" {
		t.Errorf("svc/nested/n.go: %+v", f)
	}
	// Findings report paths relative to the module directory too.
	if !c.OnChangedLine("a/a.go", 3) {
		t.Errorf("OnChangedLine(a/a.go, 3) relative to the module = false")
	}
}

func TestAnalyzeEmptyAndNonGo(t *testing.T) {
	r, base := ledgerRepo(t)
	c := analyze(t, r.dir, base, base)
	if len(c.Files) != 0 || len(c.Packages) != 0 || len(c.Tests) != 0 {
		t.Errorf("empty diff: got %+v", c)
	}
	r.write(map[string]string{"README.md": "changed\n", "docs/guide.txt": "new\n"})
	r.commit("docs")
	c = analyze(t, r.dir, base, "")
	if len(c.Files) != 2 || c.AnalyzedFiles() != 0 || len(c.Packages) != 0 || len(c.Tests) != 0 {
		t.Errorf("non-Go diff: got files %+v packages %v", c.Files, c.Packages)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	notRepo := t.TempDir()
	r, base := ledgerRepo(t)
	r.write(map[string]string{"other/other.go": "package other\n\nfunc Double(x int) int { return x + x }\n"})
	r.commit("second")
	r.write(map[string]string{"other/other.go": "package other\n\nfunc Double(x int) int { return x * 2 }\n"})
	r.commit("third")

	// A shallow clone that lacks the base commit.
	shallow := filepath.Join(t.TempDir(), "shallow")
	cmd := exec.Command("git", "clone", "-q", "--depth=1", "file://"+r.dir, shallow)
	cmd.Env = gitEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}

	tests := []struct {
		name        string
		opts        Options
		want, want2 string
	}{
		{name: "not a repository", opts: Options{Dir: notRepo, Base: "main"}, want: "is not in a git repository"},
		{name: "missing dir", opts: Options{Dir: filepath.Join(notRepo, "nope"), Base: "main"}, want: "no such file"},
		{name: "no base", opts: Options{Dir: r.dir}, want: "no base ref given"},
		{name: "unknown base", opts: Options{Dir: r.dir, Base: "no-such-branch"}, want: `unknown base ref "no-such-branch"`},
		{name: "unknown remote branch", opts: Options{Dir: shallow, Base: "origin/nope"}, want: `unknown base ref "origin/nope"`, want2: "git fetch origin nope"},
		{name: "unknown head", opts: Options{Dir: r.dir, Base: base, Head: "nope"}, want: `unknown head ref "nope"`},
		{name: "option-like ref", opts: Options{Dir: r.dir, Base: "--output=x"}, want: "starts with '-'"},
		{name: "shallow clone", opts: Options{Dir: shallow, Base: base}, want: "shallow clone", want2: "--deepen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Analyze(ctx, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.want2) {
				t.Errorf("got error %v, want one containing %q and %q", err, tt.want, tt.want2)
			}
		})
	}
}

func TestAnalyzeNotAModule(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{"a.go": "package a\n"})
	base := r.commit("base")
	r.write(map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	r.commit("head")
	_, err := Analyze(context.Background(), Options{Dir: r.dir, Base: base})
	if err == nil || !strings.Contains(err.Error(), "not in a Go module") {
		t.Errorf("got %v, want a not-in-a-module error", err)
	}
}

// TestAnalyze5000Files checks that a very large diff is handled in one pass
// (one git diff, one cat-file, one go list): it would take minutes if any
// stage ran a process per file.
func TestAnalyze5000Files(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: creates 5,000 files")
	}
	r := newRepo(t)
	files := map[string]string{"go.mod": "module example.com/big\n\ngo 1.22\n"}
	for i := range 2500 {
		files[fmt.Sprintf("p%03d/f%d.go", i%250, i)] = fmt.Sprintf("package p%03d\n\nfunc F%d() int {\n\treturn %d\n}\n", i%250, i, i)
		files[fmt.Sprintf("docs/d%d.txt", i)] = "x\n"
	}
	r.write(files)
	base := r.commit("base")
	for name, content := range files {
		if name != "go.mod" {
			files[name] = strings.Replace(strings.Replace(content, "return", "return 1 +", 1), "x\n", "y\n", 1)
		}
	}
	delete(files, "go.mod")
	r.write(files)
	r.commit("head")
	start := time.Now()
	ctx := context.Background()
	c, err := Analyze(ctx, Options{Dir: r.dir, Base: base, NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	if len(c.Files) != 5000 || c.AnalyzedFiles() != 2500 || len(c.Funcs) != 2500 || len(c.Packages) != 250 {
		t.Fatalf("got %d files, %d analyzed, %d funcs, %d packages; want 5000, 2500, 2500, 250", len(c.Files), c.AnalyzedFiles(), len(c.Funcs), len(c.Packages))
	}
	// Generous: measured well under 5s; a per-file process would take
	// minutes on the slowest CI machine.
	if elapsed > 60*time.Second {
		t.Errorf("Analyze of a 5,000-file diff took %v", elapsed)
	}
	t.Logf("5,000-file diff analyzed in %v (%v)", elapsed, c.Timings)
}

func TestAnalyzeRenameAcrossPackages(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{
		"go.mod":    "module example.com/r\n\ngo 1.22\n",
		"util/u.go": "package util\n\nfunc U() int { return 1 }\n",
		"util/v.go": "package util\n\nfunc V() int {\n\treturn 1\n}\n\nfunc V2() {}\n\nfunc V3() {}\n",
	})
	base := r.commit("base")
	if err := os.MkdirAll(filepath.Join(r.dir, "util2"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("mv", "util/v.go", "util2/v.go")
	r.commit("move")
	c, err := Analyze(context.Background(), Options{Dir: r.dir, Base: base, NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"example.com/r/util", "example.com/r/util2"}; !reflect.DeepEqual(c.Packages, want) {
		t.Errorf("Packages = %v, want %v (the file left util and joined util2)", c.Packages, want)
	}
	if f := c.File("util2/v.go"); f == nil || f.Status != diff.Renamed || f.OldPath != "util/v.go" || len(f.Lines) != 0 {
		t.Errorf("util2/v.go: %+v", f)
	}
}

func TestAnalyzeSubmodule(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{"go.mod": "module example.com/s\n\ngo 1.22\n"})
	// A gitlink entry is all a submodule is to the superproject's diff.
	// (No "git add -A": with no checkout of the submodule it would stage
	// the gitlink's removal.)
	r.git("add", "go.mod")
	r.git("update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub")
	r.git("commit", "-q", "-m", "base")
	base := r.git("rev-parse", "HEAD")
	r.git("update-index", "--cacheinfo", "160000,2222222222222222222222222222222222222222,sub")
	r.git("commit", "-q", "-m", "bump")
	c, err := Analyze(context.Background(), Options{Dir: r.dir, Base: base, NoTests: true})
	if err != nil {
		t.Fatal(err)
	}
	if f := c.File("sub"); f == nil || f.Skip != skipSubmodule || f.Analyzed {
		t.Errorf("sub: got %+v, want skipped as a submodule", f)
	}
}

func TestAnalyzeEmptyBase(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{
		"svc/go.mod":   "module example.com/svc\n\ngo 1.22\n",
		"svc/a/a.go":   "package a\n\nfunc A() int { return 1 }\n",
		"tools/go.mod": "module example.com/tools\n\ngo 1.22\n",
		"tools/t/t.go": "package t\n\nfunc T() int { return 1 }\n",
	})
	r.commit("only")
	c := analyze(t, filepath.Join(r.dir, "svc"), Empty, "")
	if got := c.Packages; !reflect.DeepEqual(got, []string{"example.com/svc/a"}) {
		t.Errorf("Packages = %v, want only the module's", got)
	}
	if c.File("tools/t/t.go") != nil {
		t.Errorf("files outside the directory are part of the change: %+v", c.Files)
	}
	if f := c.File("svc/a/a.go"); f == nil || f.Status != diff.Added || !c.OnChangedLine("a/a.go", 3) {
		t.Errorf("svc/a/a.go: %+v, want added with every line changed", f)
	}
	if c.MergeBase != c.BaseCommit || c.BaseCommit == "" {
		t.Errorf("MergeBase %q, BaseCommit %q: want the empty tree for both", c.MergeBase, c.BaseCommit)
	}
}

// TestAnalyzeBroken checks that the packages that no longer type-check
// (ledger's own tests, bank importing it) are listed in Broken and their
// tests left out.
func TestAnalyzeBroken(t *testing.T) {
	r, base := ledgerRepo(t)
	r.write(map[string]string{
		"ledger/ledger.go": strings.Replace(ledgerBase, "func (l *Ledger) Transfer(from, to string, n int) {", "func (l *Ledger) Send(from, to string, n int) {", 1),
	})
	r.commit("rename Transfer")
	c := analyze(t, r.dir, base, "")
	if want := []string{"example.com/m/bank", "example.com/m/ledger"}; !reflect.DeepEqual(c.Broken, want) {
		t.Errorf("Broken = %v, want %v", c.Broken, want)
	}
	for _, tt := range c.Tests {
		if tt.Package == "example.com/m/bank" || tt.Package == "example.com/m/ledger" {
			t.Errorf("test %s of the broken package chosen", tt.Name)
		}
	}
}

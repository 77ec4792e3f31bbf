package rewrite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/interleave-dev/interleave/internal/testctx"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// copyModule copies a testdata module to a temporary directory, so that
// nothing is written into the repository and the runtime directory can be
// created for go vet.
func copyModule(t *testing.T, name string) string {
	t.Helper()
	return copyDir(t, filepath.Join("testdata", name))
}

// copyDir copies the directory src to a temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// proxyUserCache is the user cache of proxyModule's tests: made by the
// first, shared by the rest of this test process (the runtime is written
// and compiled there once, not once a test; the dependencies' copies are
// named by their content), removed by TestMain.
var proxyUserCache struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if proxyUserCache.dir != "" {
		os.RemoveAll(proxyUserCache.dir)
	}
	os.Exit(code)
}

// proxyModule serves the module in src as modPath@v1.0.0 from a file
// proxy in a fresh temporary directory tmp and points the go command at it
// for the rest of the test: an empty module cache (cache), the user cache
// userCache (proxyUserCache), no checksum database, -mod=mod, no workspace.
func proxyModule(t *testing.T, modPath, src string) (tmp, cache, userCache string) {
	t.Helper()
	tmp = t.TempDir()
	proxy := filepath.Join(tmp, "proxy", filepath.FromSlash(modPath), "@v")
	if err := os.MkdirAll(proxy, 0o755); err != nil {
		t.Fatal(err)
	}
	var zbuf bytes.Buffer
	if err := modzip.CreateFromDir(&zbuf, module.Version{Path: modPath, Version: "v1.0.0"}, src); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"v1.0.0.zip": zbuf.Bytes(), "v1.0.0.mod": gomod, "v1.0.0.info": []byte(`{"Version":"v1.0.0"}`), "list": []byte("v1.0.0\n"),
	} {
		if err := os.WriteFile(filepath.Join(proxy, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocache, err := goCmd(t, tmp, nil, "env", "GOCACHE")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(gocache))
	proxyUserCache.once.Do(func() { proxyUserCache.dir, proxyUserCache.err = os.MkdirTemp("", "rewrite-usercache") })
	if proxyUserCache.err != nil {
		t.Fatal(proxyUserCache.err)
	}
	userCache = proxyUserCache.dir
	t.Setenv("XDG_CACHE_HOME", userCache) // where the copies go
	cache = filepath.Join(tmp, "modcache")
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(filepath.Join(tmp, "proxy")))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	t.Cleanup(func() { goCmd(t, tmp, nil, "clean", "-modcache") })
	return tmp, cache, userCache
}

func goCmd(t *testing.T, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	ctx := testctx.New(t)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return out.String(), err
}

func instrumentMod(t *testing.T, patterns ...string) (string, *Result) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the instrumented testdata module")
	}
	dir := copyModule(t, "mod")
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: patterns})
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	t.Cleanup(func() {
		if err := res.Cleanup(); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(res.TempDir); !os.IsNotExist(err) {
			t.Errorf("Cleanup left %s", res.TempDir)
		}
	})
	return dir, res
}

func TestInstrumentModule(t *testing.T) {
	dir, res := instrumentMod(t, "./...")
	if res.ModulePath != "example.com/mod" || res.ModuleRoot != dir {
		t.Fatalf("module = %s at %s, want example.com/mod at %s", res.ModulePath, res.ModuleRoot, dir)
	}

	// Packages and their tests.
	got := map[string][]string{}
	for _, p := range res.Packages {
		got[p.ImportPath] = p.Tests
		if p.Dir != filepath.Join(dir, strings.TrimPrefix(p.ImportPath, "example.com/mod/")) {
			t.Errorf("%s: Dir = %s", p.ImportPath, p.Dir)
		}
	}
	want := map[string][]string{
		"example.com/mod/conc":     {"TestLocks", "TestWaitOnce", "TestChans", "TestGos", "TestPanic", "TestExternal"}, // go test's order
		"example.com/mod/gen":      {"TestGen"},
		"example.com/mod/cmd/tool": {"TestRun"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Packages = %v\nwant %v", got, want)
	}

	// Drivers exist exactly for the packages with tests (not for notests,
	// nor for dep, which is not matched).
	var overlay struct{ Replace map[string]string }
	if data, err := os.ReadFile(res.Overlay); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(data, &overlay); err != nil {
		t.Fatal(err)
	}
	var drivers []string
	for k := range overlay.Replace {
		if filepath.Base(k) == driverFile {
			rel, _ := filepath.Rel(dir, filepath.Dir(k))
			drivers = append(drivers, filepath.ToSlash(rel))
		}
	}
	slices.Sort(drivers)
	if want := []string{"cmd/tool", "conc", "gen"}; !slices.Equal(drivers, want) {
		t.Errorf("drivers in %v, want %v", drivers, want)
	}
	// The runtime is the shared module, on disk outside the module, not
	// in the overlay.
	if !strings.HasSuffix(res.RuntimeDir, string(filepath.Separator)+"interleavert") || inModuleTree(dir, res.RuntimeDir) {
		t.Errorf("RuntimeDir = %s, want the shared runtime's directory", res.RuntimeDir)
	}
	if _, err := os.Stat(filepath.Join(res.RuntimeDir, "api.go")); err != nil {
		t.Errorf("runtime api.go: %v", err)
	}
	if _, err := os.Stat(filepath.Join(res.RuntimeDir, "embed.go")); err == nil {
		t.Errorf("runtime embed.go copied")
	}
	for k := range overlay.Replace {
		if strings.HasPrefix(k, res.RuntimeDir) {
			t.Errorf("runtime file %s in the overlay", k)
		}
	}
	ov := []string{"-overlay", res.Overlay, "-modfile", res.ModFile}

	// Every file with an operation is rewritten (dep: imported only;
	// notests: matched, no tests; gen: generated; cmd/tool/main_test.go:
	// t.Fatalf, which panics when called after its test returned), and no
	// other.
	var rewritten []string
	for orig := range res.Files {
		rel, _ := filepath.Rel(dir, orig)
		rewritten = append(rewritten, filepath.ToSlash(rel))
	}
	slices.Sort(rewritten)
	wantFiles := []string{
		"cmd/tool/main.go", "cmd/tool/main_test.go", "conc/chans.go", "conc/conc_test.go", "conc/ext_test.go", "conc/gos.go",
		"conc/locks.go", "conc/panics.go", "conc/yield.go", "dep/dep.go", "gen/gen.go", "gen/gen_test.go",
		"notests/notests.go",
	}
	if !slices.Equal(rewritten, wantFiles) {
		t.Errorf("rewritten files = %v\nwant %v", rewritten, wantFiles)
	}
	for orig, dst := range res.Files {
		checkLines(t, orig, dst)
	}

	// The method value and the function value are rewritten (see the
	// golden files), not warned about.
	for _, w := range []string{
		lineOf(t, dir, "conc/locks.go", "unlock := mu.Unlock") + ":",
		lineOf(t, dir, "conc/chans.go", "_ = time.Tick") + ":",
	} {
		if slices.ContainsFunc(res.Warnings, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("warning at %q in %q", w, res.Warnings)
		}
	}

	// go vet needs the runtime directory on disk (see Result.RuntimeDir).
	if err := os.MkdirAll(res.RuntimeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := goCmd(t, dir, nil, append([]string{"vet"}, append(ov, "./...")...)...); err != nil {
		t.Fatalf("go vet -overlay: %v\n%s", err, out)
	}
	if out, err := goCmd(t, dir, nil, append([]string{"test", "-count=1", "-timeout=60s"}, append(ov, "./...")...)...); err != nil {
		t.Fatalf("go test -overlay: %v\n%s", err, out)
	}
	for _, p := range res.Packages {
		out, err := goCmd(t, dir, nil, append([]string{"test", "-list", "."}, append(ov, p.ImportPath)...)...)
		if err != nil {
			t.Fatalf("go test -list: %v\n%s", err, out)
		}
		if !regexp.MustCompile(`(?m)^TestInterleaveDriver$`).MatchString(out) {
			t.Errorf("%s: no TestInterleaveDriver in\n%s", p.ImportPath, out)
		}
	}
	// The driver runs (and, without a config, skips) under the scheduler's Main.
	out, err := goCmd(t, dir, nil, append([]string{"test", "-count=1", "-v", "-run", "^TestInterleaveDriver$"}, append(ov, "./conc")...)...)
	if err != nil || !strings.Contains(out, "TestInterleaveDriver") {
		t.Fatalf("driver: %v\n%s", err, out)
	}

	golden(t, res, dir, "conc/chans.go", "conc/gos.go", "conc/locks.go", "conc/yield.go", "conc/panics.go", "conc/conc_test.go")
	driver := filepath.Join(dir, "conc", driverFile)
	checkGolden(t, "conc_driver_test.go", readOverlay(t, res, driver))
}

// TestInstrumentPattern: only the matched package gets a driver; the
// in-module packages its test binary imports are rewritten; others are not.
func TestInstrumentPattern(t *testing.T) {
	dir, res := instrumentMod(t, "./conc")
	if len(res.Packages) != 1 || res.Packages[0].ImportPath != "example.com/mod/conc" {
		t.Fatalf("Packages = %+v", res.Packages)
	}
	if _, ok := res.Files[filepath.Join(dir, "dep", "dep.go")]; !ok {
		t.Errorf("dep/dep.go (imported by conc) not rewritten")
	}
	if _, ok := res.Files[filepath.Join(dir, "notests", "notests.go")]; ok {
		t.Errorf("notests/notests.go (not imported) rewritten")
	}
	// Without the runtime directory on disk, go test needs -vet=off.
	if out, err := goCmd(t, dir, nil, append(append([]string{"test", "-count=1", "-timeout=60s"}, res.TestFlags...), "./conc")...); err != nil {
		t.Fatalf("go test -overlay: %v\n%s", err, out)
	}
}

// TestPanicLines: a panic on a rewritten line reports the same file:line
// frames as the original program.
func TestPanicLines(t *testing.T) {
	dir, res := instrumentMod(t, "./conc")
	frame := regexp.MustCompile(`(?m)^\s+\S*/conc/(\w+\.go:\d+)`)
	// Each variant's test binary is built once and run for every panic.
	build := func(name string, overlay []string) string {
		bin := filepath.Join(t.TempDir(), name+".test")
		args := append([]string{"test", "-c", "-o", bin}, overlay...)
		if out, err := goCmd(t, dir, nil, append(args, "./conc")...); err != nil {
			t.Fatalf("build %s: %v\n%s", name, err, out)
		}
		return bin
	}
	origBin, instBin := build("orig", nil), build("inst", res.TestFlags)
	frames := func(bin, which string) []string {
		ctx := testctx.New(t)
		cmd := exec.CommandContext(ctx, bin, "-test.count=1", "-test.timeout=60s", "-test.run=^TestPanic$")
		cmd.Dir = filepath.Join(dir, "conc")
		cmd.Env = append(os.Environ(), "CONC_PANIC="+which)
		b, err := cmd.CombinedOutput()
		out := string(b)
		if err == nil {
			t.Fatalf("%s: no panic\n%s", which, out)
		}
		var fs []string
		for _, m := range frame.FindAllStringSubmatch(out, -1) {
			if !strings.HasPrefix(m[1], "conc_test.go") {
				fs = append(fs, m[1])
			}
		}
		if len(fs) == 0 {
			t.Fatalf("%s: no frame in\n%s", which, out)
		}
		if len(fs) > 2 {
			fs = fs[:2]
		}
		return fs
	}
	for _, which := range []string{"select", "after-select", "send", "recv", "go", "mutex", "atomic", "wg"} {
		orig := frames(origBin, which)
		inst := frames(instBin, which)
		if !slices.Equal(orig, inst) {
			t.Errorf("%s: instrumented frames %v, original %v", which, inst, orig)
		}
	}
}

func TestBuildError(t *testing.T) {
	dir := copyModule(t, "broken")
	res, err := Instrument(context.Background(), Options{Dir: dir})
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Instrument = %v, %v; want *BuildError", res, err)
	}
	want := filepath.Join(dir, "broken.go") + ":4:9: undefined: undefinedThing"
	if !slices.Contains(be.Errors, want) {
		t.Errorf("Errors = %q, want %q", be.Errors, want)
	}
}

// instrumentAll instruments ./... of a copy of the testdata module name
// and returns the copy, the result and its packages' import paths.
func instrumentAll(t *testing.T, name string) (string, *Result, []string) {
	t.Helper()
	dir := copyModule(t, name)
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	t.Cleanup(func() { res.Cleanup() })
	var paths []string
	for _, p := range res.Packages {
		paths = append(paths, p.ImportPath)
	}
	return dir, res, paths
}

// TestLeavesOutBrokenTested (issue 23, open-feature/go-sdk's tests that
// need generated mocks): a package whose tests do not compile (in its own
// test file, in its external test package, or in a package it imports) is
// left out with its first errors, files relative to the module, as go
// test ./... fails it and tests the rest. Matched alone it is an error.
func TestLeavesOutBrokenTested(t *testing.T) {
	dir, res, paths := instrumentAll(t, "brokentests")
	if !slices.Equal(paths, []string{"example.com/brokentests/ok"}) {
		t.Errorf("Packages = %v, want the one that compiles", paths)
	}
	want := map[string]string{
		"example.com/brokentests/lib":     "\n\tlib/lib.go:5:25: cannot use",
		"example.com/brokentests/mocked":  "\n\tmocked/mocked_test.go:6:7: undefined: NewMockGetter",
		"example.com/brokentests/user":    "\n\tlib/lib.go:5:25: cannot use",
		"example.com/brokentests/xmocked": "\n\txmocked/xmocked_test.go:10:",
	}
	if len(res.LeftOut) != len(want) {
		t.Errorf("LeftOut = %q, want %d packages", res.LeftOut, len(want))
	}
	for _, l := range res.LeftOut {
		path, _, _ := strings.Cut(l, ":")
		if w, ok := want[path]; !ok || !strings.HasPrefix(l, path+": not searched: does not compile\n\t") || !strings.Contains(l, w) {
			t.Errorf("LeftOut has %q, want %q with %q", l, path+": not searched: does not compile", w)
		}
	}
	// Matched alone, or beside packages without tests only, nothing is
	// left to search: the errors are the outcome.
	for _, patterns := range [][]string{{"./mocked"}, {"./mocked", "./untested"}} {
		_, err := Instrument(context.Background(), Options{Dir: dir, Patterns: patterns})
		var be *BuildError
		if !errors.As(err, &be) || len(be.Errors) != 1 || !strings.Contains(be.Errors[0], "undefined: NewMockGetter") {
			t.Errorf("Instrument %v = %v, want a *BuildError naming mocked", patterns, err)
		}
	}
}

// TestHintFor: a module that builds with another language version than
// interleave's gets the hint (in a *BuildError, and on each package left
// out as not compiling); a patch release apart, or no version, none.
func TestHintFor(t *testing.T) {
	if h := hintFor("go1.27.1", "go1.26.8"); !strings.Contains(h, "built with go1.26.8") || !strings.Contains(h, "GOTOOLCHAIN=go1.27.1 go run") {
		t.Errorf("hintFor(go1.27.1, go1.26.8) = %q, want the hint naming both", h)
	}
	for _, v := range []string{"go1.26.1", ""} {
		if h := hintFor(v, "go1.26.8"); h != "" {
			t.Errorf("hintFor(%q, go1.26.8) = %q, want none", v, h)
		}
	}
}

// TestLeavesOutBrokenUntested: a package matched by ./... that does not
// compile and has no tests (haxmap's examples, several mains in one
// directory) is left out with a reason, as go test ./... tests the rest;
// the packages with tests are instrumented. Matched alone it is an error.
func TestLeavesOutBrokenUntested(t *testing.T) {
	dir, res, paths := instrumentAll(t, "brokenex")
	if !slices.Equal(paths, []string{"example.com/brokenex/ok"}) {
		t.Errorf("Packages = %v, want the one with tests", paths)
	}
	if len(res.LeftOut) != 1 || !strings.HasPrefix(res.LeftOut[0], "example.com/brokenex/examples: not searched: it does not compile and has no tests (") ||
		!strings.Contains(res.LeftOut[0], "main redeclared") {
		t.Errorf("LeftOut = %q, want examples with its first error", res.LeftOut)
	}
	_, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./examples"}})
	var be *BuildError
	if !errors.As(err, &be) || len(be.Errors) != 1 || !strings.Contains(be.Errors[0], "main redeclared") {
		t.Errorf("Instrument ./examples = %v, want a *BuildError naming it", err)
	}
}

func TestNotInModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOWORK", "off")
	_, err := Instrument(context.Background(), Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "not inside a Go module") {
		t.Fatalf("Instrument = %v, want a not-in-a-module error", err)
	}
}

// lineOf returns "file:line" of the first line of file holding text.
func lineOf(t *testing.T, dir, file, text string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, text) {
			return fmt.Sprintf("%s:%d", file, i+1)
		}
	}
	t.Fatalf("%s: no line holds %q", file, text)
	return ""
}

// replaced are the identifiers a rewrite legitimately removes: the
// instrumented methods and functions and the packages qualifying them.
var replaced = map[string]bool{}

func init() {
	for _, m := range []string{"Lock", "Unlock", "TryLock", "RLock", "RUnlock", "TryRLock", "Add", "Done",
		"Wait", "Go", "Do", "Signal", "Broadcast", "Stop", "Reset", "Parallel", "Run", "Name", "close", "time",
		"runtime", "len", "Sleep", "After", "Tick", "NewTimer", "NewTicker", "AfterFunc", "Gosched", "os", "Exit", "Cleanup",
		"sync", "Mutex", "RWMutex", "Get", "Put", "Now", "Since", "Until", "context", "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause"} {
		replaced[m] = true
	}
}

// checkLines verifies that every identifier of the original file (but the
// replaced ones) is still on its line in the rewritten one, as the compiler counts lines (honouring
// /*line*/ directives).
func checkLines(t *testing.T, orig, rewritten string) {
	t.Helper()
	idents := func(name string) map[int][]string {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f := fset.AddFile(name, -1, len(src))
		var s scanner.Scanner
		s.Init(f, src, nil, 0)
		m := map[int][]string{}
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.IDENT {
				line := fset.Position(pos).Line
				m[line] = append(m[line], lit)
			}
		}
		return m
	}
	o, r := idents(orig), idents(rewritten)
	for line, ids := range o {
		have := slices.Clone(r[line])
		for _, id := range ids {
			if replaced[id] {
				continue
			}
			i := slices.Index(have, id)
			if i < 0 {
				t.Errorf("%s:%d: identifier %s not on its line after rewriting (line has %v)", orig, line, id, r[line])
				break
			}
			have = slices.Delete(have, i, i+1)
		}
	}
}

func readOverlay(t *testing.T, res *Result, orig string) []byte {
	t.Helper()
	data, err := os.ReadFile(res.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(regexp.QuoteMeta(fmt.Sprintf("%q", orig)) + `:\s*"([^"]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s not in overlay", orig)
	}
	out, err := os.ReadFile(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func golden(t *testing.T, res *Result, dir string, files ...string) {
	for _, f := range files {
		checkGolden(t, strings.ReplaceAll(f, "/", "_"), readOverlay(t, res, filepath.Join(dir, f)))
	}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (run with -update and review the diff):\n%s", name, path, got)
	}
}

// TestOldLanguageVersion: without range-over-func (go1.22) a range over a
// channel becomes a three-clause loop; a select whose label a goto
// targets is left whole and reported; the rest is rewritten.
func TestOldLanguageVersion(t *testing.T) {
	dir := copyModule(t, "old")
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	file := filepath.Join(dir, "old", "old.go")
	for _, w := range []string{
		file + ":24: select left as written: its label is the target of a goto",
	} {
		if !slices.ContainsFunc(res.Warnings, func(s string) bool { return strings.HasPrefix(s, w) }) {
			t.Errorf("no warning %q in %q", w, res.Warnings)
		}
	}
	out, err := os.ReadFile(res.Files[file])
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 {
		t.Errorf("warnings %q, want only the select's", res.Warnings)
	}
	for _, want := range []string{"for _ilch, v, _ilok := interleavert.RangeInit(ch); ; { if v, _ilok = interleavert.Recv2(_ilch); !_ilok { break }; _ = v; {", "interleavert.Send(ch, i)", "interleavert.Close(ch)", "case v := <-ch:"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("rewritten old.go lacks %q:\n%s", want, out)
		}
	}
	if testing.Short() {
		return
	}
	// The runtime and the rewritten code compile at go1.22 too.
	if out, err := goCmd(t, dir, nil, append(append([]string{"test", "-count=1", "-timeout=60s"}, res.TestFlags...), "./...")...); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}

// TestInstrumentDeps: a dependency module's time operations are rewritten
// (generic code, a type embedding *time.Timer or *time.Ticker gets Stop and
// Reset of its own), the runtime is importable from it, and the dependency
// still compiles and its users' tests pass under the overlay.
func TestInstrumentDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the instrumented testdata module")
	}
	dir := copyModule(t, "depmod")
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./use"}})
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	defer res.Cleanup()
	if inModuleTree(dir, res.RuntimeDir) {
		t.Errorf("RuntimeDir = %s, want the shared runtime's directory", res.RuntimeDir)
	}
	orig := filepath.Join(dir, "tick", "tick.go")
	dst, ok := res.DepFiles[orig]
	if !ok {
		t.Fatalf("DepFiles = %v, want %s", res.DepFiles, orig)
	}
	checkLines(t, orig, dst)
	data, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{
		`import interleavert "` + rtModPath + `"`,
		"interleavert.AfterFunc(d, f)", "interleavert.Now()", "interleavert.Since(b.set)",
		"interleavert.WithTimeout(ctx, d)", "interleavert.WithTimeoutCause(ctx, d, cause)", "interleavert.NewTimer(d)", "interleavert.TimerStop(t)",
		"interleavert.NewTicker(d)",
		"func (_ilt Timer) Stop() bool { return interleavert.TimerStop(_ilt.Timer) }",
		"func (_ilt Timer) Reset(d time.Duration) bool { return interleavert.TimerReset(_ilt.Timer, d) }",
		"func (_ilt Ticking[T]) Stop() { interleavert.TickerStop(_ilt.Ticker) }",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("rewritten tick.go lacks %q:\n%s", want, text)
		}
	}
	// Only time operations: the dependency's locks, channels and select
	// stay as written.
	for _, not := range []string{"interleavert.Lock", "interleavert.Select", "interleavert.Recv"} {
		if strings.Contains(text, not) {
			t.Errorf("rewritten tick.go has %q", not)
		}
	}
	var mods []string
	for _, m := range res.Deps {
		mods = append(mods, fmt.Sprintf("%s:%d", m.Path, m.Files))
	}
	if want := []string{"example.com/oldtick:1", "example.com/tick:1"}; !slices.Equal(mods, want) {
		t.Errorf("Deps = %v, want %v", mods, want)
	}
	if got, want := res.DepSummary(), "rewrote the time operations of 2 files of 2 dependency modules (example.com/oldtick, example.com/tick)"; got != want {
		t.Errorf("DepSummary = %q, want %q", got, want)
	}
	args := append([]string{"test", "-count=1"}, res.TestFlags...)
	if out, err := goCmd(t, dir, nil, append(args, "./use")...); err != nil {
		t.Fatalf("go test %v: %v\n%s", res.TestFlags, err, out)
	}
}

// TestKeptModules: test frameworks are never rewritten.
func TestKeptModules(t *testing.T) {
	for path, want := range map[string]bool{
		"go.uber.org/goleak":                   true,
		"github.com/stretchr/testify":          false, // time operations only
		"github.com/onsi/ginkgo/v2":            true,
		"gotest.tools/v3":                      true,
		"github.com/stretchr/testifyx":         false,
		"github.com/jonboulle/clockwork":       false,
		"golang.org/x/sync":                    false,
		"github.com/interleave-dev/interleave": true,
	} {
		if got := keptModule(path); got != want {
			t.Errorf("keptModule(%s) = %v, want %v", path, got, want)
		}
	}
}

// TestInstrumentDepsModCache: a dependency from the module cache (served
// here by a file proxy), whose files the go command refuses to overlay, is
// rewritten into a copy that an alternate go.mod replaces it with; the
// build works with -mod=mod and -mod=readonly, and with -mod=vendor the
// vendored files are overlaid instead.
func TestInstrumentDepsModCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the instrumented testdata module")
	}
	_, cache, userCache := proxyModule(t, "example.com/tick", filepath.Join("testdata", "depmod", "tick"))

	dir := copyModule(t, "depmod")
	os.RemoveAll(filepath.Join(dir, "tick"))
	mod := "module example.com/depmod\n\ngo 1.25\n\nrequire (\n\texample.com/oldtick v0.0.0\n\texample.com/tick v1.0.0\n)\n\nreplace example.com/oldtick => ./oldtick\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := goCmd(t, dir, nil, "mod", "tidy"); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	tidied, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./use"}})
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	defer res.Cleanup()
	if res.ModFile == "" || len(res.Deps) != 2 || res.Deps[1].Files != 1 || !strings.HasPrefix(res.Deps[1].Dir, filepath.Join(userCache, "interleave", "deps")) {
		t.Fatalf("ModFile = %q, Deps = %+v: want the module replaced by a copy in the user cache", res.ModFile, res.Deps)
	}
	// The next run finds the copy (and the build cache its packages).
	again, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./use"}})
	if err != nil {
		t.Fatalf("Instrument again: %v", err)
	}
	again.Cleanup()
	if goMod, _ := os.ReadFile(filepath.Join(dir, "go.mod")); string(goMod) != string(tidied) {
		t.Errorf("the module's go.mod changed:\n%s", goMod)
	}
	if len(again.Deps) != 2 || again.Deps[1].Dir != res.Deps[1].Dir {
		t.Errorf("second run copied to %+v, first to %s", again.Deps, res.Deps[1].Dir)
	}
	if _, ok := res.DepFiles[filepath.Join(cache, "example.com", "tick@v1.0.0", "tick.go")]; !ok {
		t.Errorf("DepFiles = %v: no tick.go from the module cache", res.DepFiles)
	}
	for _, flags := range []string{"-mod=mod", "-mod=readonly"} {
		args := append([]string{"test", "-count=1"}, res.TestFlags...)
		if out, err := goCmd(t, dir, []string{"GOFLAGS=" + flags}, append(args, "./use")...); err != nil {
			t.Fatalf("GOFLAGS=%s go test %v: %v\n%s", flags, res.TestFlags, err, out)
		}
	}

	// Vendored: the files are in the module, the overlay takes them.
	if out, err := goCmd(t, dir, nil, "mod", "vendor"); err != nil {
		t.Fatalf("go mod vendor: %v\n%s", err, out)
	}
	vres, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./use"}, BuildFlags: []string{"-mod=vendor"}})
	if err != nil {
		t.Fatalf("Instrument -mod=vendor: %v", err)
	}
	defer vres.Cleanup()
	if _, ok := vres.DepFiles[filepath.Join(dir, "vendor", "example.com", "tick", "tick.go")]; !ok || vres.ModFile != "" {
		t.Fatalf("-mod=vendor: DepFiles = %v, ModFile = %q: want the vendored file overlaid", vres.DepFiles, vres.ModFile)
	}
	if vres.RuntimeDir != filepath.Join(dir, rtDir) {
		t.Errorf("-mod=vendor: RuntimeDir = %s, want the runtime inside the module", vres.RuntimeDir)
	}
	args := append([]string{"test", "-count=1"}, vres.TestFlags...)
	if out, err := goCmd(t, dir, []string{"GOFLAGS=-mod=vendor"}, append(args, "./use")...); err != nil {
		t.Fatalf("go test %v: %v\n%s", vres.TestFlags, err, out)
	}
}

// TestInstrumentDepsSync: with DepSync a dependency's goroutines, locks and
// channels are rewritten too, and a dependency older than go1.20 gets a
// build constraint that lets it call the runtime's generic API, its lines
// kept.
func TestInstrumentDepsSync(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the instrumented testdata module")
	}
	dir := copyModule(t, "depmod")
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./use"}, DepSync: true})
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	defer res.Cleanup()
	for orig, dst := range res.DepFiles {
		checkLines(t, orig, dst)
	}
	for file, wants := range map[string][]string{
		"tick/tick.go":       {"interleavert.Lock(&b.mu)", "interleavert.Select(", "interleavert.AfterFunc(d, f)"},
		"oldtick/oldtick.go": {"//go:build go1.20\n\n//line " + filepath.Join(dir, "oldtick", "oldtick.go") + ":1\n", "interleavert.Send(ch, v)"},
		"oldtick/build.go":   {"//go:build go1.20 && (!nothing)\n", "interleavert.Recv(ch)"},
	} {
		dst, ok := res.DepFiles[filepath.Join(dir, filepath.FromSlash(file))]
		if !ok {
			t.Errorf("%s not rewritten: %v", file, res.DepFiles)
			continue
		}
		data, err := os.ReadFile(dst)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(string(data), want) {
				t.Errorf("rewritten %s lacks %q:\n%s", file, want, data)
			}
		}
	}
	args := append([]string{"test", "-count=1"}, res.TestFlags...)
	if out, err := goCmd(t, dir, nil, append(args, "./use")...); err != nil {
		t.Fatalf("go test %v: %v\n%s", res.TestFlags, err, out)
	}
}

// TestInstrumentLeakChecker: goleak is left as written but for its dumps
// and counts of goroutines (runtime.Stack, NumGoroutine), which call the
// runtime's, so that a goleak too old for the options that ignore the
// scheduler's goroutines does not see them either (chanx's
// TestGetDataWithGoleak with goleak v1.1.12 failed under interleave
// only); its sleeps stay real.
func TestInstrumentLeakChecker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the instrumented testdata module")
	}
	dir := copyModule(t, "leakdep")
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./use"}})
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	defer res.Cleanup()
	orig := filepath.Join(dir, "oldgoleak", "goleak.go")
	dst, ok := res.DepFiles[orig]
	if !ok {
		t.Fatalf("DepFiles = %v, want %s", res.DepFiles, orig)
	}
	checkLines(t, orig, dst)
	data, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"interleavert.Stack(buf, true)", "interleavert.NumGoroutine()", "time.Sleep(time.Millisecond << i)"} {
		if !strings.Contains(text, want) {
			t.Errorf("rewritten goleak.go lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "interleavert.Sleep") {
		t.Errorf("rewritten goleak.go sleeps on the virtual clock:\n%s", text)
	}
	if len(res.Deps) != 1 || res.Deps[0].Kept == "" {
		t.Errorf("Deps = %+v, want goleak kept but for its goroutine dumps", res.Deps)
	}
	if got := res.DepSummary(); got != "" {
		t.Errorf("DepSummary = %q, want none (no time operations rewritten)", got)
	}
	args := append([]string{"test", "-count=1"}, res.TestFlags...)
	if out, err := goCmd(t, dir, nil, append(args, "./use")...); err != nil {
		t.Fatalf("go test %v: %v\n%s", res.TestFlags, err, out)
	}
}

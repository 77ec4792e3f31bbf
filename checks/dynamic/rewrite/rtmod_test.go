package rewrite

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSharedRuntimeOK(t *testing.T) {
	plain := t.TempDir()
	vendored := t.TempDir()
	if err := os.Mkdir(filepath.Join(vendored, "vendor"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		e     env
		flags []string
		root  string
		want  bool
	}{
		{"module", env{}, nil, plain, true},
		{"GOWORK=off", env{GOWORK: "off"}, nil, plain, true},
		{"workspace", env{GOWORK: "/w/go.work"}, nil, plain, false},
		{"vendor directory", env{}, nil, vendored, false},
		{"vendor directory, -mod=mod", env{GOFLAGS: "-mod=mod"}, nil, vendored, true},
		{"vendor directory, GOFLAGS -mod=mod, flag -mod=vendor", env{GOFLAGS: "-mod=mod"}, []string{"-mod=vendor"}, vendored, false},
		{"GOFLAGS -mod=vendor", env{GOFLAGS: "-race --mod=vendor"}, nil, plain, false},
		{"flag -mod=readonly", env{}, []string{"-race", "-mod=readonly"}, vendored, true},
		{"GOFLAGS -modfile", env{GOFLAGS: "-modfile=/x/alt.mod"}, nil, plain, false},
	} {
		if got := sharedRuntimeOK(tt.e, tt.flags, tt.root); got != tt.want {
			t.Errorf("%s: sharedRuntimeOK = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// writeModule writes files (name to content) into a new temporary module
// directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := writeFile(filepath.Join(dir, name), []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const sharedRTTest = `package p

import (
	"sync"
	"testing"
)

func TestP(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); mu.Lock(); n++; mu.Unlock() }()
	}
	wg.Wait()
	if n != 2 {
		t.Fatal(n)
	}
}
`

// TestSharedRuntimeCompiledOnce: two modules (one with a go line older
// than the runtime's language) use the runtime from one directory outside
// both, so the second build finds its compiled package in the build cache;
// a runtime inside each module is compiled again for each.
func TestSharedRuntimeCompiledOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two instrumented modules")
	}
	a := writeModule(t, map[string]string{"go.mod": "module example.com/a\n\ngo 1.25\n", "p/p_test.go": sharedRTTest})
	b := writeModule(t, map[string]string{"go.mod": "module example.com/b\n", "p/p_test.go": sharedRTTest})
	var dirs []string
	for _, dir := range []string{a, b} {
		res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./p"}})
		if err != nil {
			t.Fatalf("Instrument %s: %v", dir, err)
		}
		defer res.Cleanup()
		dirs = append(dirs, res.RuntimeDir)
		if inModuleTree(dir, res.RuntimeDir) || res.ModFile == "" {
			t.Fatalf("RuntimeDir = %s, ModFile = %q: want the shared runtime through an alternate go.mod", res.RuntimeDir, res.ModFile)
		}
		src, err := os.ReadFile(res.Files[filepath.Join(dir, "p", "p_test.go")])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), `import interleavert "`+rtModPath+`"`) {
			t.Errorf("rewritten p_test.go does not import %s:\n%s", rtModPath, src)
		}
		gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(gomod), rtModPath) {
			t.Errorf("the module's own go.mod changed:\n%s", gomod)
		}
		// -x prints the compiles the go command runs (not the cached ones).
		args := append(append([]string{"test", "-count=1", "-x"}, res.TestFlags...), "./p")
		out, err := goCmd(t, dir, nil, args...)
		if err != nil {
			t.Fatalf("go test %v: %v\n%s", res.TestFlags, err, out)
		}
		if dir == b {
			if m := regexp.MustCompile(`compile .* -p \S*interleavert `).FindString(out); m != "" {
				t.Errorf("the runtime was compiled again for the second module: %s", m)
			}
		}
	}
	if dirs[0] != dirs[1] {
		t.Errorf("runtime directories %s and %s, want one", dirs[0], dirs[1])
	}
}

// TestWorkspaceRuntime: in workspace mode (no -modfile) the runtime is
// overlaid inside the module and the instrumented tests build and pass.
func TestWorkspaceRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented module")
	}
	w := writeModule(t, map[string]string{
		"go.work":       "go 1.25\n\nuse ./m\n",
		"m/go.mod":      "module example.com/m\n\ngo 1.25\n",
		"m/p/p_test.go": sharedRTTest,
	})
	t.Setenv("GOWORK", "")
	dir := filepath.Join(w, "m")
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./p"}})
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	defer res.Cleanup()
	if res.RuntimeDir != filepath.Join(dir, rtDir) || res.ModFile != "" {
		t.Fatalf("RuntimeDir = %s, ModFile = %q: want the runtime inside the module, no -modfile", res.RuntimeDir, res.ModFile)
	}
	args := append(append([]string{"test", "-count=1"}, res.TestFlags...), "./p")
	if out, err := goCmd(t, dir, []string{"GOWORK=", "GOFLAGS="}, args...); err != nil {
		t.Fatalf("go test %v: %v\n%s", res.TestFlags, err, out)
	}
}

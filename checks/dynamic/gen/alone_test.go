package gen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGoTestEach builds a real package's tests once and runs each alone:
// a panic in a goroutine takes down only its own case, every case runs
// in the package's directory, and each status comes from its own -test.v
// line.
func TestGoTestEach(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	root := t.TempDir()
	pkgDir := filepath.Join(root, "p")
	files := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"p/p.go":       "package p\n",
		"p/marker.txt": "here\n",
		"p/p_test.go": `package p

import (
	"os"
	"testing"
	"time"
)

func TestPass(t *testing.T) {}
func TestFail(t *testing.T) { t.Fatal("wrong") }
func TestSkip(t *testing.T) { t.Skip("not here") }
func TestGoroutinePanic(t *testing.T) {
	go func() { panic("boom in a goroutine") }()
	time.Sleep(time.Minute)
}
func TestInPackageDir(t *testing.T) {
	if _, err := os.Stat("marker.txt"); err != nil {
		t.Fatal(err)
	}
}
`,
	}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var runs []caseRun
	for _, n := range []string{"TestPass", "TestFail", "TestSkip", "TestGoroutinePanic", "TestInPackageDir"} {
		runs = append(runs, caseRun{Pattern: "./p", Dir: pkgDir, Name: n, Key: "example.com/m/p." + n})
	}
	var built time.Duration
	st, outs, err := goTestEach(context.Background(), root, "5m", nil, runs, &built)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"TestPass": "pass", "TestFail": "fail", "TestSkip": "skip", "TestGoroutinePanic": "crash", "TestInPackageDir": "pass"}
	for n, w := range want {
		if got := st["example.com/m/p."+n]; got != w {
			t.Errorf("%s: %q, want %q; output:\n%s", n, got, w, outs["example.com/m/p."+n])
		}
	}
	if out := string(outs["example.com/m/p.TestGoroutinePanic"]); !crashOutput([]byte(out)) || !strings.Contains(out, "boom in a goroutine") {
		t.Errorf("the crash's output lacks its panic:\n%s", out)
	}
	if built <= 0 {
		t.Errorf("the build's time was not counted (%v)", built)
	}
}

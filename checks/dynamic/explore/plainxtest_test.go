package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestPlainCheckExternalTests: tests of an external test package
// (package a_test) run under plain go test as go test runs them, beside a
// package with internal tests too: one that passes under go test passes
// (it reads t.Name(), as go.uber.org/fx's TestOptionString does), and one
// that fails is quoted at its own line, not at the other wrapper's "not
// in this test package".
func TestPlainCheckExternalTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary; skipped with -short")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.21\n",
		"a/a.go":      "package a\n\nfunc Two() int { return 2 }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestInternal(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(\"two\")\n\t}\n}\n",
		"a/x_test.go": `package a_test

import (
	"testing"

	"example.com/m/a"
)

func TestName(t *testing.T) {
	if t.Name() != "TestName" || a.Two() != 2 {
		t.Errorf("t.Name() = %q", t.Name())
	}
}

func TestFails(t *testing.T) {
	t.Errorf("boom")
}
`,
	}
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	finding := func(test string) checks.Finding {
		return checks.Finding{Kind: checks.TestFailure, Package: "example.com/m/a", Test: test, Message: test + ": test failed"}
	}
	got, err := PlainCheck(context.Background(), []checks.Finding{finding("TestName"), finding("TestFails"), finding("TestInternal")}, PlainOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if p := got[0]; p.Fails() || p.Runs == 0 || p.ExitCode != 0 {
		t.Errorf("TestName: %+v (%s), want plain go test passes (exit 0)", p, p.Label())
	}
	if p := got[1]; !p.Fails() || p.ExitCode != 1 || p.Failure != "x_test.go:16: boom" {
		t.Errorf("TestFails: %+v (%s), want plain go test fails too at x_test.go:16: boom", p, p.Label())
	}
	if p := got[2]; p.Fails() || p.Runs == 0 || strings.Contains(p.Failure, "not in this test package") {
		t.Errorf("TestInternal: %+v (%s), want plain go test passes", p, p.Label())
	}
}

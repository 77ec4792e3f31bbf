package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestRunnerSubtests: Run of an interface a *testing.T satisfies (testify's
// suite runs each method through one) becomes rt.RunRunner, and t.Run
// becomes rt.Run, in the code under test and in a dependency's time-only
// rewrite alike, so a suite method runs under control; a Run of another
// signature (a suite's own Run(name, func())) stays as written.
func TestRunnerSubtests(t *testing.T) {
	const src = `package p

import "testing"

type runner interface {
	Run(name string, f func(t *testing.T)) bool
}

type other interface {
	Run(name string, f func()) bool
}

func RunAll(tb testing.TB, fs map[string]func(*testing.T), o other) {
	if r, ok := tb.(runner); ok {
		for name, f := range fs {
			r.Run(name, f)
		}
	}
	o.Run("x", func() {})
}

func Sub(t *testing.T, f func()) bool {
	return t.Run("sub", func(t *testing.T) { f() })
}
`
	p, f := checkedFile(t, "p.go", src)
	for _, timeOnly := range []bool{false, true} {
		out, warns, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", timeOnly)
		if err != nil || !changed {
			t.Fatalf("timeOnly %v: changed %v, err %v", timeOnly, changed, err)
		}
		got := string(out)
		for _, want := range []string{
			rtp + "RunRunner(r, name, f)",
			"return " + rtp + "Run(t, \"sub\", func(t *testing.T) { f() })",
			"o.Run(\"x\", func() {})",
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

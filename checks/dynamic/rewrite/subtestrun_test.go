package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestSubtestRunsInDependency: a dependency that runs its caller's
// functions as subtests (testify's suite: t.Run on a *testing.T, and Run
// through an interface *testing.T satisfies) has those calls rewritten
// in its time-only rewrite too, so that the subtests run under control;
// a Run of another shape, and its other synchronization, stay as written.
func TestSubtestRunsInDependency(t *testing.T) {
	const src = `package p

import (
	"sync"
	"testing"
)

type runner interface {
	Run(name string, f func(t *testing.T)) bool
}

type job interface {
	Run(name string) bool
}

var mu sync.Mutex

func RunAll(tb testing.TB, fs map[string]func(*testing.T)) {
	r, ok := tb.(runner)
	if !ok {
		return
	}
	for name, f := range fs {
		r.Run(name, f)
	}
}

func Sub(t *testing.T, f func()) bool {
	return t.Run("sub", func(t *testing.T) { f() })
}

func Other(j job) bool {
	mu.Lock()
	defer mu.Unlock()
	return j.Run("x")
}
`
	p, f := checkedFile(t, "p.go", src)
	for _, timeOnly := range []bool{true, false} {
		out, warns, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", timeOnly)
		if err != nil || !changed {
			t.Fatalf("timeOnly %v: changed %v, err %v", timeOnly, changed, err)
		}
		got := string(out)
		for _, want := range []string{
			rtp + "RunRunner(r, name, f)",
			"return " + rtp + "Run(t, \"sub\", func(t *testing.T) { f() })",
			"return j.Run(\"x\")",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("timeOnly %v: no %q in\n%s", timeOnly, want, got)
			}
		}
		if timeOnly && !strings.Contains(got, "mu.Lock()") {
			t.Errorf("time-only rewrite changed the lock:\n%s", got)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
			t.Errorf("timeOnly %v: %v\n%s", timeOnly, err, got)
		}
		for _, w := range warns {
			t.Errorf("timeOnly %v: warning %s", timeOnly, w)
		}
	}
}

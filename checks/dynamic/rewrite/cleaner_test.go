package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestCleanerCleanup: Cleanup(func()) of a test helper's own interface
// (miniredis's Tester) becomes rt.CleanupCleaner, in the code under test
// and in a dependency's time-only rewrite alike, so the helper's cleanup
// runs inside the schedule; t.Cleanup becomes rt.Cleanup in both; a
// Cleanup of another signature or on a concrete type stays as written.
func TestCleanerCleanup(t *testing.T) {
	const src = `package p

import "testing"

type Tester interface {
	Fatalf(string, ...interface{})
	Cleanup(func())
}

type closer interface {
	Cleanup(f func() error)
}

type pool struct{}

func (pool) Cleanup(f func()) { f() }

type server struct{}

func (*server) Close() {}

func Run(t Tester) *server {
	s := &server{}
	t.Cleanup(s.Close)
	return s
}

func RunGeneric[T interface{ Cleanup(func()) }](t T) {
	t.Cleanup(func() {})
}

func Direct(t *testing.T, c closer, p pool) {
	t.Cleanup(func() {})
	c.Cleanup(func() error { return nil })
	p.Cleanup(func() {})
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
			rtp + "CleanupCleaner(t, s.Close)",
			rtp + "CleanupCleaner(t, func() {})",
			rtp + "Cleanup(t, func() {})",
			"c.Cleanup(func() error { return nil })",
			"p.Cleanup(func() {})",
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

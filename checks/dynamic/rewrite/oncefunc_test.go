package rewrite

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestOnceFuncs: sync.OnceFunc, OnceValue and OnceValues become the
// runtime's, whose once is controlled (a re-entry through a logger is a
// deadlock the scheduler sees, not a real wait inside sync).
func TestOnceFuncs(t *testing.T) {
	const src = `package p

import "sync"

var settings func() map[string]string

func init() { settings = sync.OnceValue(load) }

func load() map[string]string { return nil }

var (
	warm = sync.OnceFunc(func() {})
	pair = sync.OnceValues(func() (int, error) { return 1, nil })
)
`
	p, f := checkedFile(t, "p.go", src)
	out, _, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", false)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	got := string(out)
	for _, want := range []string{
		"settings = " + rtp + "OnceValue(load)",
		"warm = " + rtp + "OnceFunc(func() {})",
		"pair = " + rtp + "OnceValues(func() (int, error)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "sync.Once") {
		t.Errorf("sync's left:\n%s", got)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
		t.Errorf("%v\n%s", err, got)
	}
}

// TestSynctestCalls: testing/synctest's Test and Wait become the
// runtime's, which run the bubble's function on the controlled test
// goroutine (its goroutines controlled, its clock the virtual one).
func TestSynctestCalls(t *testing.T) {
	const src = `package p

import (
	"testing"
	"testing/synctest"
)

func TestX(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		go func() {}()
		synctest.Wait()
	})
}
`
	p, f := checkedFile(t, "p_test.go", src)
	out, _, changed, err := rewriteFileMode(p, f, []byte(src), "example.com/rt", false)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	got := string(out)
	for _, want := range []string{rtp + "SynctestTest(t, func(t *testing.T) {", rtp + "SynctestWait()"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "synctest.") {
		t.Errorf("synctest's left:\n%s", got)
	}
}
